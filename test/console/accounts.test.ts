import { beforeEach, expect, it, vi } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import type { BackOfficeAction } from '../../src/audit/back-office-log.js';
import { DEMO_ACCOUNT, seedPosDemo } from '../../src/pos/demo.js';
import type { PosPermission } from '../../src/pos/api/pos-permissions.js';
import { keyOutcomeValue } from '../../src/pos/keys/merchant-key-problem.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { signedInStaff } from './console-agent.js';

// The merchant pages of the console at the request level (issue 14): support reads accounts and keys,
// revokes a merchant key with a reason kept in the key audit trail and the back-office log, and reads
// refusals; every operator page and form (accounts, places, events, users, receipts) answers support
// 403, a forged post with a valid token included, and changes nothing; the operator's forms are checked
// by the admin API's schemas, naming the field.

const RECEIPT = {
  place: 'SP01',
  occurred_at: '2026-11-20T21:30:00-03:00',
  payment_method: 'tef_credit',
  brand: 'VISA',
  amount: '12.50',
  kind: 'sale',
};

/** A change made in the console (its sign-ins, `console.signIn`, are in the log too). */
const consoleChange = (action: BackOfficeAction) =>
  action.actor.channel === 'console' && !action.action.startsWith('console.');

const ndjson = (ids: string[], patch: Record<string, unknown> = {}) =>
  ids.map((id) => JSON.stringify({ ...RECEIPT, id, ...patch })).join('\n');

describeEachDialect('console: merchant accounts', (dialect) => {
  const t = useTestApp(dialect);
  beforeEach(async () => {
    await seedPosDemo(t.services, { receipts: 20 });
  });

  /** A signed-in staff user's agent, and their session cookie for requests the agent cannot send. */
  async function staff(role: 'operator' | 'support') {
    const { agent, user } = await signedInStaff(t, role);
    return { agent, name: user.name, cookie: agent.cookieHeader() };
  }

  /** Sends a file to the receipts upload as the page's script does. */
  function upload(cookie: string, token: string | undefined, body: string, type = 'application/x-ndjson') {
    return t.app.admin.inject({
      method: 'POST',
      url: `/console/accounts/${DEMO_ACCOUNT}/receipts`,
      headers: {
        cookie,
        'content-type': type,
        ...(token === undefined ? {} : { 'x-csrf-token': token }),
      },
      payload: body,
    });
  }

  const receiptCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('pos_receipts')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('account_id', '=', DEMO_ACCOUNT)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const newKey = async () =>
    keyOutcomeValue(
      await t.services.merchantKeys.create(
        DEMO_ACCOUNT,
        { name: 'ERP da matriz', permissions: ['event.view'], places: 'all' },
        SERVICE_ACTOR,
      ),
    );

  it('support reads the list, the account and its keys (never a key), with no operator link', async () => {
    const { agent } = await staff('support');
    const created = await newKey();
    const list = await agent.get('/console/accounts?q=bares');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="/console/accounts/${DEMO_ACCOUNT}"`);
    expect(list.body).not.toContain('new-account');
    const page = await agent.get(`/console/accounts/${DEMO_ACCOUNT}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ERP da matriz');
    expect(page.body).not.toContain(created.key);
    for (const operatorOnly of ['/edit"', '/places/', '/users"', '/receipts"', 'new-place']) {
      expect(page.body).not.toContain(operatorOnly);
    }
    expect(page.body).toContain(`/console/accounts/${DEMO_ACCOUNT}/refusals`);
    const key = await agent.get(`/console/accounts/${DEMO_ACCOUNT}/keys/${created.id}`);
    expect(key.statusCode).toBe(200);
    expect(key.body).toContain(`/keys/${created.id}/revoke`);
    expect(key.body).not.toContain(created.key);
    expect((await agent.get('/console/accounts/nosuchaccount')).statusCode).toBe(404);
  });

  it('support: 403 on every operator page and on forged posts with a valid token, nothing changed', async () => {
    const { agent, cookie } = await staff('support');
    const base = `/console/accounts/${DEMO_ACCOUNT}`;
    for (const path of [
      '/console/accounts/new-account',
      `${base}/edit`,
      `${base}/places/new-place`,
      `${base}/places/SP01`,
      `${base}/places/SP01/edit`,
      `${base}/places/SP01/events/new-event`,
      `${base}/places/REC01/events/FREVO/edit`,
      `${base}/places/REC01/events/FREVO/delete`,
      `${base}/users`,
      `${base}/receipts`,
    ]) {
      const answer = await agent.get(path);
      expect(answer.statusCode, path).toBe(403);
      expect(answer.body, path).not.toContain('<form method="post" action="/console/accounts');
    }
    // A token of a page support may open: the CSRF check passes, the gate refuses.
    const token = await agent.csrfOf(base);
    const forged: [string, Record<string, string>][] = [
      ['/console/accounts/new-account', { id: 'forged', name: 'Forged', currency: 'BRL', active: 'true' }],
      [`${base}/edit`, { name: 'Renamed by support', currency: 'BRL', active: 'true' }],
      [`${base}/places/new-place`, { id: 'FORGED', timezone: 'America/Sao_Paulo' }],
      [`${base}/places/SP01/edit`, { name: 'Renamed', timezone: 'America/Sao_Paulo' }],
      [`${base}/places/SP01/events/new-event`, { id: 'FORGED', name: 'Forged' }],
      [`${base}/places/REC01/events/FREVO/edit`, { name: 'Renamed' }],
      [`${base}/places/REC01/events/FREVO/delete`, {}],
      [`${base}/users`, { email: 'eve@example.com', name: 'Eve' }],
    ];
    for (const [path, fields] of forged) {
      expect((await agent.postWithToken(path, fields, token)).statusCode, path).toBe(403);
    }
    const before = await receiptCount();
    expect((await upload(cookie, token, ndjson(['FORGED1']))).statusCode).toBe(403);

    const { posData, merchantUsers, backOfficeLog } = t.services;
    expect((await posData.listAccounts()).map((a) => a.id)).toEqual([DEMO_ACCOUNT]);
    expect((await posData.account(DEMO_ACCOUNT)).name).toBe('Demo Bares e Eventos');
    expect((await posData.listPlaces(DEMO_ACCOUNT)).map((p) => p.id).sort()).toEqual([
      'MAN01',
      'REC01',
      'SP01',
    ]);
    expect((await posData.place(DEMO_ACCOUNT, 'SP01')).name).toBe('Bar Paulista');
    expect((await posData.listEvents(DEMO_ACCOUNT, 'SP01')).map((e) => e.id)).toEqual(['SJ2026']);
    expect((await posData.listEvents(DEMO_ACCOUNT, 'REC01')).find((e) => e.id === 'FREVO')?.name).toBe(
      'Noite do Frevo',
    );
    expect(await merchantUsers.list(DEMO_ACCOUNT)).toEqual([]);
    expect(await receiptCount()).toBe(before);
    expect((await backOfficeLog.list()).actions.filter(consoleChange)).toEqual([]);
  });

  it('revoking without a reason, or with more than 500 characters, is 422 naming the field; nothing changed', async () => {
    const { agent } = await staff('support');
    const created = await newKey();
    const path = `/console/accounts/${DEMO_ACCOUNT}/keys/${created.id}/revoke`;
    const form = await agent.get(path);
    expect(form.statusCode).toBe(200);
    expect(form.body).toMatch(/<textarea id="field-reason" name="reason"[^>]*required/);
    for (const reason of ['', '   ', 'x'.repeat(501)]) {
      const refused = await agent.post(path, { reason }, path);
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain('id="error-reason"');
      expect(refused.body).toContain('href="#field-reason"');
      expect(refused.body).toContain('aria-invalid="true"');
    }
    expect((await t.services.merchantKeys.get(DEMO_ACCOUNT, created.id)).state).toBe('active');
    const events = await t.services.keyAudit.ofMerchantKey(DEMO_ACCOUNT, created.id, { limit: 50 });
    expect(events.events.map((event) => event.event)).toEqual(['issued']);
  });

  it('a revocation is in the key audit trail (staff, console, the user’s name, the reason) and the back-office log; the key answers 401 revoked', async () => {
    const { agent, name } = await staff('support');
    const created = await newKey();
    const ping = () =>
      t.call({
        method: 'GET',
        url: '/v1/api-public/ping',
        headers: { authorization: `Bearer ${created.key}` },
      });
    expect((await ping()).statusCode).toBe(200);
    const path = `/console/accounts/${DEMO_ACCOUNT}/keys/${created.id}/revoke`;
    const reason = 'Chave exposta num repositório público (chamado 4711).';
    const done = await agent.post(path, { reason }, path);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/console/accounts/${DEMO_ACCOUNT}/keys/${created.id}`);

    const refused = await ping();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'invalid_token', reason: 'revoked' });

    const [revoked] = (
      await t.services.keyAudit.ofMerchantKey(DEMO_ACCOUNT, created.id, { event: ['revoked'], limit: 50 })
    ).events;
    expect(revoked?.actor).toMatchObject({ role: 'staff', channel: 'console', displayName: name });
    expect(revoked?.details).toMatchObject({ reason, previous_key_ended: false });
    const [logged] = (await t.services.backOfficeLog.list({ action: 'revokeMerchantKey' })).actions;
    expect(logged).toMatchObject({
      target: `pos/accounts/${DEMO_ACCOUNT}/keys/${created.id}/revoke`,
      details: { reason },
      actor: { role: 'staff', channel: 'console', displayName: name },
    });
    // The history shows who and why; a second revocation is refused as done already, recording nothing.
    const page = await agent.get(`/console/accounts/${DEMO_ACCOUNT}/keys/${created.id}`);
    expect(page.body).toContain(`${name} (Console)`);
    expect(page.body).toContain('Chave exposta num repositório público (chamado 4711).');
    expect(page.body).not.toContain(`/keys/${created.id}/revoke"`);
    const again = await agent.postWithToken(
      path,
      { reason: 'again' },
      await agent.csrfOf(`/console/accounts/${DEMO_ACCOUNT}`),
    );
    expect(again.statusCode).toBe(303);
    expect((await t.services.backOfficeLog.list({ action: 'revokeMerchantKey' })).actions).toHaveLength(1);
  });

  it('the admin API’s revocation is unchanged: no body, the same answer, no reason in the trail', async () => {
    const created = await newKey();
    const answer = await t.admin('POST', `/admin/v1/pos/accounts/${DEMO_ACCOUNT}/keys/${created.id}/revoke`);
    expect(answer.json()).toMatchObject({ id: created.id, state: 'revoked' });
    const [revoked] = (
      await t.services.keyAudit.ofMerchantKey(DEMO_ACCOUNT, created.id, { event: ['revoked'], limit: 50 })
    ).events;
    expect(revoked?.details).toEqual({ previous_key_ended: false });
  });

  it('the refusals page shows each refused call: status, code linked to its anchor, param, detail, key, request id; filtered per key', async () => {
    const { agent } = await staff('support');
    const keyNamed = async (name: string, permissions: PosPermission[]) =>
      keyOutcomeValue(
        await t.services.merchantKeys.create(
          DEMO_ACCOUNT,
          { name, permissions, places: 'all' },
          SERVICE_ACTOR,
        ),
      );
    const bare = await keyNamed('Sem permissões', []);
    const reader = await keyNamed('Leitor de eventos', ['event.view']);
    const call = (key: string, url: string) =>
      t.call({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    const forbidden = await call(bare.key, '/v1/api-public/events?place=SP01');
    expect(forbidden.statusCode).toBe(403);
    const invalid = await call(reader.key, '/v1/api-public/events?place=SP01&limit=500');
    expect(invalid.statusCode).toBe(422);
    const ids = [forbidden, invalid].map((answer) => String(answer.headers['x-request-id']));
    // Written in the background: wait until both are there.
    await vi.waitFor(async () => {
      const list = await t.services.refusals.list({ kind: 'account', id: DEMO_ACCOUNT });
      expect(ids.every((id) => list.some((r) => r.request_id === id))).toBe(true);
    });
    const rowOf = (body: string, id: string) =>
      new RegExp(`<tr data-request-id="${id}"[^>]*>[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';

    const page = await agent.get(`/console/accounts/${DEMO_ACCOUNT}/refusals`);
    expect(page.statusCode).toBe(200);
    const denied = rowOf(page.body, ids[0]!);
    expect(denied).toContain('403');
    expect(denied).toContain('href="https://api.example.test/docs/problems#problem-forbidden_permission"');
    expect(denied).toContain('listEvents');
    expect(denied).toContain('Sem permissões');
    expect(denied).toContain('lacks the permission');
    const refused = rowOf(page.body, ids[1]!);
    expect(refused).toContain('href="https://api.example.test/docs/problems#problem-invalid_parameter"');
    expect(refused).toContain('<code>limit</code>');
    expect(refused).toContain('must be an integer from 1 to 100');
    expect(refused).toContain('Leitor de eventos');

    // One key's: the other key's refusal is not listed, and the filter says which key is shown.
    const one = await agent.get(`/console/accounts/${DEMO_ACCOUNT}/refusals?key=${reader.id}`);
    expect(one.statusCode).toBe(200);
    expect(rowOf(one.body, ids[1]!)).not.toBe('');
    expect(rowOf(one.body, ids[0]!)).toBe('');
    expect(one.body).toContain(`<option value="${reader.id}" selected`);
    // A key of no account (or of another) is not found; the key's page links to its refusals.
    expect((await agent.get(`/console/accounts/${DEMO_ACCOUNT}/refusals?key=NOPE`)).statusCode).toBe(404);
    const keyPage = await agent.get(`/console/accounts/${DEMO_ACCOUNT}/keys/${bare.id}`);
    expect(keyPage.body).toContain(`/console/accounts/${DEMO_ACCOUNT}/refusals?key=${bare.id}`);
    const bareOnly = await agent.get(`/console/accounts/${DEMO_ACCOUNT}/refusals?key=${bare.id}`);
    expect(rowOf(bareOnly.body, ids[0]!)).not.toBe('');
    expect(rowOf(bareOnly.body, ids[1]!)).toBe('');
  });

  it('the operator creates and edits an account with the admin API’s schema, naming the field at fault', async () => {
    const { agent, name } = await staff('operator');
    const path = '/console/accounts/new-account';
    const bad = await agent.post(path, {
      id: 'bad id',
      name: '',
      currency: 'brl',
      active: 'true',
      email: 'nope',
    });
    expect(bad.statusCode).toBe(422);
    for (const field of ['id', 'name', 'currency', 'email'])
      expect(bad.body).toContain(`id="error-${field}"`);
    const taken = await agent.post(path, {
      id: DEMO_ACCOUNT,
      name: 'Other',
      currency: 'BRL',
      active: 'true',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('id="error-id"');
    expect((await t.services.posData.account(DEMO_ACCOUNT)).name).toBe('Demo Bares e Eventos');

    const made = await agent.post(path, {
      id: 'acme',
      name: 'ACME Bares',
      currency: 'BRL',
      active: 'true',
      email: 'financeiro@acme.example',
    });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/console/accounts/acme');
    expect(await t.services.posData.account('acme')).toMatchObject({
      name: 'ACME Bares',
      email: 'financeiro@acme.example',
      active: true,
    });
    const edited = await agent.post('/console/accounts/acme/edit', {
      name: 'ACME',
      currency: 'BRL',
      email: '',
    });
    expect(edited.statusCode).toBe(303);
    expect(await t.services.posData.account('acme')).toMatchObject({
      name: 'ACME',
      email: null,
      active: false,
    });
    const logged = (await t.services.backOfficeLog.list({ action: 'putPosAccount' })).actions;
    expect(logged.map((a) => [a.target, a.details.created, a.actor.displayName])).toEqual([
      ['pos/accounts/acme', false, name],
      ['pos/accounts/acme', true, name],
    ]);
  });

  it('the operator writes places and events with the admin API’s schemas, and deletes an event after a confirmation', async () => {
    const { agent } = await staff('operator');
    const base = `/console/accounts/${DEMO_ACCOUNT}`;
    const badPlace = await agent.post(`${base}/places/new-place`, {
      id: 'POA01',
      timezone: 'America/Porto_Alegre',
    });
    expect(badPlace.statusCode).toBe(422);
    expect(badPlace.body).toContain('id="error-timezone"');
    const place = await agent.post(`${base}/places/new-place`, {
      id: 'POA01',
      name: 'Bar Gaúcho',
      timezone: 'America/Sao_Paulo',
      active: '',
    });
    expect(place.statusCode).toBe(303);
    expect(await t.services.posData.place(DEMO_ACCOUNT, 'POA01')).toMatchObject({
      name: 'Bar Gaúcho',
      active: null,
    });

    const events = `${base}/places/POA01/events`;
    const reversed = await agent.post(`${events}/new-event`, {
      id: 'CHURRASCO',
      name: 'Churrasco',
      starts_at: '2026-11-20T21:00:00-03:00',
      ends_at: '2026-11-20T20:00:00-03:00',
      active: 'true',
    });
    expect(reversed.statusCode).toBe(422);
    expect(reversed.body).toContain('id="error-ends_at"');
    const made = await agent.post(`${events}/new-event`, {
      id: 'CHURRASCO',
      name: 'Churrasco',
      starts_at: '2026-11-20T18:00:00-03:00',
      ends_at: '2026-11-20T23:00:00-03:00',
      active: 'true',
    });
    expect(made.statusCode).toBe(303);
    const edit = await agent.get(`${events}/CHURRASCO/edit`);
    expect(edit.body).toContain('value="2026-11-20T18:00:00-03:00"');
    expect(
      (
        await agent.post(`${events}/CHURRASCO/edit`, {
          name: 'Churrasco de domingo',
          starts_at: '2026-11-20T18:00:00-03:00',
        })
      ).statusCode,
    ).toBe(303);
    const [saved] = await t.services.posData.listEvents(DEMO_ACCOUNT, 'POA01');
    expect(saved).toMatchObject({ name: 'Churrasco de domingo', endsAt: null, active: false });

    const confirm = await agent.get(`${events}/CHURRASCO/delete`);
    expect(confirm.statusCode).toBe(200);
    expect((await agent.post(`${events}/CHURRASCO/delete`, {})).statusCode).toBe(303);
    expect(await t.services.posData.listEvents(DEMO_ACCOUNT, 'POA01')).toEqual([]);
    const actions = (await t.services.backOfficeLog.list()).actions
      .filter(consoleChange)
      .map((a) => a.action);
    expect(actions).toEqual(['deletePosEvent', 'putPosEvent', 'putPosEvent', 'putPosPlace']);
  });

  it('the operator invites a merchant user: the invitation goes through the outbox, the user is pending', async () => {
    const { agent } = await staff('operator');
    const path = `/console/accounts/${DEMO_ACCOUNT}/users`;
    const bad = await agent.post(path, { email: 'not an address', name: 'Ana' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="error-email"');
    const done = await agent.post(path, { email: 'Ana@Demo.example', name: 'Ana Lojista' });
    expect(done.statusCode).toBe(303);
    const [user] = await t.services.merchantUsers.list(DEMO_ACCOUNT);
    expect(user).toMatchObject({ email: 'ana@demo.example', name: 'Ana Lojista', active: false });
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['kind', 'recipient'])
      .where('recipient', '=', 'ana@demo.example')
      .execute();
    expect(mail.length).toBe(1);
    const page = await agent.get(path);
    expect(page.body).toMatch(
      /<tr data-user="ana@demo.example">[\s\S]*?(Convite pendente|Invitation pending)/,
    );
    const [logged] = (await t.services.backOfficeLog.list({ action: 'inviteMerchantUser' })).actions;
    expect(logged?.details).toMatchObject({
      id: user?.id,
      body: { email: 'ana@demo.example', name: 'Ana Lojista' },
    });
    expect(JSON.stringify(logged)).not.toContain('token=');
  });

  it('a receipts file is streamed to the receipts service: counts in JSON, a bad line named, the CSRF token required', async () => {
    const { agent, cookie } = await staff('operator');
    const token = await agent.csrfOf(`/console/accounts/${DEMO_ACCOUNT}/receipts`);
    const before = await receiptCount();

    expect((await upload(cookie, undefined, ndjson(['U1']))).statusCode).toBe(403);
    expect((await upload(cookie, 'not the token', ndjson(['U1']))).statusCode).toBe(403);

    const bad = await upload(cookie, token, `${ndjson(['U1'])}\n${ndjson(['U2'], { amount: 12.5 })}`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', param: 'line[2].amount', line: 2 });
    expect(await receiptCount()).toBe(before);

    const wrongType = await upload(cookie, token, 'id,place\n', 'text/csv');
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toMatchObject({ code: 'unsupported_media_type' });

    const lines = await upload(cookie, token, ndjson(['U1', 'U2', 'U3']));
    expect(lines.statusCode).toBe(200);
    expect(lines.json()).toEqual({ received: 3, inserted: 3, updated: 0, unchanged: 0 });
    const json = await upload(
      cookie,
      token,
      JSON.stringify({
        receipts: [
          { ...RECEIPT, id: 'U3' },
          { ...RECEIPT, id: 'U4', amount: '99.00' },
        ],
      }),
      'application/json',
    );
    expect(json.json()).toEqual({ received: 2, inserted: 1, updated: 0, unchanged: 1 });
    expect(await receiptCount()).toBe(before + 4);

    const logged = (await t.services.backOfficeLog.list({ action: 'importPosReceipts' })).actions;
    expect(logged.map((a) => a.details)).toEqual([
      { format: 'json', received: 2, inserted: 1, updated: 0, unchanged: 1 },
      { format: 'ndjson', received: 3, inserted: 3, updated: 0, unchanged: 0 },
    ]);
    expect(logged[0]?.target).toBe(`pos/accounts/${DEMO_ACCOUNT}/receipts`);
  });
});
