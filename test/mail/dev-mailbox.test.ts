import { describe, expect, it } from 'vitest';
import { createDevMailbox, linksIn, splitLinks } from '../../src/mail/dev-mailbox.js';
import type { OutgoingMail } from '../../src/mail/mail-message.js';
import { listOutbox } from '../../src/mail/outbox-repository.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';

// The development mailbox (docs/operations.md, Reading e-mail locally): outside production the sender
// keeps every delivered message whole, links intact, in a table bounded to the newest messages; in
// production (NODE_ENV=production) nothing is kept anywhere new and the outbox drops the bodies on
// delivery as before.

const LINK = /https?:\/\/panel\.test\/panel\/set-password\?token=[A-Za-z0-9_-]{43}/;

/** A merchant account and an invitation of Ana to its panel, through the admin API. */
async function invite(t: TestApp): Promise<void> {
  await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme Bares' });
  await t.admin('POST', '/admin/v1/pos/accounts/acme/users', { email: 'ana@acme.example', name: 'Ana' });
}

/** A message as the sender hands it to a transport. */
const mail = (n: number, to = 'ana@acme.example'): OutgoingMail => ({
  id: `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`,
  attempt: 1,
  kind: 'test',
  to,
  subject: `Message ${String(n)}`,
  text: `Body ${String(n)}: https://panel.test/x?token=t${String(n)}\n`,
  html: `<p>${String(n)}</p>`,
});

describe('development mailbox', () => {
  describeEachDialect('outside production (NODE_ENV=test)', (dialect) => {
    const t = useTestApp(dialect, { config: { PUBLIC_BASE_URL: 'http://panel.test' } });

    it('an invitation delivered without SMTP_URL is kept whole, its link working; the outbox still drops its bodies', async () => {
      await invite(t);
      const mailbox = t.services.mailbox!;
      expect(await mailbox.list()).toEqual([]);
      expect((await t.services.mailSender.sendDue()).sent).toBe(1);

      const [entry, ...more] = await mailbox.list();
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        kind: 'panel_invitation',
        to: 'ana@acme.example',
        transport: 'log',
        deliveredAt: t.clock.now(),
      });
      const message = await mailbox.find(entry!.id);
      const link = LINK.exec(message!.text)?.[0];
      expect(link).toBeDefined();
      expect(message!.html).toContain(`href="${link!}"`);
      expect(message!.subject).toBe(entry!.subject);
      const token = new URL(link!).searchParams.get('token')!;
      await expect(t.services.merchantUsers.link(token)).resolves.toMatchObject({ ok: true });

      // The outbox's row: delivered, its bodies dropped, as in production.
      const [row] = await listOutbox(t.db);
      expect(row).toMatchObject({ id: entry!.id, text_body: '', html_body: '' });
      expect(row!.sent_at).not.toBeNull();
    });

    it('keeps the newest messages only, each once, newest first; filters by address (any case); unknown ids are undefined', async () => {
      const mailbox = createDevMailbox({ db: t.db, clock: t.clock, size: 3 });
      for (const n of [1, 2, 3, 4, 5]) {
        await mailbox.keep(mail(n, n % 2 === 0 ? 'bia@acme.example' : 'Ana@Acme.example'), 'log');
        t.clock.advance(1000);
      }
      // Delivered again (at least once delivery): kept once, where it was.
      await mailbox.keep(mail(5), 'log');
      expect((await mailbox.list()).map((entry) => entry.subject)).toEqual([
        'Message 5',
        'Message 4',
        'Message 3',
      ]);
      expect((await mailbox.list({ limit: 1 })).map((entry) => entry.subject)).toEqual(['Message 5']);
      expect((await mailbox.list({ to: 'ANA@acme.example ' })).map((entry) => entry.subject)).toEqual([
        'Message 5',
        'Message 3',
      ]);
      expect(await mailbox.find(mail(1).id)).toBeUndefined();
      expect(await mailbox.find('nope')).toBeUndefined();
      expect((await t.db.selectFrom('dev_mailbox').select('id').execute()).length).toBe(3);
    });

    it('a message the mailbox cannot keep is still delivered once, and the failure logged', async () => {
      const mailbox = createDevMailbox({ db: t.db, clock: t.clock });
      const delivered: string[] = [];
      const warnings: string[] = [];
      const transport = mailbox.around(
        {
          name: 'log',
          send: (message) => {
            delivered.push(message.id);
            return Promise.resolve();
          },
          close: () => undefined,
        },
        { warn: (_fields, message) => warnings.push(message) },
      );
      await t.db.schema.dropTable('dev_mailbox').execute();
      await transport.send(mail(1));
      expect(delivered).toEqual([mail(1).id]);
      expect(warnings).toEqual(['e-mail not kept in the development mailbox']);
    });
  });

  describeEachDialect('in production (NODE_ENV=production)', (dialect) => {
    const t = useTestApp(dialect, {
      config: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://panel.test', TRUST_PROXY: '127.0.0.1' },
    });

    it('no mailbox: the invitation is delivered, nothing is written to the mailbox table, the outbox drops its bodies', async () => {
      expect(t.services.mailbox).toBeNull();
      await invite(t);
      const [queued] = await listOutbox(t.db);
      expect(queued!.text_body).toMatch(LINK);
      expect((await t.services.mailSender.sendDue()).sent).toBe(1);
      expect(await t.db.selectFrom('dev_mailbox').selectAll().execute()).toEqual([]);
      const [row] = await listOutbox(t.db);
      expect(row).toMatchObject({ kind: 'panel_invitation', text_body: '', html_body: '' });
      expect(row!.sent_at).not.toBeNull();
    });
  });

  it('links: every http(s) URL once, in order, without the punctuation that ends a sentence', () => {
    const text =
      'Open https://a.test/x?token=1. Or (http://b.test/y), again https://a.test/x?token=1\nftp://c.test';
    expect(linksIn(text)).toEqual(['https://a.test/x?token=1', 'http://b.test/y']);
    expect(splitLinks('a <b> https://a.test/?q=<x> end')).toEqual([
      { text: 'a <b> ' },
      { url: 'https://a.test/?q=' },
      { text: '<x> end' },
    ]);
    expect(splitLinks('')).toEqual([]);
  });
});
