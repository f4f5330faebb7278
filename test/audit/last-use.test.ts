import { describe, expect, it } from 'vitest';
import { describeEachDialect, ManualClock, testApp, useTestApp, type TestApp } from '../helper.js';
import { bodyOf } from '../expect-http.js';
import { act, createKey, keyOf, rotate, seedAccounts } from '../admin/pos-keys-admin-fixtures.js';
import { HD, rotateSystem, seedSystem } from './key-audit-fixtures.js';

// The last use of each key (docs/back-office.md, Audit trail and last use): marked in memory by the public APIs when a
// key is accepted, written by the flush at most once a minute per key, current and previous key apart,
// as greatest(stored, marked) so that the processes of a fleet never move it back.

const ping = (t: TestApp, key: unknown) =>
  t.call({ method: 'GET', url: '/v1/api-public/ping', headers: { authorization: `Bearer ${String(key)}` } });

const options = (t: TestApp, key: string) =>
  t.call({
    method: 'GET',
    url: '/v1/api-external-system/help-desk-ticket-options',
    headers: { authorization: `Bearer ${key}` },
  });

describeEachDialect('last use of keys', (dialect) => {
  const t = useTestApp(dialect);

  describe('merchant keys', () => {
    it('written by the flush after a use, not before; at most once per interval (60 s) per key', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      expect((await ping(t, created.key)).statusCode).toBe(200);
      // Not on the request's path: nothing is written until the flush.
      expect((await keyOf(t, created.id)).last_used_at).toBeNull();
      expect(await t.services.keyUse.flush()).toEqual({ written: 1, waiting: 0 });
      expect(await keyOf(t, created.id)).toMatchObject({
        last_used_at: '2026-11-20T12:00:00Z',
        previous_key_last_used_at: null,
      });

      t.clock.advance(10_000);
      await ping(t, created.key);
      await ping(t, created.key);
      expect(await t.services.keyUse.flush()).toEqual({ written: 0, waiting: 1 });
      t.clock.advance(49_999);
      expect(await t.services.keyUse.flush()).toEqual({ written: 0, waiting: 1 });
      expect((await keyOf(t, created.id)).last_used_at).toBe('2026-11-20T12:00:00Z');
      t.clock.advance(1);
      expect(await t.services.keyUse.flush()).toEqual({ written: 1, waiting: 0 });
      expect((await keyOf(t, created.id)).last_used_at).toBe('2026-11-20T12:00:10Z');
      // Nothing new: nothing written.
      t.clock.advance(120_000);
      expect(await t.services.keyUse.flush()).toEqual({ written: 0, waiting: 0 });
    });

    it('current and previous key apart: a rotation moves the last use to the previous key', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await ping(t, created.key);
      await t.services.keyUse.flush();
      t.clock.advance(60_000);
      const rotated = await rotate(t, created.id);
      expect(await keyOf(t, created.id)).toMatchObject({
        last_used_at: null,
        previous_key_last_used_at: '2026-11-20T12:00:00Z',
      });
      await ping(t, rotated.key);
      t.clock.advance(5000);
      expect((await ping(t, created.key)).headers.deprecation).toBe('true');
      await t.services.keyUse.flush({ all: true });
      expect(await keyOf(t, created.id)).toMatchObject({
        last_used_at: '2026-11-20T12:01:00Z',
        previous_key_last_used_at: '2026-11-20T12:01:05Z',
      });
    });

    it('a use marked before a rotation and flushed after it lands on the previous key', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await ping(t, created.key);
      t.clock.advance(1000);
      await rotate(t, created.id);
      await t.services.keyUse.flush();
      expect(await keyOf(t, created.id)).toMatchObject({
        last_used_at: null,
        previous_key_last_used_at: '2026-11-20T12:00:00Z',
      });
    });

    it('a refused key is not a use', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await act(t, created.id, 'pause');
      expect((await ping(t, created.key)).statusCode).toBe(401);
      expect(await t.services.keyUse.flush({ all: true })).toEqual({ written: 0, waiting: 0 });
    });

    it('the shutdown writes the uses still waiting for their interval', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await ping(t, created.key);
      await t.services.keyUse.flush();
      t.clock.advance(1000);
      await ping(t, created.key);
      await t.services.keyAuditJobs.stop();
      expect((await keyOf(t, created.id)).last_used_at).toBe('2026-11-20T12:00:01Z');
    });
  });

  describe('partner system keys', () => {
    it('the current and previous key’s last use, shown with the system, never the key', async () => {
      await seedSystem(t);
      const first = await rotateSystem(t);
      expect((await options(t, first)).statusCode).toBe(200);
      await t.services.keyUse.flush();
      t.clock.advance(60_000);
      const second = await rotateSystem(t);
      await options(t, first);
      t.clock.advance(1000);
      await options(t, second);
      await t.services.keyUse.flush({ all: true });
      const system = bodyOf(await t.admin('GET', `${HD}/systems/alpha`));
      expect(system).toMatchObject({
        key_last_used_at: '2026-11-20T12:01:01Z',
        previous_key_last_used_at: '2026-11-20T12:01:00Z',
      });
      expect(JSON.stringify(system)).not.toContain(first);
      const stopped = bodyOf(await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`));
      expect(stopped.system).toMatchObject({ previous_key_last_used_at: null });
    });
  });

  describe('a fleet: two apps on one database', () => {
    it('greatest(stored, marked): a process flushing an older use later never moves it back', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      const behind = new ManualClock(t.clock.now());
      const other = testApp({ db: t.db, clock: behind });
      try {
        t.clock.advance(30_000);
        await ping(t, created.key); // 12:00:30 on this process
        await ping(other, created.key); // 12:00:00 on the other one
        await t.services.keyUse.flush();
        await other.services.keyUse.flush();
        expect((await keyOf(t, created.id)).last_used_at).toBe('2026-11-20T12:00:30Z');
        behind.advance(90_000);
        await ping(other, created.key); // 12:01:30: later, it wins
        await other.services.keyUse.flush();
        expect((await keyOf(t, created.id)).last_used_at).toBe('2026-11-20T12:01:30Z');
      } finally {
        await other.app.close();
      }
    });
  });
});
