import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { adminRoutes } from '../../src/admin/admin-routes.js';
import { backOfficeEntryOf } from '../../src/admin/register-admin-routes.js';
import type { Actor } from '../../src/audit/actor.js';
import { asOperator, asSupport, expectInvalidParam, HD, POS } from '../admin/fixtures.js';
import { seedCatalog } from '../admin/helpdesk-admin-fixtures.js';
import { ACTIONS } from '../admin/staff-admin-fixtures.js';
import { bodyOf, expectProblem, UUID } from '../expect-http.js';
import {
  ADMIN_TOKEN,
  describeEachDialect,
  SUPPORT_TOKEN,
  testApp,
  useTestApp,
  type TestApp,
} from '../helper.js';

// The back-office action log (docs/back-office.md, Staff users): every successful change made through the admin API
// or the CLI is recorded once, by the registrar, with the token's role, the channel and the IP, the
// operation, its target and what was sent; reads and refusals are not; the answer's body (a key shown
// once) never is; a log that cannot be written changes no answer. The console's own actions are recorded
// through the same log with the staff user.

type Body = Record<string, unknown>;

const OPERATOR: Actor = { role: 'operator', channel: 'admin_api', ip: '127.0.0.1' };
interface Page {
  data: Body[];
  next_cursor: string | null;
}

async function page(t: TestApp, query = ''): Promise<Page> {
  return JSON.parse((await t.admin('GET', `${ACTIONS}${query}`)).body) as Page;
}

/** The log's (action, target) pairs, oldest first. */
async function recorded(t: TestApp): Promise<string[][]> {
  const rows = await t.db
    .selectFrom('back_office_actions')
    .select(['action', 'target'])
    .orderBy('seq')
    .execute();
  return rows.map((row) => [row.action, row.target]);
}

describeEachDialect('back-office action log', (dialect) => {
  const t = useTestApp(dialect);

  describe('the registrar records every successful change of the admin API, once', () => {
    it('PUTs and a DELETE, with their target and body; GETs and refusals not at all', async () => {
      await t.admin('PUT', `${HD}/companies/acme`, { name: 'Acme' });
      await t.admin('GET', `${HD}/companies`);
      await t.admin('PUT', `${HD}/companies/acme`, { name: 'Acme Comércio', active: false });
      await seedCatalog(t);
      await t.admin('DELETE', `${HD}/categories/11`);
      // Refused: nothing recorded.
      expectProblem(await asOperator(t, 'PUT', `${HD}/companies/x`, { name: '' }), 422, 'validation_failed');
      expectProblem(await asOperator(t, 'DELETE', `${HD}/categories/99`), 404, 'not_found');
      expectProblem(await asSupport(t, 'PUT', `${HD}/companies/y`, { name: 'Y' }), 403, 'forbidden');
      await t.admin('GET', `${HD}/categories`);
      await t.admin('GET', ACTIONS);

      expect(await recorded(t)).toEqual([
        ['putHelpDeskCompany', 'helpdesk/companies/acme'],
        ['putHelpDeskCompany', 'helpdesk/companies/acme'],
        ['putHelpDeskCategoryType', 'helpdesk/category-types/1'],
        ['putHelpDeskPriority', 'helpdesk/priorities/1'],
        ['putHelpDeskCategory', 'helpdesk/categories/10'],
        ['putHelpDeskCategory', 'helpdesk/categories/11'],
        ['deleteHelpDeskCategory', 'helpdesk/categories/11'],
      ]);
      const { data } = await page(t, '?action=putHelpDeskCompany');
      expect(data).toHaveLength(2);
      expect(data[0]).toEqual({
        occurred_at: '2026-11-20T12:00:00Z',
        action: 'putHelpDeskCompany',
        target: 'helpdesk/companies/acme',
        actor: { role: 'operator', user_id: null, name: null, channel: 'admin_api', ip: '127.0.0.1' },
        details: {
          status: 200,
          request_id: expect.stringMatching(UUID),
          id: 'acme',
          body: { name: 'Acme Comércio', active: false },
        },
      });
      expect(data[1]?.details).toMatchObject({ status: 201, body: { name: 'Acme', active: true } });
    });

    it('a created key: the key’s id, never its text; support’s change via the CLI as such', async () => {
      await t.admin('PUT', `${POS}/accounts/acme`, { name: 'Acme' });
      const created = bodyOf(await t.admin('POST', `${POS}/accounts/acme/keys`, { name: 'ERP' }));
      const bySupport = await t.app.admin.inject({
        method: 'POST',
        url: `${POS}/accounts/acme/keys/${String(created.id)}/revoke`,
        headers: { authorization: `Bearer ${SUPPORT_TOKEN}`, 'x-admin-client': 'cli' },
        remoteAddress: '203.0.113.7',
      });
      expect(bySupport.statusCode).toBe(200);
      const { data } = await page(t);
      expect(data.map((action) => [action.action, action.target])).toEqual([
        ['revokeMerchantKey', `pos/accounts/acme/keys/${String(created.id)}/revoke`],
        ['createMerchantKey', 'pos/accounts/acme/keys'],
        ['putPosAccount', 'pos/accounts/acme'],
      ]);
      expect(data[0]?.actor).toEqual({
        role: 'support',
        user_id: null,
        name: null,
        channel: 'cli',
        ip: '203.0.113.7',
      });
      expect(data[1]?.details).toMatchObject({ status: 201, id: created.id, body: { name: 'ERP' } });
      const stored = JSON.stringify(await t.db.selectFrom('back_office_actions').selectAll().execute());
      expect(stored).not.toContain(String(created.key));
    });

    it('an upload: recorded without its body', async () => {
      await t.admin('PUT', `${POS}/accounts/acme`, { name: 'Acme' });
      await t.admin('PUT', `${POS}/accounts/acme/places/P1`, { timezone: 'America/Sao_Paulo' });
      const receipt = {
        id: 'R1',
        place: 'P1',
        occurred_at: '2026-11-20T21:30:00-03:00',
        payment_method: 'pix',
        amount: '12.50',
        kind: 'sale',
      };
      await t.admin('POST', `${POS}/accounts/acme/receipts`, { receipts: [receipt] });
      const { data } = await page(t);
      expect(data[0]).toMatchObject({ action: 'importPosReceipts', target: 'pos/accounts/acme/receipts' });
      expect(data[0]?.details).toEqual({ status: 200, request_id: expect.stringMatching(UUID) });
    });

    it('a staff user’s change is recorded once, by the service, not again by the registrar', async () => {
      const created = bodyOf(
        await t.admin('POST', '/admin/v1/staff/users', {
          email: 'bia@operator.example',
          name: 'Bia',
          role: 'support',
        }),
      );
      await t.admin('POST', `/admin/v1/staff/users/${String(created.id)}/disable`);
      expect(await recorded(t)).toEqual([
        ['createStaffUser', `staff/users/${String(created.id)}`],
        ['disableStaffUser', `staff/users/${String(created.id)}`],
      ]);
    });
  });

  describe('reading: newest first, a page at a time, by action or staff user', () => {
    it('the cursor walks every action once; filters narrow it', async () => {
      const log = t.services.backOfficeLog;
      const staff = (userId: string): Actor => ({
        role: 'staff',
        userId,
        displayName: userId.toUpperCase(),
        channel: 'console',
        ip: '10.0.0.2',
      });
      for (let i = 0; i < 5; i += 1) {
        await log.record(t.db, staff(i % 2 === 0 ? 'ana' : 'bia'), {
          action: i < 3 ? 'stopPreviousKey' : 'revokeMerchantKey',
          target: `helpdesk/systems/s${i}`,
          details: { reason: `leak ${i}` },
        });
        // Two at the same instant: the sequence orders them.
        if (i % 2 === 1) t.clock.advance(1000);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const next: Page = await page(t, `?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
        expect(next.data.length).toBeLessThanOrEqual(2);
        seen.push(...next.data.map((action) => String(action.target)));
        cursor = next.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => `helpdesk/systems/s${i}`));
      const ana = await page(t, '?user=ana');
      expect(ana.data.map((action) => action.target)).toEqual([
        'helpdesk/systems/s4',
        'helpdesk/systems/s2',
        'helpdesk/systems/s0',
      ]);
      expect(ana.data[0]?.actor).toEqual({
        role: 'staff',
        user_id: 'ana',
        name: 'ANA',
        channel: 'console',
        ip: '10.0.0.2',
      });
      const revokes = await page(t, '?action=revokeMerchantKey&user=bia');
      expect(revokes.data.map((action) => action.details)).toEqual([{ reason: 'leak 3' }]);
      // The service reads the same way (the console's page).
      const first = await log.list({ limit: 3, userId: 'ana' });
      expect(first.actions).toHaveLength(3);
      expect(first.nextCursor).toBeNull();
    });

    it('bad query: 422 naming it', async () => {
      for (const [query, param] of [
        ['?limit=0', 'query.limit'],
        ['?limit=201', 'query.limit'],
        ['?cursor=abc', 'query.cursor'],
        ['?action=', 'query.action'],
        ['?user=', 'query.user'],
        ['?who=me', 'query'],
      ] as const) {
        expectInvalidParam(await asOperator(t, 'GET', `${ACTIONS}${query}`), param);
      }
      await expect(t.services.backOfficeLog.list({ cursor: 'abc' })).rejects.toMatchObject({
        status: 422,
        extras: { param: 'cursor' },
      });
    });

    it('members named like secrets are hidden, wherever they are', async () => {
      await t.services.backOfficeLog.record(
        t.db,
        { role: 'system', channel: 'service', ip: null },
        {
          action: 'test',
          target: 'x',
          details: {
            password: 'p',
            nested: { set_password_url: 'u', current_key_hash: 'h', key: 'k', token: 't' },
            list: [{ secret: 's' }],
            key_grace_seconds: 60,
            email: 'a@example.com',
          },
        },
      );
      expect((await page(t)).data[0]?.details).toEqual({
        password: '[hidden]',
        nested: {
          set_password_url: '[hidden]',
          current_key_hash: '[hidden]',
          key: '[hidden]',
          token: '[hidden]',
        },
        list: [{ secret: '[hidden]' }],
        key_grace_seconds: 60,
        email: 'a@example.com',
      });
    });
  });
});

describe('what the registrar keeps of a change', () => {
  const route = adminRoutes.find((entry) => entry.operationId === 'putHelpDeskCategory')!;
  const request = { params: { id: '10' }, id: 'req-1' };
  const called = (body: unknown) => ({
    input: { params: { id: 10 }, query: undefined, body, log: pino({ level: 'silent' }), actor: OPERATOR },
    answer: { status: 201, body: { id: 10, name: 'Terminal', key: 'never kept' } },
  });

  it('the operation, the path filled in, the status, the request id, the created id and the body sent', () => {
    expect(backOfficeEntryOf(route, request, called({ name: 'Terminal', type_id: 1 }))).toEqual({
      action: 'putHelpDeskCategory',
      target: 'helpdesk/categories/10',
      details: { status: 201, request_id: 'req-1', id: 10, body: { name: 'Terminal', type_id: 1 } },
    });
  });

  it('of a body longer than 4096 characters of JSON, only its length', () => {
    const body = { name: 'x'.repeat(5000) };
    expect(backOfficeEntryOf(route, request, called(body)).details).toEqual({
      status: 201,
      request_id: 'req-1',
      id: 10,
      body_chars: JSON.stringify(body).length,
    });
  });
});

describeEachDialect('back-office action log that cannot be written', (dialect) => {
  it('the change is made and answered as always; the failure is logged, with the operation', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const opened = await dialect.open();
    const t = testApp({
      db: opened.db,
      rateLimits: await dialect.openStore(),
      logger: pino({ level: 'error' }, stream),
    });
    try {
      await sql`drop table back_office_actions`.execute(t.db);
      const response = await t.app.admin.inject({
        method: 'PUT',
        url: `${HD}/companies/acme`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: 'Acme' },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(bodyOf(response)).toEqual({ id: 'acme', name: 'Acme', active: true });
      const stored = await t.db.selectFrom('hd_companies').selectAll().execute();
      expect(stored).toEqual([{ id: 'acme', name: 'Acme', active: 1 }]);
      const errors = lines.map((line) => JSON.parse(line) as Body).filter((line) => line.level === 50);
      expect(errors).toEqual([
        expect.objectContaining({
          msg: 'back-office action not recorded: the change was made, the log misses it',
          operationId: 'putHelpDeskCompany',
        }),
      ]);
    } finally {
      await t.app.close();
      await opened.drop();
    }
  });
});
