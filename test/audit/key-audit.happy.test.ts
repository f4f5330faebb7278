import { describe, expect, it } from 'vitest';
import { adminAs, describeEachDialect, SUPPORT_TOKEN, testApp, useTestApp } from '../helper.js';
import { bodyOf } from '../expect-http.js';
import { act, createKey, DAY, HOUR, rotate, seedAccounts } from '../admin/pos-keys-admin-fixtures.js';
import { auditPage, eventNames, HD, POS, rotateSystem, seedSystem } from './key-audit-fixtures.js';

// The key audit trail through the admin API (docs/back-office.md, Audit trail and last use): each lifecycle event of
// both kinds of key with who (the token's role, the channel, the IP), when and what changed; newest first
// with a cursor; expiries and ends of grace recorded once at their real instant.

const OPERATOR_VIA_API = {
  role: 'operator',
  user_id: null,
  name: null,
  channel: 'admin_api',
  ip: '127.0.0.1',
};

describeEachDialect('key audit trail', (dialect) => {
  const t = useTestApp(dialect);

  describe('merchant keys: every change is an event, with its actor', () => {
    it('issued, edited (before/after), rotated, paused, reactivated, rotated invalidating, revoked', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'ERP', permissions: ['event.view'] });
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      t.clock.advance(1000);
      await t.admin('PATCH', url, { name: 'ERP 2', places: ['P1'], permissions: ['event.view'] });
      t.clock.advance(1000);
      await rotate(t, created.id);
      t.clock.advance(1000);
      await act(t, created.id, 'pause');
      t.clock.advance(1000);
      await act(t, created.id, 'reactivate');
      t.clock.advance(1000);
      await rotate(t, created.id, { invalidate_current: true });
      t.clock.advance(1000);
      const revoked = await adminAs(t, SUPPORT_TOKEN, 'POST', `${url}/revoke`);
      expect(revoked.statusCode).toBe(200);

      const page = await auditPage(t, `${url}/audit`);
      expect(page.next_cursor).toBeNull();
      expect(page.data.map((event) => event.event)).toEqual([
        'revoked',
        'rotated',
        'reactivated',
        'paused',
        'rotated',
        'edited',
        'issued',
      ]);
      const [revokedEvent, invalidating, , paused, rotatedEvent, edited, issued] = page.data;
      expect(issued).toEqual({
        event: 'issued',
        kind: 'merchant',
        system: null,
        account: 'acme',
        key: created.id,
        occurred_at: '2026-11-20T12:00:00Z',
        actor: OPERATOR_VIA_API,
        details: {
          name: 'ERP',
          permissions: ['event.view'],
          places: 'all',
          expires_at: '2027-11-21T02:59:59Z',
        },
      });
      // Only what changed: the permissions were sent unchanged.
      expect(edited?.details).toEqual({
        changes: { name: { before: 'ERP', after: 'ERP 2' }, places: { before: 'all', after: ['P1'] } },
      });
      expect(edited?.occurred_at).toBe('2026-11-20T12:00:01Z');
      expect(rotatedEvent?.details).toEqual({
        invalidate_current: false,
        previous_valid_until: '2026-11-21T12:00:02Z',
        older_previous_ended: false,
      });
      // The pause ended the previous key's grace at once (docs/pos-api.md, States).
      expect(paused?.details).toEqual({ previous_key_ended: true });
      expect(invalidating?.details).toEqual({
        invalidate_current: true,
        previous_valid_until: null,
        older_previous_ended: false,
      });
      expect(revokedEvent?.actor).toEqual({ ...OPERATOR_VIA_API, role: 'support' });
    });

    it('a change that changes nothing records nothing: pause twice, revoke twice, an edit to the same values', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'ERP' });
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      await t.admin('PATCH', url, { name: 'ERP' });
      await act(t, created.id, 'pause');
      await act(t, created.id, 'pause');
      await act(t, created.id, 'revoke');
      await act(t, created.id, 'revoke');
      expect(await eventNames(t, `${url}/audit`)).toEqual(['revoked', 'paused', 'issued']);
    });

    it('a refused change records nothing (409 on a revoked key)', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await act(t, created.id, 'revoke');
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      expect((await adminAs(t, undefined, 'POST', `${url}/pause`)).statusCode).toBe(401);
      const refused = await t.adminRaw({ method: 'POST', url: `${url}/rotate` });
      expect(refused.statusCode).toBe(409);
      expect(await eventNames(t, `${url}/audit`)).toEqual(['revoked', 'issued']);
    });

    it('X-Admin-Client: cli is recorded as the channel cli', async () => {
      await seedAccounts(t);
      const response = await t.adminRaw({
        method: 'POST',
        url: `${POS}/accounts/acme/keys`,
        headers: { 'x-admin-client': 'cli', 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'From the CLI' }),
      });
      expect(response.statusCode).toBe(201);
      const [event] = (await auditPage(t, `${POS}/accounts/acme/audit`)).data;
      expect(event?.actor).toEqual({ ...OPERATOR_VIA_API, channel: 'cli' });
    });

    it('the client IP is the socket’s address', async () => {
      await seedAccounts(t);
      const response = await t.app.admin.inject({
        method: 'POST',
        url: `${POS}/accounts/acme/keys`,
        remoteAddress: '203.0.113.7',
        headers: { authorization: `Bearer ${SUPPORT_TOKEN}` },
        payload: { name: 'x' },
      });
      expect(response.statusCode).toBe(403); // support may not create: nothing recorded
      const created = await createKey(t);
      const revoked = await t.app.admin.inject({
        method: 'POST',
        url: `${POS}/accounts/acme/keys/${String(created.id)}/revoke`,
        remoteAddress: '203.0.113.7',
        headers: { authorization: `Bearer ${SUPPORT_TOKEN}` },
      });
      expect(revoked.statusCode).toBe(200);
      const page = await auditPage(t, `${POS}/accounts/acme/audit`);
      expect(page.data.map((event) => [event.event, (event.actor as { ip: string }).ip])).toEqual([
        ['revoked', '203.0.113.7'],
        ['issued', '127.0.0.1'],
      ]);
    });
  });

  describe('partner system keys', () => {
    it('issued, rotated, previous stopped, edited (deactivation), with before/after', async () => {
      await seedSystem(t);
      await rotateSystem(t);
      t.clock.advance(1000);
      await rotateSystem(t);
      t.clock.advance(1000);
      const stopped = await adminAs(t, SUPPORT_TOKEN, 'POST', `${HD}/systems/alpha/keys/stop-previous`);
      expect(bodyOf(stopped).stopped).toBe(true);
      t.clock.advance(1000);
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10, active: false });
      // The same settings again: nothing changed, nothing recorded.
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10, active: false });

      const page = await auditPage(t, `${HD}/systems/alpha/audit`);
      expect(page.data.map((event) => [event.event, event.occurred_at])).toEqual([
        ['edited', '2026-11-20T12:00:03Z'],
        ['previous_stopped', '2026-11-20T12:00:02Z'],
        ['rotated', '2026-11-20T12:00:01Z'],
        ['issued', '2026-11-20T12:00:00Z'],
      ]);
      const [edited, previousStopped, rotatedEvent, issued] = page.data;
      expect(issued).toMatchObject({ kind: 'system', system: 'alpha', account: null, key: null });
      expect(rotatedEvent?.details).toEqual({
        previous_valid_until: '2026-11-21T12:00:01Z',
        older_previous_ended: false,
      });
      expect(previousStopped).toMatchObject({ details: { was_in_grace: true }, actor: { role: 'support' } });
      expect(edited?.details).toEqual({ changes: { active: { before: true, after: false } } });
    });

    it('the creation of a system is not a key event; its first key is `issued`', async () => {
      await seedSystem(t);
      expect(await eventNames(t, `${HD}/systems/alpha/audit`)).toEqual([]);
    });
  });

  describe('time-based events: recorded once, at the real instant', () => {
    it('a merchant key’s expiry and the end of its previous key’s grace, by the sweep', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'ERP', expires_on: '2026-11-25' });
      await rotate(t, created.id);
      const url = `${POS}/accounts/acme/keys/${String(created.id)}/audit`;
      t.clock.advance(30 * HOUR);
      await t.services.keyAuditJobs.sweep();
      t.clock.advance(7 * DAY);
      await t.services.keyAuditJobs.sweep();
      await t.services.keyAuditJobs.sweep();
      const page = await auditPage(t, url);
      expect(page.data.map((event) => [event.event, event.occurred_at])).toEqual([
        ['expired', '2026-11-26T03:00:00Z'],
        ['grace_ended', '2026-11-21T12:00:00Z'],
        ['rotated', '2026-11-20T12:00:00Z'],
        ['issued', '2026-11-20T12:00:00Z'],
      ]);
      expect(page.data[0]?.actor).toEqual({
        role: 'system',
        user_id: null,
        name: null,
        channel: 'service',
        ip: null,
      });
    });

    it('a grace ended by a pause, or by a rotation invalidating the current key, is not swept again', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await rotate(t, created.id);
      t.clock.advance(HOUR);
      await act(t, created.id, 'pause');
      t.clock.advance(HOUR);
      await act(t, created.id, 'reactivate');
      await rotate(t, created.id, { invalidate_current: true });
      t.clock.advance(2 * DAY);
      expect(await t.services.keyAuditJobs.sweep()).toBe(0);
      expect(await eventNames(t, `${POS}/accounts/acme/audit`)).toEqual([
        'rotated',
        'reactivated',
        'paused',
        'rotated',
        'issued',
      ]);
    });

    it('a rotation records the end of a grace the sweep has not seen yet, at its real instant', async () => {
      await seedSystem(t, 'alpha', { key_grace_seconds: 3600 });
      await rotateSystem(t);
      await rotateSystem(t);
      t.clock.advance(5 * HOUR);
      await rotateSystem(t);
      expect(
        (await auditPage(t, `${HD}/systems/alpha/audit`)).data.map((e) => [e.event, e.occurred_at]),
      ).toEqual([
        ['rotated', '2026-11-20T17:00:00Z'],
        ['grace_ended', '2026-11-20T13:00:00Z'],
        ['rotated', '2026-11-20T12:00:00Z'],
        ['issued', '2026-11-20T12:00:00Z'],
      ]);
      expect(await t.services.keyAuditJobs.sweep()).toBe(0);
    });

    it('an edit extending an expired key records the expiry first', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'ERP', expires_on: '2026-11-21' });
      t.clock.advance(3 * DAY);
      await t.admin('PATCH', `${POS}/accounts/acme/keys/${String(created.id)}`, { expires_on: '2027-01-31' });
      const page = await auditPage(t, `${POS}/accounts/acme/audit`);
      expect(page.data.map((event) => [event.event, event.occurred_at])).toEqual([
        ['edited', '2026-11-23T12:00:00Z'],
        ['expired', '2026-11-22T03:00:00Z'],
        ['issued', '2026-11-20T12:00:00Z'],
      ]);
      expect(page.data[0]?.details).toEqual({
        changes: { expires_at: { before: '2026-11-22T02:59:59Z', after: '2027-02-01T02:59:59Z' } },
      });
    });

    it('two processes sweeping the same database record each event once', async () => {
      await seedAccounts(t);
      await seedSystem(t);
      await rotateSystem(t);
      await rotateSystem(t);
      await createKey(t, { name: 'ERP', expires_on: '2026-11-21' });
      const other = testApp({ db: t.db, clock: t.clock });
      try {
        t.clock.advance(3 * DAY);
        const written = await Promise.all([
          t.services.keyAuditJobs.sweep(),
          other.services.keyAuditJobs.sweep(),
        ]);
        expect(written[0] + written[1]).toBe(2);
        expect(await eventNames(t, '/admin/v1/audit/keys?event=expired,grace_ended')).toEqual([
          'expired',
          'grace_ended',
        ]);
      } finally {
        await other.app.close();
      }
    });
  });

  describe('reading: newest first, with a cursor and filters', () => {
    it('pages of `limit` events follow each other without gap or repeat; kind and event filter', async () => {
      await seedAccounts(t);
      await seedSystem(t);
      const created = await createKey(t);
      await rotateSystem(t);
      for (const action of ['pause', 'reactivate', 'pause', 'reactivate'] as const)
        await act(t, created.id, action);
      await rotateSystem(t);
      const whole = (await auditPage(t, '/admin/v1/audit/keys?limit=200')).data;
      expect(whole.map((event) => event.event)).toEqual([
        'rotated',
        'reactivated',
        'paused',
        'reactivated',
        'paused',
        'issued',
        'issued',
      ]);
      const pages: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: unknown[]; next_cursor: string | null } = await auditPage(
          t,
          `/admin/v1/audit/keys?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        expect(page.data.length).toBeLessThanOrEqual(2);
        pages.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor !== null);
      expect(pages).toEqual(whole);

      expect(await eventNames(t, '/admin/v1/audit/keys?kind=system')).toEqual(['rotated', 'issued']);
      expect(await eventNames(t, '/admin/v1/audit/keys?event=paused')).toEqual(['paused', 'paused']);
      expect(
        await eventNames(
          t,
          '/admin/v1/audit/keys?from=2026-11-20T12:00:00Z&to=2026-11-20T12:00:01Z&kind=merchant',
        ),
      ).toEqual(['reactivated', 'paused', 'reactivated', 'paused', 'issued']);
      expect(await eventNames(t, '/admin/v1/audit/keys?from=2026-11-20T12:00:01Z')).toEqual([]);
    });

    it('support may read the trail', async () => {
      await seedAccounts(t);
      await createKey(t);
      const response = await adminAs(t, SUPPORT_TOKEN, 'GET', `${POS}/accounts/acme/audit`);
      expect(response.statusCode).toBe(200);
    });
  });
});
