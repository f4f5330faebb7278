import { describe, expect, it, vi } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { DEMO_ACCOUNT, seedPosDemo } from '../../src/pos/demo.js';
import type { PosPermission } from '../../src/pos/api/pos-permissions.js';
import { keyOutcomeValue } from '../../src/pos/keys/merchant-key-problem.js';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';
import { describeEachDialect, testApp, useTestApp, type TestApp } from '../helper.js';
import { signedInPanelUser } from './panel-agent.js';

// The merchant panel's recent refusals of the account's keys (docs/back-office.md, The merchant panel;
// docs/operations.md, Why did my call fail): a key's and the account's, each code linked to its anchor on the
// documentation pages, with param, detail and request id; the signed-in user's own account only.

/** A key of the account, with the permissions given. */
async function keyOf(t: TestApp, account: string, name: string, permissions: PosPermission[]) {
  return keyOutcomeValue(
    await t.services.merchantKeys.create(account, { name, permissions, places: 'all' }, SERVICE_ACTOR),
  );
}

const call = (t: TestApp, key: string, url: string) =>
  t.call({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

const rowOf = (body: string, id: string) =>
  new RegExp(`<tr data-request-id="${id}"[^>]*>[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';

/** Waits until the account's log holds these request ids (it is written after the answer). */
async function logged(t: TestApp, account: string, ids: string[]) {
  await vi.waitFor(async () => {
    const list = await t.services.refusals.list({ kind: 'account', id: account });
    expect(ids.every((id) => list.some((r) => r.request_id === id))).toBe(true);
  });
}

describeEachDialect('merchant panel: the keys’ recent refusals', (dialect) => {
  const t = useTestApp(dialect);

  it('a key’s page lists its refusals only, own account only; the account’s lists every key’s', async () => {
    await seedPosDemo(t.services, { receipts: 0 });
    const bare = await keyOf(t, DEMO_ACCOUNT, 'Sem permissões', []);
    const reader = await keyOf(t, DEMO_ACCOUNT, 'Leitor de eventos', ['event.view']);
    const quiet = await keyOf(t, DEMO_ACCOUNT, 'Sem chamadas', ['event.view']);
    await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
    const foreign = await keyOf(t, 'acme', 'Da Acme', ['event.view']);

    const denied = await call(t, bare.key, '/v1/api-public/events?place=SP01');
    expect(denied.statusCode).toBe(403);
    const invalid = await call(t, reader.key, '/v1/api-public/events?place=SP01&limit=500');
    expect(invalid.statusCode).toBe(422);
    const other = await call(t, foreign.key, '/v1/api-public/events?limit=500');
    expect(other.statusCode).toBe(422);
    const [deniedId, invalidId, otherId] = [denied, invalid, other].map((a) =>
      String(a.headers['x-request-id']),
    );
    await logged(t, DEMO_ACCOUNT, [deniedId!, invalidId!]);
    await logged(t, 'acme', [otherId!]);

    const panel = await signedInPanelUser(t, { account: DEMO_ACCOUNT, email: 'ana@demo.test' });
    // One key's: its refusal with the code linked to its anchor, the param, the detail and the request id.
    const mine = await panel.get(`/panel/keys/${reader.id}/refusals`);
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain('Recusas recentes da chave “Leitor de eventos”');
    const row = rowOf(mine.body, invalidId!);
    expect(row).toContain('href="/docs/problems#problem-invalid_parameter"');
    expect(row).toContain('<code>limit</code>');
    expect(row).toContain('must be an integer from 1 to 100');
    expect(row).toContain('422');
    expect(row).toContain('listEvents');
    expect(row).toContain(invalidId);
    expect(rowOf(mine.body, deniedId!)).toBe('');
    expect(mine.body).not.toContain(otherId);

    // The account's: both of its keys' refusals, each naming its key; never another account's.
    const all = await panel.get('/panel/keys/refusals');
    expect(all.statusCode).toBe(200);
    expect(rowOf(all.body, deniedId!)).toContain('Sem permissões');
    expect(rowOf(all.body, deniedId!)).toContain('href="/docs/problems#problem-forbidden_permission"');
    expect(rowOf(all.body, invalidId!)).toContain('Leitor de eventos');
    expect(all.body).not.toContain(otherId);

    // Another account's key is not found, and nothing of its log shows.
    const foreignPage = await panel.get(`/panel/keys/${foreign.id}/refusals`);
    expect(foreignPage.statusCode).toBe(404);
    expect(foreignPage.body).not.toContain(otherId);

    // A key without refusals says so; its page and the key list link to the refusals.
    const empty = await panel.get(`/panel/keys/${quiet.id}/refusals`);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('Nenhuma chamada desta chave foi recusada');
    expect(empty.body).not.toContain('<table');
    expect((await panel.get(`/panel/keys/${quiet.id}`)).body).toContain(
      `href="/panel/keys/${quiet.id}/refusals"`,
    );
    expect((await panel.get('/panel/keys')).body).toContain('href="/panel/keys/refusals"');

    // The other account's user sees its own refusal, not the demo's.
    const acme = await signedInPanelUser(t, { account: 'acme', email: 'bia@acme.test', lang: 'en' });
    const theirs = await acme.get('/panel/keys/refusals');
    expect(theirs.body).toContain('Recent refusals of your keys');
    expect(rowOf(theirs.body, otherId!)).toContain('Da Acme');
    expect(theirs.body).not.toContain(invalidId);
    expect(theirs.body).not.toContain(deniedId);
    expect((await acme.get(`/panel/keys/${reader.id}/refusals`)).statusCode).toBe(404);
  });

  it('signed out: the sign-in page, nothing of the log', async () => {
    const page = await t.call({ method: 'GET', url: '/panel/keys/refusals' });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toMatch(/^\/panel\/sign-in/);
  });
});

describe('merchant panel: refusals when the shared store does not answer', () => {
  it('is a page that says so (503), in the reader’s language, never a 500', async () => {
    const { openDatabase } = await import('../../src/db/database.js');
    const { migrateToLatest } = await import('../../src/db/migrate.js');
    const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
    await migrateToLatest(db);
    const memory = createMemoryRateLimitStore();
    const store: RateLimitStore = { ...memory, recent: () => Promise.reject(new Error('store unreachable')) };
    const t = testApp({ db, rateLimits: store });
    try {
      await seedPosDemo(t.services, { receipts: 0 });
      const key = await keyOf(t, DEMO_ACCOUNT, 'Integração', ['event.view']);
      const pt = await signedInPanelUser(t, { account: DEMO_ACCOUNT, email: 'ana@demo.test' });
      for (const url of ['/panel/keys/refusals', `/panel/keys/${key.id}/refusals`]) {
        const page = await pt.get(url);
        expect(page.statusCode, url).toBe(503);
        expect(page.headers['content-type'], url).toMatch(/^text\/html/);
        expect(page.body, url).toContain('o armazenamento que as guarda não responde');
      }
      const en = await signedInPanelUser(t, { account: DEMO_ACCOUNT, email: 'bia@demo.test', lang: 'en' });
      expect((await en.get('/panel/keys/refusals')).body).toContain(
        'the store that keeps them does not answer',
      );
    } finally {
      await t.app.close();
      await db.destroy();
    }
  });
});
