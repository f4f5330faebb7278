import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/lib/api-key.js';
import { createPosKeyService } from '../../src/pos/key-service.js';
import {
  ADMIN_TOKEN,
  adminAs,
  describeEachDialect,
  SUPPORT_TOKEN,
  useTestApp,
  type TestApp,
} from '../helper.js';
import { expectProblem } from '../expect-http.js';

// Merchants' API keys in the back office (admin-api.md, Point of sale; pos-data-api.md, States and
// transitions): validity dates, the limit of active keys, rotation and its grace on the manual clock,
// support's permissions, and refusals that say what to fix and change nothing. What a presented key is
// worth is checked through the key service's `authenticate`, the look-up the public API uses.

const POS = '/admin/v1/pos';
const KEY_SHAPE = /^gtpk_[A-Za-z0-9_-]{43}$/;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Body = Record<string, unknown>;

const json = (response: LightMyRequestResponse) => JSON.parse(response.body) as Body;

const asOperator = (t: TestApp, method: InjectOptions['method'], url: string, body?: unknown) =>
  adminAs(t, ADMIN_TOKEN, method, url, body);
const asSupport = (t: TestApp, method: InjectOptions['method'], url: string, body?: unknown) =>
  adminAs(t, SUPPORT_TOKEN, method, url, body);

/** A 422 `validation_failed` whose detail and param name the field to fix. */
function expectInvalid(response: LightMyRequestResponse, field: string): Body {
  const body = expectProblem(response, 422, 'validation_failed');
  expect(String(body.detail)).toContain(field);
  expect(String(body.param)).toMatch(new RegExp(`(^|\\.)${field.replace(/[.[\]]/g, '\\$&')}$`));
  return body;
}

/** Two accounts with places, written directly (the account routes belong to another module). */
async function seedAccounts(t: TestApp): Promise<void> {
  const now = t.clock.now();
  await t.db
    .insertInto('pos_accounts')
    .values([
      { id: 'acme', name: 'Acme', currency: 'BRL', active: 1, created_at: now, updated_at: now },
      { id: 'other', name: 'Other', currency: 'BRL', active: 1, created_at: now, updated_at: now },
    ])
    .execute();
  await t.db
    .insertInto('pos_places')
    .values([
      {
        account_id: 'acme',
        id: 'P1',
        name: 'Loja 1',
        timezone: 'America/Sao_Paulo',
        active: 1,
        created_at: now,
        updated_at: now,
      },
      {
        account_id: 'acme',
        id: 'P2',
        name: 'Loja 2',
        timezone: 'America/Sao_Paulo',
        active: 1,
        created_at: now,
        updated_at: now,
      },
      {
        account_id: 'other',
        id: 'X1',
        name: null,
        timezone: 'America/Sao_Paulo',
        active: null,
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
}

async function createKey(t: TestApp, body: Body = { name: 'ERP' }, account = 'acme'): Promise<Body> {
  const response = await asOperator(t, 'POST', `${POS}/accounts/${account}/keys`, body);
  expect(response.statusCode, response.body).toBe(201);
  return json(response);
}

async function listKeys(t: TestApp, account = 'acme'): Promise<Body[]> {
  return JSON.parse((await t.admin('GET', `${POS}/accounts/${account}/keys`)).body) as Body[];
}

async function keyOf(t: TestApp, id: unknown, account = 'acme'): Promise<Body> {
  const found = (await listKeys(t, account)).find((key) => key.id === id);
  expect(found).toBeDefined();
  return found!;
}

async function rotate(t: TestApp, id: unknown, body?: Body): Promise<Body> {
  const response = await asOperator(t, 'POST', `${POS}/accounts/acme/keys/${String(id)}/rotate`, body);
  expect(response.statusCode, response.body).toBe(201);
  return json(response);
}

async function act(t: TestApp, id: unknown, action: 'pause' | 'reactivate' | 'revoke'): Promise<Body> {
  return json(await t.admin('POST', `${POS}/accounts/acme/keys/${String(id)}/${action}`));
}

/** What a presented key is worth now, as the public API will see it. */
async function outcome(t: TestApp, key: unknown, graceSeconds = 86400) {
  const service = createPosKeyService({ db: t.db, clock: t.clock, rotationGraceSeconds: graceSeconds });
  return (await service.verify(String(key))).outcome;
}

const WORKS = { ok: true, superseded: false, supersededUntil: null };
const refused = (reason: string | null, countsTowardIpBlock = false) => ({
  ok: false,
  reason,
  countsTowardIpBlock,
});

/** Everything stored of the account's keys, to show that a refused call changed nothing. */
const snapshot = (t: TestApp) => t.db.selectFrom('pos_keys').selectAll().orderBy('id').execute();

describeEachDialect('admin API, merchants’ API keys', (dialect) => {
  const t = useTestApp(dialect);

  describe('create: 201 {id, key, expires_at}, the key shown once', () => {
    it('the key is gtpk_ + 43 base64url characters (48 in all); the id is alphanumeric; defaults apply', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      expect(Object.keys(created).sort()).toEqual(['expires_at', 'id', 'key']);
      expect(created.key).toMatch(KEY_SHAPE);
      expect(String(created.key)).toHaveLength(48);
      expect(created.id).toMatch(/^[A-Za-z0-9]{1,64}$/);
      expect(await outcome(t, created.key)).toEqual(WORKS);
      expect(await keyOf(t, created.id)).toEqual({
        id: created.id,
        account: 'acme',
        name: 'ERP',
        permissions: [],
        places: 'all',
        expires_at: '2027-11-21T02:59:59Z',
        state: 'active',
        paused: false,
        revoked_at: null,
        previous_key_valid_until: null,
        created_at: '2026-11-20T12:00:00Z',
        updated_at: '2026-11-20T12:00:00Z',
      });
    });

    it('listings show metadata and state, never the key text or its hashes', async () => {
      await seedAccounts(t);
      const created = await createKey(t, {
        name: 'BI',
        permissions: ['event.view', 'sale-by-payment-method.view', 'event.view'],
        places: ['P2', 'P1', 'P2'],
      });
      const rotated = await rotate(t, created.id);
      for (const url of [`${POS}/accounts/acme/keys`, `${POS}/keys`]) {
        const body = (await t.admin('GET', url)).body;
        for (const secret of [created.key, rotated.key]) {
          expect(body).not.toContain(String(secret));
          expect(body).not.toContain(hashApiKey(String(secret)));
        }
        expect(body).not.toMatch(/hash/);
      }
      expect(await keyOf(t, created.id)).toMatchObject({
        permissions: ['event.view', 'sale-by-payment-method.view'],
        places: ['P2', 'P1'],
      });
    });

    it('each created key is a new credential with its own id and key', async () => {
      await seedAccounts(t);
      const first = await createKey(t);
      t.clock.advance(1000);
      const second = await createKey(t);
      expect(second.id).not.toBe(first.id);
      expect(second.key).not.toBe(first.key);
      expect((await listKeys(t)).map((key) => key.id)).toEqual([first.id, second.id]);
    });
  });

  describe('validity: expires_on, ends 23:59:59 of that date in UTC-03:00', () => {
    it('expires_at is the next day 02:59:59Z', async () => {
      await seedAccounts(t);
      expect((await createKey(t, { name: 'a', expires_on: '2027-01-31' })).expires_at).toBe(
        '2027-02-01T02:59:59Z',
      );
      expect((await createKey(t, { name: 'b', expires_on: '2026-12-31' })).expires_at).toBe(
        '2027-01-01T02:59:59Z',
      );
    });

    it('default: 12 months after today', async () => {
      await seedAccounts(t);
      expect((await createKey(t)).expires_at).toBe('2027-11-21T02:59:59Z');
    });

    it('default of a 29 February: the 28th twelve months later', async () => {
      await seedAccounts(t);
      t.clock.set(Date.UTC(2028, 1, 29, 12, 0, 0));
      expect((await createKey(t)).expires_at).toBe('2029-03-01T02:59:59Z');
    });

    it('"today" is the date in UTC-03:00: at 01:00Z it is still the day before', async () => {
      await seedAccounts(t);
      t.clock.set(Date.UTC(2026, 10, 21, 1, 0, 0)); // 2026-11-20 22:00 in UTC-03:00
      expect((await createKey(t, { name: 'a', expires_on: '2026-11-20' })).expires_at).toBe(
        '2026-11-21T02:59:59Z',
      );
      expect((await createKey(t)).expires_at).toBe('2027-11-21T02:59:59Z');
      expectInvalid(
        await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x', expires_on: '2026-11-19' }),
        'expires_on',
      );
    });

    it('today is allowed; a date in the past is refused (422)', async () => {
      await seedAccounts(t);
      expect((await createKey(t, { name: 'a', expires_on: '2026-11-20' })).expires_at).toBe(
        '2026-11-21T02:59:59Z',
      );
      expectInvalid(
        await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x', expires_on: '2026-11-19' }),
        'expires_on',
      );
    });

    it('at most 24 months: 2028-11-20 accepted, 2028-11-21 refused (422)', async () => {
      await seedAccounts(t);
      expect((await createKey(t, { name: 'a', expires_on: '2028-11-20' })).expires_at).toBe(
        '2028-11-21T02:59:59Z',
      );
      const refusedBody = expectInvalid(
        await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x', expires_on: '2028-11-21' }),
        'expires_on',
      );
      expect(String(refusedBody.detail)).toContain('24 months');
    });

    it('not a real date, or not YYYY-MM-DD: 422', async () => {
      await seedAccounts(t);
      for (const expiresOn of [
        '2027-02-30',
        '2027-13-01',
        '27-01-01',
        '2027-1-1',
        '2027-01-01T00:00:00Z',
        20270101,
      ]) {
        expectInvalid(
          await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x', expires_on: expiresOn }),
          'expires_on',
        );
      }
      expect(await listKeys(t)).toEqual([]);
    });

    it('the key works through 23:59:59 of its date in UTC-03:00 and is expired from midnight', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'a', expires_on: '2026-12-01' });
      t.clock.set(Date.UTC(2026, 11, 2, 2, 59, 59));
      expect(await outcome(t, created.key)).toEqual(WORKS);
      expect((await keyOf(t, created.id)).state).toBe('active');
      t.clock.set(Date.UTC(2026, 11, 2, 3, 0, 0));
      expect(await outcome(t, created.key)).toEqual(refused('expired'));
      expect((await keyOf(t, created.id)).state).toBe('expired');
    });

    it('the merchant extends validity of an expired key: the same key works again', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'a', expires_on: '2026-12-01' });
      t.clock.set(Date.UTC(2026, 11, 5, 12, 0, 0));
      expect(await outcome(t, created.key)).toEqual(refused('expired'));
      const edited = json(
        await t.admin('PATCH', `${POS}/accounts/acme/keys/${String(created.id)}`, {
          expires_on: '2027-06-30',
        }),
      );
      expect(edited).toMatchObject({ state: 'active', expires_at: '2027-07-01T02:59:59Z' });
      expect(await outcome(t, created.key)).toEqual(WORKS);
    });

    it('expires_at is the operator’s exact override, which may be past', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      const past = json(await t.admin('PATCH', url, { expires_at: '2026-11-20T08:59:59.750-03:00' }));
      expect(past).toMatchObject({ state: 'expired', expires_at: '2026-11-20T11:59:59Z' });
      expect(await outcome(t, created.key)).toEqual(refused('expired'));
      const far = json(await t.admin('PATCH', url, { expires_at: '2030-01-01T00:00:00Z' }));
      expect(far).toMatchObject({ state: 'active', expires_at: '2030-01-01T00:00:00Z' });
      // expires_on on an edit follows the creation rules (24 months from today).
      expectInvalid(await asOperator(t, 'PATCH', url, { expires_on: '2029-01-01' }), 'expires_on');
      expectInvalid(
        await asOperator(t, 'PATCH', url, { expires_on: '2027-01-01', expires_at: '2027-01-01T00:00:00Z' }),
        'expires_at',
      );
      expectInvalid(await asOperator(t, 'PATCH', url, { expires_at: '2027-01-01T00:00:00' }), 'expires_at');
      expect((await keyOf(t, created.id)).expires_at).toBe('2030-01-01T00:00:00Z');
    });
  });

  describe('at most 20 active keys per account', () => {
    it('the 21st key gets 409 conflict with a clear detail, and nothing is written', async () => {
      await seedAccounts(t);
      for (let i = 0; i < 20; i++) await createKey(t, { name: `k${i}` });
      const before = await snapshot(t);
      const response = await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'one too many' });
      const body = expectProblem(response, 409, 'conflict');
      expect(String(body.detail)).toContain('20 active keys');
      expect(await snapshot(t)).toEqual(before);
      // The limit is per account.
      await createKey(t, { name: 'elsewhere' }, 'other');
    });

    it('a paused key counts; a revoked or expired key does not', async () => {
      await seedAccounts(t);
      const ids: unknown[] = [];
      for (let i = 0; i < 20; i++) ids.push((await createKey(t, { name: `k${i}` })).id);
      await act(t, ids[0], 'pause');
      expectProblem(await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x' }), 409, 'conflict');
      await act(t, ids[1], 'revoke');
      await createKey(t, { name: 'after revoke' });
      await t.admin('PATCH', `${POS}/accounts/acme/keys/${String(ids[2])}`, {
        expires_at: '2026-11-01T00:00:00Z',
      });
      await createKey(t, { name: 'after expiry' });
      expectProblem(await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x' }), 409, 'conflict');
    });

    it('extending an expired key while 20 others are active: 409, validity unchanged', async () => {
      await seedAccounts(t);
      const old = await createKey(t, { name: 'old', expires_on: '2026-11-20' });
      t.clock.advance(DAY);
      for (let i = 0; i < 20; i++) await createKey(t, { name: `k${i}` });
      const url = `${POS}/accounts/acme/keys/${String(old.id)}`;
      expectProblem(await asOperator(t, 'PATCH', url, { expires_on: '2027-01-01' }), 409, 'conflict');
      expect(await keyOf(t, old.id)).toMatchObject({ state: 'expired', expires_at: '2026-11-21T02:59:59Z' });
      // An edit that leaves it expired is fine.
      expect(json(await t.admin('PATCH', url, { name: 'renamed' }))).toMatchObject({
        name: 'renamed',
        state: 'expired',
      });
    });
  });

  describe('rotation and its grace period', () => {
    it('rotate: 201 {key, previous_valid_until}; the old key works 24 hours, superseded, then replaced', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      t.clock.advance(HOUR);
      const rotated = await rotate(t, created.id);
      expect(Object.keys(rotated).sort()).toEqual(['key', 'previous_valid_until']);
      expect(rotated.key).toMatch(KEY_SHAPE);
      expect(rotated.key).not.toBe(created.key);
      const until = Date.UTC(2026, 10, 21, 13, 0, 0);
      expect(rotated.previous_valid_until).toBe('2026-11-21T13:00:00Z');
      expect(await outcome(t, rotated.key)).toEqual(WORKS);
      expect(await outcome(t, created.key)).toEqual({ ok: true, superseded: true, supersededUntil: until });
      const listed = await keyOf(t, created.id);
      expect(listed).toMatchObject({ state: 'active', previous_key_valid_until: '2026-11-21T13:00:00Z' });
      t.clock.set(until - 1);
      expect((await outcome(t, created.key)).ok).toBe(true);
      t.clock.set(until);
      expect(await outcome(t, created.key)).toEqual(refused('replaced'));
      expect(await outcome(t, rotated.key)).toEqual(WORKS);
      expect((await keyOf(t, created.id)).previous_key_valid_until).toBeNull();
    });

    it('a rotation keeps the credential id and its settings', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'BI', permissions: ['event.view'], places: ['P1'] });
      const before = await keyOf(t, created.id);
      await rotate(t, created.id);
      expect(await keyOf(t, created.id)).toMatchObject({
        id: created.id,
        name: 'BI',
        permissions: ['event.view'],
        places: ['P1'],
        expires_at: before.expires_at,
      });
    });

    it('a second rotation inside the grace ends the older previous key at once: 401 without reason, counted', async () => {
      await seedAccounts(t);
      const first = await createKey(t);
      const second = await rotate(t, first.id);
      t.clock.advance(HOUR);
      const third = await rotate(t, first.id);
      expect(third.previous_valid_until).toBe('2026-11-21T13:00:00Z');
      expect(await outcome(t, first.key)).toEqual(refused(null, true));
      expect((await outcome(t, second.key)).ok).toBe(true);
      expect(await outcome(t, third.key)).toEqual(WORKS);
    });

    it('rotate invalidating the current key: the old key (and any previous key) is replaced at once', async () => {
      await seedAccounts(t);
      const first = await createKey(t);
      const second = await rotate(t, first.id);
      const third = await rotate(t, first.id, { invalidate_current: true });
      expect(third.previous_valid_until).toBeNull();
      expect(await outcome(t, second.key)).toEqual(refused('replaced'));
      expect(await outcome(t, first.key)).toEqual(refused('replaced'));
      expect(await outcome(t, third.key)).toEqual(WORKS);
      expect((await keyOf(t, first.id)).previous_key_valid_until).toBeNull();
      // The next rotation forgets both: they are two or more rotations back.
      await rotate(t, first.id);
      expect(await outcome(t, first.key)).toEqual(refused(null, true));
      expect(await outcome(t, second.key)).toEqual(refused(null, true));
    });

    it('pausing during the grace: the previous key is replaced from then on and does not return on reactivation', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      const rotated = await rotate(t, created.id);
      t.clock.advance(HOUR);
      const paused = await act(t, created.id, 'pause');
      expect(paused).toMatchObject({ state: 'paused', paused: true, previous_key_valid_until: null });
      expect(await outcome(t, created.key)).toEqual(refused('replaced'));
      expect(await outcome(t, rotated.key)).toEqual(refused('paused'));
      t.clock.advance(HOUR);
      expect(await act(t, created.id, 'reactivate')).toMatchObject({ state: 'active', paused: false });
      expect(await outcome(t, rotated.key)).toEqual(WORKS);
      expect(await outcome(t, created.key)).toEqual(refused('replaced'));
    });

    it('rotating a paused key: the old key ends at once (replaced), the new key is paused until reactivated', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await act(t, created.id, 'pause');
      const rotated = await rotate(t, created.id);
      expect(rotated.previous_valid_until).toBeNull();
      expect(await outcome(t, created.key)).toEqual(refused('replaced'));
      expect(await outcome(t, rotated.key)).toEqual(refused('paused'));
      await act(t, created.id, 'reactivate');
      expect(await outcome(t, rotated.key)).toEqual(WORKS);
      expect(await outcome(t, created.key)).toEqual(refused('replaced'));
    });

    it('the grace period is the configured POS_ROTATION_GRACE_SECONDS', async () => {
      await seedAccounts(t);
      const service = createPosKeyService({ db: t.db, clock: t.clock, rotationGraceSeconds: 60 });
      const created = await createKey(t);
      const rotated = await service.rotate('acme', String(created.id), { invalidate_current: false });
      expect(rotated.previousValidUntil).toBe(t.clock.now() + 60_000);
      t.clock.advance(59_999);
      expect((await outcome(t, created.key)).ok).toBe(true);
      t.clock.advance(1);
      expect(await outcome(t, created.key)).toEqual(refused('replaced'));
    });

    it('rotating an expired key: 409, nothing changes', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'a', expires_on: '2026-11-20' });
      t.clock.advance(DAY);
      const before = await snapshot(t);
      expectProblem(
        await asOperator(t, 'POST', `${POS}/accounts/acme/keys/${String(created.id)}/rotate`),
        409,
        'conflict',
      );
      expect(await snapshot(t)).toEqual(before);
    });
  });

  describe('pause, reactivate, revoke', () => {
    it('pause: 401 paused; reactivate: the same key works again', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      expect(await act(t, created.id, 'pause')).toMatchObject({ state: 'paused', paused: true });
      expect(await outcome(t, created.key)).toEqual(refused('paused'));
      expect(await act(t, created.id, 'pause')).toMatchObject({ state: 'paused' });
      expect(await act(t, created.id, 'reactivate')).toMatchObject({ state: 'active', paused: false });
      expect(await outcome(t, created.key)).toEqual(WORKS);
    });

    it('revoke: revoked for ever; within the grace both current and previous answer revoked', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      const rotated = await rotate(t, created.id);
      t.clock.advance(HOUR);
      const revoked = await act(t, created.id, 'revoke');
      expect(revoked).toMatchObject({ state: 'revoked', revoked_at: '2026-11-20T13:00:00Z' });
      expect(await outcome(t, created.key)).toEqual(refused('revoked'));
      expect(await outcome(t, rotated.key)).toEqual(refused('revoked'));
      // Revoking again changes nothing.
      expect((await act(t, created.id, 'revoke')).revoked_at).toBe('2026-11-20T13:00:00Z');
    });

    it('reactivate, pause, rotate or edit a revoked key: 409, nothing changes', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await act(t, created.id, 'revoke');
      const before = await snapshot(t);
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      for (const [method, path, body] of [
        ['POST', `${url}/reactivate`, undefined],
        ['POST', `${url}/pause`, undefined],
        ['POST', `${url}/rotate`, undefined],
        ['PATCH', url, { name: 'back' }],
        ['PATCH', url, { expires_on: '2027-06-01' }],
      ] as const) {
        const body409 = expectProblem(await asOperator(t, method, path, body), 409, 'conflict');
        expect(String(body409.detail)).toContain('revoked');
      }
      expect(await snapshot(t)).toEqual(before);
      expect(await outcome(t, created.key)).toEqual(refused('revoked'));
    });

    it('a deactivated owner account: 401 without reason, not counted', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await t.db.updateTable('pos_accounts').set({ active: 0 }).where('id', '=', 'acme').execute();
      expect(await outcome(t, created.key)).toEqual(refused(null));
      expect(await outcome(t, `gtpk_${'A'.repeat(43)}`)).toEqual(refused(null, true));
      expect(await outcome(t, 'not a key')).toEqual(refused(null, true));
    });
  });

  describe('edit (PATCH)', () => {
    it('changes any of name, permissions, places; the rest is kept', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'ERP', permissions: ['event.view'], places: ['P1'] });
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      t.clock.advance(HOUR);
      expect(json(await t.admin('PATCH', url, { name: '  Novo nome  ' }))).toMatchObject({
        name: 'Novo nome',
        permissions: ['event.view'],
        places: ['P1'],
        updated_at: '2026-11-20T13:00:00Z',
      });
      expect(
        json(await t.admin('PATCH', url, { permissions: ['sale-by-payment-method.view'], places: 'all' })),
      ).toMatchObject({ name: 'Novo nome', permissions: ['sale-by-payment-method.view'], places: 'all' });
      expect(json(await t.admin('PATCH', url, { places: ['P2'], permissions: [] }))).toMatchObject({
        places: ['P2'],
        permissions: [],
        expires_at: created.expires_at,
      });
      expect(await outcome(t, created.key)).toEqual(WORKS);
    });
  });

  describe('support may list and revoke keys, nothing else', () => {
    it('support lists one account’s keys, all keys, and revokes', async () => {
      await seedAccounts(t);
      const mine = await createKey(t);
      const theirs = await createKey(t, { name: 'Other ERP' }, 'other');
      const one = await asSupport(t, 'GET', `${POS}/accounts/acme/keys`);
      expect(one.statusCode).toBe(200);
      expect((JSON.parse(one.body) as Body[]).map((key) => key.id)).toEqual([mine.id]);
      const all = await asSupport(t, 'GET', `${POS}/keys`);
      expect(all.statusCode).toBe(200);
      expect((JSON.parse(all.body) as Body[]).map((key) => [key.account, key.id])).toEqual([
        ['acme', mine.id],
        ['other', theirs.id],
      ]);
      const filtered = await asSupport(t, 'GET', `${POS}/keys?account=other`);
      expect((JSON.parse(filtered.body) as Body[]).map((key) => key.id)).toEqual([theirs.id]);
      const revoked = await asSupport(t, 'POST', `${POS}/accounts/acme/keys/${String(mine.id)}/revoke`);
      expect(revoked.statusCode).toBe(200);
      expect(json(revoked).state).toBe('revoked');
      expect(await outcome(t, mine.key)).toEqual(refused('revoked'));
    });

    it('support gets 403 on create, edit, rotate, pause and reactivate, and nothing changes', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      const before = await snapshot(t);
      for (const [method, path, body] of [
        ['POST', `${POS}/accounts/acme/keys`, { name: 'x' }],
        ['PATCH', url, { name: 'x' }],
        ['POST', `${url}/rotate`, undefined],
        ['POST', `${url}/pause`, undefined],
        ['POST', `${url}/reactivate`, undefined],
      ] as const) {
        expectProblem(await asSupport(t, method, path, body), 403, 'forbidden');
      }
      expect(await snapshot(t)).toEqual(before);
    });

    it('without a token: 401', async () => {
      const response = await t.app.admin.inject({ method: 'GET', url: `${POS}/keys` });
      expectProblem(response, 401, 'unauthorized');
    });
  });

  describe('bad input: 422, 404, 409 say what to fix and change nothing', () => {
    it('422 on the body names the field', async () => {
      await seedAccounts(t);
      const existing = await createKey(t);
      const before = await snapshot(t);
      const create = `${POS}/accounts/acme/keys`;
      const cases: [Body | undefined, string][] = [
        [undefined, 'body'],
        [{}, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'a\u0000b' }, 'name'],
        [{ name: 'x', permissions: ['sale.view'] }, 'permissions.0'],
        [{ name: 'x', permissions: 'event.view' }, 'permissions'],
        [{ name: 'x', places: 'some' }, 'places'],
        [{ name: 'x', places: ['P-1'] }, 'places'],
        [{ name: 'x', places: ['P1', 'X1'] }, 'places.1'],
        [{ name: 'x', places: ['NOPE'] }, 'places.0'],
        [{ name: 'x', unknown: 1 }, 'body'],
        [{ name: 'x', expires_at: '2027-01-01T00:00:00Z' }, 'body'],
      ];
      for (const [body, field] of cases) {
        expectInvalid(await asOperator(t, 'POST', create, body), field);
      }
      const url = `${POS}/accounts/acme/keys/${String(existing.id)}`;
      expectInvalid(await asOperator(t, 'PATCH', url, { name: '' }), 'name');
      expectInvalid(await asOperator(t, 'PATCH', url, { places: ['X1'] }), 'places.0');
      expectInvalid(await asOperator(t, 'PATCH', url, { id: 'x' }), 'body');
      expectInvalid(
        await asOperator(t, 'POST', `${url}/rotate`, { invalidate_current: 'yes' }),
        'invalidate_current',
      );
      expectInvalid(await asOperator(t, 'GET', `${POS}/keys?account=a-b`), 'account');
      expectInvalid(await asOperator(t, 'GET', `${POS}/keys?state=active`), 'query');
      expect(await snapshot(t)).toEqual(before);
      expect(await outcome(t, existing.key)).toEqual(WORKS);
    });

    it('422 on identifiers in the path', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      expectInvalid(await asOperator(t, 'POST', `${POS}/accounts/a-b/keys`, { name: 'x' }), 'account');
      expectInvalid(await asOperator(t, 'GET', `${POS}/accounts/${'a'.repeat(65)}/keys`), 'account');
      expectInvalid(await asOperator(t, 'POST', `${POS}/accounts/acme/keys/a_b/pause`), 'id');
      expect(await keyOf(t, created.id)).toMatchObject({ state: 'active' });
    });

    it('404 for an unknown account, an unknown key, or a key of another account', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      const before = await snapshot(t);
      expectProblem(
        await asOperator(t, 'POST', `${POS}/accounts/nobody/keys`, { name: 'x' }),
        404,
        'not_found',
      );
      expectProblem(await asOperator(t, 'GET', `${POS}/accounts/nobody/keys`), 404, 'not_found');
      const id = String(created.id);
      for (const [method, url, body] of [
        ['PATCH', `${POS}/accounts/acme/keys/nokey`, { name: 'x' }],
        ['POST', `${POS}/accounts/acme/keys/nokey/rotate`, undefined],
        ['POST', `${POS}/accounts/other/keys/${id}/pause`, undefined],
        ['POST', `${POS}/accounts/other/keys/${id}/revoke`, undefined],
        ['POST', `${POS}/accounts/other/keys/${id}/rotate`, undefined],
        ['PATCH', `${POS}/accounts/other/keys/${id}`, { name: 'x' }],
      ] as const) {
        expectProblem(await asOperator(t, method, url, body), 404, 'not_found');
      }
      expect(await snapshot(t)).toEqual(before);
    });
  });
});
