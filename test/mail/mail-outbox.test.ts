import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { createMailSender } from '../../src/mail/mail-sender.js';
import { claimDueMail, listOutbox } from '../../src/mail/outbox-repository.js';
import { createServices, type Services } from '../../src/services.js';
import { asOperator, expectInvalid, POS } from '../admin/fixtures.js';
import { bodyOf } from '../expect-http.js';
import { describeEachDialect, testApp, testConfig, type Dialect, type TestApp } from '../helper.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.js';

// E-mail to merchants end to end (docs/back-office.md, E-mail to merchants; docs/pos-api.md, States and transitions:
// "The merchant receives an e-mail when a key is created or rotated and when an edit widens its
// access"): the operator's admin calls write the outbox in the change's transaction, the sender delivers
// over SMTP (nodemailer) to a real SMTP server started here (smtp-server), once each, never the key; an
// SMTP server that is down delays mail and loses none; two apps on one database send each message once.

const EMAIL = 'financeiro@acme.example';
const SECOND = 1000;

interface Created {
  id: string;
  key: string;
}

describeEachDialect('e-mail to merchants', (dialect: Dialect) => {
  let sink: SmtpSink;
  let t: TestApp;
  let drop: () => Promise<void>;
  /** PostgreSQL: where t's database is, for a second app's own pool. */
  let connection: { url: string; searchPath: string } | undefined;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.stop();
  });
  beforeEach(async () => {
    await sink.restart();
    sink.received.length = 0;
    const opened = await dialect.open();
    drop = () => opened.drop();
    connection = opened.connection;
    t = testApp({
      db: opened.db,
      config: { SMTP_URL: sink.url, MAIL_FROM: 'Gateway <no-reply@gw.example>' },
    });
    await t.admin('PUT', `${POS}/accounts/acme`, { name: 'Acme Bares', email: EMAIL });
    for (const place of ['P1', 'P2', 'P3'])
      await t.admin('PUT', `${POS}/accounts/acme/places/${place}`, { timezone: 'America/Sao_Paulo' });
  });
  afterEach(async () => {
    await t.services.mailSender.stop();
    await t.app.close();
    await drop();
  });

  const createKey = async (body: Record<string, unknown> = {}): Promise<Created> =>
    bodyOf(
      await t.admin('POST', `${POS}/accounts/acme/keys`, {
        name: 'ERP',
        permissions: ['event.view'],
        places: ['P1'],
        expires_on: '2027-06-30',
        ...body,
      }),
    ) as unknown as Created;

  /** One poll of the sender, then what the SMTP server holds. */
  const deliver = async (): Promise<ReceivedMail[]> => {
    await t.services.mailSender.sendDue();
    return sink.received;
  };

  /** Every received message once per outbox id, and none that is not in the outbox. */
  const expectEachOnce = async () => {
    const ids = sink.received.map((mail) => mail.outboxId);
    expect(new Set(ids).size).toBe(ids.length);
    const outbox = await listOutbox(t.db);
    expect(ids.sort()).toEqual(
      outbox
        .filter((row) => row.sent_at !== null)
        .map((row) => row.id)
        .sort(),
    );
  };

  describe('the account’s e-mail address (admin API field)', () => {
    it('PUT stores it, GET and the list show it; a PUT without it clears it (fields not given keep their default)', async () => {
      expect(bodyOf(await t.admin('GET', `${POS}/accounts/acme`)).email).toBe(EMAIL);
      await t.admin('PUT', `${POS}/accounts/acme`, { name: 'Acme Bares', email: 'outro@acme.example' });
      const listed = JSON.parse((await t.admin('GET', `${POS}/accounts`)).body) as { email: string }[];
      expect(listed.map((account) => account.email)).toEqual(['outro@acme.example']);
      await t.admin('PUT', `${POS}/accounts/acme`, { name: 'Acme Bares' });
      expect(bodyOf(await t.admin('GET', `${POS}/accounts/acme`)).email).toBeNull();
    });

    it('422 names `email` for anything that is not one address, and changes nothing', async () => {
      for (const email of [
        'acme',
        'a@b',
        'a b@acme.example',
        'x@acme.example\r\nBcc: y@evil.example',
        7,
        `${'a'.repeat(250)}@acme.example`,
      ]) {
        expectInvalid(await asOperator(t, 'PUT', `${POS}/accounts/acme`, { name: 'Acme', email }), 'email');
      }
      expect(bodyOf(await t.admin('GET', `${POS}/accounts/acme`)).email).toBe(EMAIL);
    });
  });

  describe('each case arrives once, never with the key', () => {
    it('created: to the account’s address, naming the key, its reach and when, in text and HTML', async () => {
      const created = await createKey();
      const [mail, ...more] = await deliver();
      expect(more).toEqual([]);
      expect(mail?.recipients).toEqual([EMAIL]);
      expect(mail?.subject).toBe('Nova chave de API criada: ERP');
      expect(mail?.headers.get('from')).toBe('Gateway <no-reply@gw.example>');
      expect(mail?.headers.get('message-id')).toBe(`<${mail?.outboxId}@gw.example>`);
      for (const body of [mail?.text, mail?.html]) {
        expect(body).toContain(created.id);
        expect(body).toContain('ERP');
        expect(body).toContain('eventos (event.view)');
        expect(body).toContain('P1');
        expect(body).toContain('30/06/2027 23:59 (UTC-03:00)'); // valid until 23:59 of the date
        expect(body).toContain('20/11/2026 09:00 (UTC-03:00)'); // when: the test clock's 12:00Z
        expect(body).toContain('Se não foi você');
      }
      expect(mail?.html).toMatch(/^<!doctype html><html lang="pt-BR">/);
      expect(mail?.raw).not.toContain(created.key);
      expect(mail?.text).not.toContain(created.key);
      expect(mail?.html).not.toContain(created.key);
      await deliver();
      expect(sink.received).toHaveLength(1);
      await expectEachOnce();
    });

    it('rotated: the old key’s end (24 h, or at once with invalidate_current); neither key text is sent', async () => {
      const created = await createKey();
      const first = bodyOf(await t.admin('POST', `${POS}/accounts/acme/keys/${created.id}/rotate`, {}));
      const second = bodyOf(
        await t.admin('POST', `${POS}/accounts/acme/keys/${created.id}/rotate`, { invalidate_current: true }),
      );
      const mails = await deliver();
      expect(mails.map((mail) => mail.subject)).toEqual([
        'Nova chave de API criada: ERP',
        'Chave de API renovada: ERP',
        'Chave de API renovada: ERP',
      ]);
      expect(mails[1]?.text).toContain(
        'Chave anterior: continua funcionando até 21/11/2026 09:00 (UTC-03:00)',
      );
      expect(mails[2]?.text).toContain('Chave anterior: deixou de funcionar imediatamente');
      for (const mail of mails)
        for (const key of [created.key, first.key, second.key]) expect(mail.raw).not.toContain(String(key));
      await expectEachOnce();
    });

    it('an edit that widens: a permission, a place, all places, validity; one message each, naming the change', async () => {
      const created = await createKey();
      const path = `${POS}/accounts/acme/keys/${created.id}`;
      await t.admin('PATCH', path, { permissions: ['event.view', 'sale-by-payment-method.view'] });
      await t.admin('PATCH', path, { places: ['P1', 'P2'] });
      await t.admin('PATCH', path, { places: 'all' });
      await t.admin('PATCH', path, { expires_on: '2027-12-31' });
      const mails = (await deliver()).slice(1);
      expect(mails.map((mail) => mail.subject)).toEqual(
        Array(4).fill('Acesso ampliado na chave de API: ERP'),
      );
      expect(mails.map((mail) => mail.text.split(/\r?\n/).find((line) => line.startsWith('- ')))).toEqual([
        '- Permissão adicionada: vendas por forma de pagamento (sale-by-payment-method.view)',
        '- Local adicionado: P2',
        '- A chave passou a valer para todos os locais da conta, inclusive os que forem criados depois',
        '- Validade estendida: de 30/06/2027 23:59 (UTC-03:00) para 31/12/2027 23:59 (UTC-03:00)',
      ]);
      expect(mails[1]?.html).toContain('<li>Local adicionado: P2</li>');
      await expectEachOnce();
    });

    it('an edit that widens and narrows at once tells only what widened', async () => {
      const created = await createKey();
      await t.admin('PATCH', `${POS}/accounts/acme/keys/${created.id}`, { permissions: [], places: ['P2'] });
      const mails = (await deliver()).slice(1);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain('- Local adicionado: P2');
      expect(mails[0]?.text).not.toContain('Permissão');
    });

    it('a key name with markup is escaped in the HTML and kept as typed in the text', async () => {
      await createKey({ name: '<img src=x onerror=alert(1)> Caixa & "Bar"' });
      const [mail] = await deliver();
      expect(mail?.html).toContain('&lt;img src=x onerror=alert(1)&gt; Caixa &amp; &quot;Bar&quot;');
      expect(mail?.html).not.toContain('<img');
      expect(mail?.text).toContain('Chave: <img src=x onerror=alert(1)> Caixa & "Bar"');
    });
  });

  describe('what sends nothing', () => {
    it('narrowing (permission or place removed, validity shortened), renaming, pause, reactivation, revocation', async () => {
      const created = await createKey({
        permissions: ['event.view', 'sale-by-payment-method.view'],
        places: 'all',
      });
      await deliver();
      const path = `${POS}/accounts/acme/keys/${created.id}`;
      await t.admin('PATCH', path, { permissions: ['event.view'] });
      await t.admin('PATCH', path, { places: ['P1', 'P2'] });
      await t.admin('PATCH', path, { places: ['P2'] });
      await t.admin('PATCH', path, { expires_on: '2027-01-31' });
      await t.admin('PATCH', path, { name: 'ERP novo' });
      await t.admin('PATCH', path, { places: ['P2'], permissions: ['event.view'] }); // the same again
      await t.admin('POST', `${path}/pause`);
      await t.admin('POST', `${path}/reactivate`);
      await t.admin('POST', `${path}/revoke`);
      expect(await listOutbox(t.db)).toHaveLength(1);
      expect(await deliver()).toHaveLength(1);
    });

    it('an account without an address: the change is made, no message is written', async () => {
      await t.admin('PUT', `${POS}/accounts/acme`, { name: 'Acme Bares' });
      const created = await createKey();
      await t.admin('POST', `${POS}/accounts/acme/keys/${created.id}/rotate`, {});
      await t.admin('PATCH', `${POS}/accounts/acme/keys/${created.id}`, { places: 'all' });
      expect(await listOutbox(t.db)).toEqual([]);
    });

    it('a refused change writes no message (the outbox is written in the change’s transaction)', async () => {
      expect(
        (await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x', places: ['NOPE'] }))
          .statusCode,
      ).toBe(422);
      const created = await createKey();
      await t.admin('POST', `${POS}/accounts/acme/keys/${created.id}/revoke`);
      expect(
        (await asOperator(t, 'PATCH', `${POS}/accounts/acme/keys/${created.id}`, { places: 'all' }))
          .statusCode,
      ).toBe(409);
      expect(
        (await asOperator(t, 'POST', `${POS}/accounts/acme/keys/${created.id}/rotate`, {})).statusCode,
      ).toBe(409);
      expect((await listOutbox(t.db)).map((row) => row.kind)).toEqual(['pos_key_created']);
    });

    it('the outbox never holds the key text either', async () => {
      const created = await createKey();
      const rotated = bodyOf(await t.admin('POST', `${POS}/accounts/acme/keys/${created.id}/rotate`, {}));
      const stored = JSON.stringify(await listOutbox(t.db));
      expect(stored).not.toContain(created.key);
      expect(stored).not.toContain(String(rotated.key));
    });
  });

  describe('an SMTP server that is down delays mail and loses none', () => {
    it('failed attempts back off exponentially on the clock (30 s, 1 min …) and the message arrives once after the server is back', async () => {
      await sink.stop();
      await createKey();
      expect(await t.services.mailSender.sendDue()).toEqual({ taken: 1, sent: 0, failed: 1 });
      let [row] = await listOutbox(t.db);
      expect(row).toMatchObject({ attempts: 1, sent_at: null, failed_at: null, lease_token: null });
      expect(row?.next_attempt_at).toBe(t.clock.now() + 30 * SECOND);
      expect(row?.last_error).toMatch(/ECONNREFUSED/);

      t.clock.advance(29 * SECOND);
      expect((await t.services.mailSender.sendDue()).taken).toBe(0); // not due yet
      t.clock.advance(1 * SECOND);
      expect(await t.services.mailSender.sendDue()).toEqual({ taken: 1, sent: 0, failed: 1 });
      [row] = await listOutbox(t.db);
      expect(row?.attempts).toBe(2);
      expect(row?.next_attempt_at).toBe(t.clock.now() + 60 * SECOND);

      await sink.restart();
      t.clock.advance(59 * SECOND);
      expect((await t.services.mailSender.sendDue()).taken).toBe(0);
      expect(sink.received).toEqual([]);
      t.clock.advance(1 * SECOND);
      expect(await t.services.mailSender.sendDue()).toEqual({ taken: 1, sent: 1, failed: 0 });
      [row] = await listOutbox(t.db);
      expect(row).toMatchObject({ attempts: 3, sent_at: t.clock.now(), last_error: null });
      // Delivered: the bodies are dropped (a message may carry a one-time link), the envelope stays.
      const [kept] = await t.db
        .selectFrom('mail_outbox')
        .select(['kind', 'recipient', 'subject', 'text_body', 'html_body'])
        .execute();
      expect(kept).toMatchObject({ kind: 'pos_key_created', text_body: '', html_body: '' });
      expect(kept?.subject).not.toBe('');
      t.clock.advance(24 * 3600 * SECOND);
      await t.services.mailSender.sendDue();
      expect(sink.received).toHaveLength(1);
      await expectEachOnce();
    });

    it('after its last attempt a message is given up, kept with its error, and tried no more', async () => {
      await sink.stop();
      await createKey();
      const sender = createMailSender({
        db: t.db,
        clock: t.clock,
        transport: {
          name: 'test',
          send: () => Promise.reject(new Error('550 mailbox unavailable')),
          close: () => undefined,
        },
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
        options: { maxAttempts: 2, retryBaseMs: SECOND },
      });
      await sender.sendDue();
      t.clock.advance(SECOND);
      await sender.sendDue();
      const [row] = await listOutbox(t.db);
      expect(row).toMatchObject({
        attempts: 2,
        failed_at: t.clock.now(),
        last_error: '550 mailbox unavailable',
      });
      await sink.restart();
      t.clock.advance(24 * 3600 * SECOND);
      expect((await t.services.mailSender.sendDue()).taken).toBe(0);
    });

    it('a message taken by a sender that died is sent by another once its lease ends', async () => {
      await createKey();
      const [lost] = await claimDueMail(t.db, {
        now: t.clock.now(),
        leaseMs: 120 * SECOND,
        limit: 10,
        token: 'dead',
      });
      expect(lost?.attempt).toBe(1);
      expect((await t.services.mailSender.sendDue()).taken).toBe(0); // leased
      t.clock.advance(120 * SECOND);
      expect(await t.services.mailSender.sendDue()).toEqual({ taken: 1, sent: 1, failed: 0 });
      expect(sink.received.map((mail) => mail.outboxId)).toEqual([lost?.id]);
    });
  });

  describe('a fleet: two apps on one database', () => {
    it('their running senders (started, polling, stopped) deliver each of 30 messages once', async () => {
      // The second app has its own connection pool on PostgreSQL, as a second process would; SQLite is
      // served by one process (README), so there the two senders share its one handle.
      const otherDb: Db =
        connection === undefined
          ? t.db
          : openDatabase({ kind: 'postgres', url: connection.url }, { searchPath: connection.searchPath });
      const config = testConfig({ SMTP_URL: sink.url });
      const fast = { pollMs: 10, batchSize: 4 };
      const apps: Services[] = [t.db, otherDb].map((db) =>
        createServices({ db, clock: systemClock, config, mail: { options: fast } }),
      );
      // 15 keys created and rotated (an account has at most 20 active keys): 30 messages.
      const keys: string[] = [];
      for (let i = 0; i < 15; i++) {
        const created = await createKey({ name: `Caixa ${i}` });
        const path = `${POS}/accounts/acme/keys/${created.id}/rotate`;
        keys.push(created.key, String(bodyOf(await t.admin('POST', path, {})).key));
      }
      for (const app of apps) app.mailSender.start();
      await sink.waitFor(30);
      await new Promise((resolve) => setTimeout(resolve, 200)); // time for a duplicate to show
      for (const app of apps) await app.mailSender.stop();
      if (otherDb !== t.db) await otherDb.destroy();
      expect(sink.received).toHaveLength(30);
      await expectEachOnce();
      expect(new Set(sink.received.map((mail) => mail.subject)).size).toBe(30);
      for (const mail of sink.received) for (const key of keys) expect(mail.raw).not.toContain(key);
    });
  });
});
