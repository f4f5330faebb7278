import { describe, expect, it } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { createMerchantKeyService } from '../../src/pos/keys/merchant-key-service.js';
import { keyOutcomeValue } from '../../src/pos/keys/merchant-key-problem.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { bodyOf } from '../expect-http.js';
import { asOperator, expectInvalid, POS } from './fixtures.js';
import {
  act,
  createKey,
  HOUR,
  KEY_SHAPE,
  keyOf,
  listKeys,
  outcome,
  refused,
  rotate,
  seedAccounts,
  WORKS,
} from './pos-keys-admin-fixtures.js';

// Merchants' API keys in the back office when the operator's calls succeed (docs/admin-rules.md, Point of
// sale; docs/pos-api.md, States and transitions): validity dates, rotation and its grace on the manual clock,
// pause, reactivation, revocation and edits, and what each leaves a presented key worth.

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
        last_used_at: null,
        previous_key_last_used_at: null,
        created_at: '2026-11-20T12:00:00Z',
        updated_at: '2026-11-20T12:00:00Z',
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
      const edited = bodyOf(
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
      const past = bodyOf(await t.admin('PATCH', url, { expires_at: '2026-11-20T08:59:59.750-03:00' }));
      expect(past).toMatchObject({ state: 'expired', expires_at: '2026-11-20T11:59:59Z' });
      expect(await outcome(t, created.key)).toEqual(refused('expired'));
      const far = bodyOf(await t.admin('PATCH', url, { expires_at: '2030-01-01T00:00:00Z' }));
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
      const service = createMerchantKeyService({ db: t.db, clock: t.clock, rotationGraceSeconds: 60 });
      const created = await createKey(t);
      const rotated = keyOutcomeValue(
        await service.rotate('acme', String(created.id), { invalidate_current: false }, SERVICE_ACTOR),
      );
      expect(rotated.previousValidUntil).toBe(t.clock.now() + 60_000);
      t.clock.advance(59_999);
      expect((await outcome(t, created.key)).ok).toBe(true);
      t.clock.advance(1);
      expect(await outcome(t, created.key)).toEqual(refused('replaced'));
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
  });

  describe('edit (PATCH)', () => {
    it('changes any of name, permissions, places; the rest is kept', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'ERP', permissions: ['event.view'], places: ['P1'] });
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      t.clock.advance(HOUR);
      expect(bodyOf(await t.admin('PATCH', url, { name: '  Novo nome  ' }))).toMatchObject({
        name: 'Novo nome',
        permissions: ['event.view'],
        places: ['P1'],
        updated_at: '2026-11-20T13:00:00Z',
      });
      expect(
        bodyOf(await t.admin('PATCH', url, { permissions: ['sale-by-payment-method.view'], places: 'all' })),
      ).toMatchObject({ name: 'Novo nome', permissions: ['sale-by-payment-method.view'], places: 'all' });
      expect(bodyOf(await t.admin('PATCH', url, { places: ['P2'], permissions: [] }))).toMatchObject({
        places: ['P2'],
        permissions: [],
        expires_at: created.expires_at,
      });
      expect(await outcome(t, created.key)).toEqual(WORKS);
    });
  });
});
