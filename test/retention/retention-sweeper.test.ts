import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { seedHelpdeskDemo } from '../../src/helpdesk/demo.js';
import { seedPosDemo } from '../../src/pos/demo.js';
import { createRetentionSweeper } from '../../src/retention/retention-sweeper.js';
import { createServices } from '../../src/services.js';
import { describeEachDialect, ManualClock, testConfig } from '../helper.js';

// The retention of the operational tables (docs/data.md, Retention): expired web sessions past the grace,
// per-minute request counts and delivered e-mail older than their retention are deleted, in batches
// bounded per run, by every process, without harm when several sweep at once; younger rows stay, and the
// audit trails, tickets and receipts are never touched.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const retention = { sessionGraceMs: HOUR, trafficMs: 2 * DAY, outboxMs: 30 * DAY };

/** The tables the sweep deletes from; every other table keeps every row. */
const SWEPT = new Set(['web_sessions', 'traffic_minutes', 'mail_outbox']);

async function addSession(db: Db, id: string, expiresAt: number): Promise<void> {
  await db
    .insertInto('web_sessions')
    .values({ id_hash: id, face: 'panel', user_id: null, data: '{}', expires_at: expiresAt })
    .execute();
}

async function addMinute(db: Db, minute: number, api = 'pos'): Promise<void> {
  await db.insertInto('traffic_minutes').values({ minute, api, outcome: 'answered', count: 1 }).execute();
}

/** An outbox message written at `createdAt`, delivered at `sentAt` (null: not yet), or given up at `failedAt`. */
async function addMail(
  db: Db,
  id: string,
  at: { createdAt: number; sentAt: number | null; failedAt?: number },
): Promise<void> {
  await db
    .insertInto('mail_outbox')
    .values({
      id,
      kind: 'pos_key_created',
      recipient: 'ana@example.com',
      subject: 'Key',
      text_body: '',
      html_body: '',
      next_attempt_at: at.createdAt,
      lease_token: null,
      last_error: at.failedAt === undefined ? null : 'refused',
      created_at: at.createdAt,
      sent_at: at.sentAt,
      failed_at: at.failedAt ?? null,
    })
    .execute();
}

const ids = async (db: Db, table: 'web_sessions' | 'mail_outbox') =>
  table === 'web_sessions'
    ? (await db.selectFrom('web_sessions').select('id_hash').orderBy('id_hash').execute()).map(
        (r) => r.id_hash,
      )
    : (await db.selectFrom('mail_outbox').select('id').orderBy('id').execute()).map((r) => r.id);

async function rowCount(db: Db, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select(sql<number | string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDialect('retention sweep', (dialect) => {
  let db: Db;
  let drop: () => Promise<void>;
  const clock = new ManualClock(NOW);

  beforeEach(async () => {
    const opened = await dialect.open();
    db = opened.db;
    drop = () => opened.drop();
    clock.set(NOW);
  });
  afterEach(async () => {
    await drop();
  });

  it('sessions: gone an hour (the grace) after their expiry; live ones and those within the grace stay', async () => {
    await addSession(db, 'expired-yesterday', NOW - DAY);
    await addSession(db, 'expired-61-min-ago', NOW - HOUR - 60_000);
    await addSession(db, 'expired-59-min-ago', NOW - HOUR + 60_000);
    await addSession(db, 'live', NOW + HOUR);
    const sweeper = createRetentionSweeper({ db, clock, retention });
    expect(await sweeper.sweep()).toEqual({ sessions: 2, traffic: 0, outbox: 0, more: false });
    expect(await ids(db, 'web_sessions')).toEqual(['expired-59-min-ago', 'live']);
  });

  it('request counts: the minutes older than RETENTION_TRAFFIC_DAYS go, the younger stay', async () => {
    await addMinute(db, NOW - 3 * DAY);
    await addMinute(db, NOW - 2 * DAY - 60_000, 'helpdesk');
    await addMinute(db, NOW - 2 * DAY - 60_000, 'pos');
    await addMinute(db, NOW - 2 * DAY);
    await addMinute(db, NOW - HOUR);
    const sweeper = createRetentionSweeper({ db, clock, retention });
    expect(await sweeper.sweep()).toMatchObject({ traffic: 3 });
    const left = await db.selectFrom('traffic_minutes').select('minute').orderBy('minute').execute();
    expect(left.map((row) => row.minute)).toEqual([NOW - 2 * DAY, NOW - HOUR]);
  });

  it('outbox: e-mail delivered before RETENTION_OUTBOX_DAYS goes; undelivered and given-up e-mail stays, however old', async () => {
    await addMail(db, 'delivered-40-days-ago', { createdAt: NOW - 40 * DAY, sentAt: NOW - 40 * DAY });
    await addMail(db, 'delivered-29-days-ago', { createdAt: NOW - 40 * DAY, sentAt: NOW - 29 * DAY });
    await addMail(db, 'waiting-since-40-days', { createdAt: NOW - 40 * DAY, sentAt: null });
    await addMail(db, 'given-up-40-days-ago', {
      createdAt: NOW - 41 * DAY,
      sentAt: null,
      failedAt: NOW - 40 * DAY,
    });
    const sweeper = createRetentionSweeper({ db, clock, retention });
    expect(await sweeper.sweep()).toMatchObject({ outbox: 1 });
    expect(await ids(db, 'mail_outbox')).toEqual([
      'delivered-29-days-ago',
      'given-up-40-days-ago',
      'waiting-since-40-days',
    ]);
  });

  it('the retention is the configured one: RETENTION_* through the services', async () => {
    const config = testConfig({ RETENTION_TRAFFIC_DAYS: '7', RETENTION_OUTBOX_DAYS: '1' });
    const services = createServices({ db, clock, config });
    await addMinute(db, NOW - 6 * DAY);
    await addMinute(db, NOW - 8 * DAY);
    await addMail(db, 'delivered-2-days-ago', { createdAt: NOW - 2 * DAY, sentAt: NOW - 2 * DAY });
    expect(await services.retention.sweep()).toEqual({ sessions: 0, traffic: 1, outbox: 1, more: false });
    expect(await rowCount(db, 'traffic_minutes')).toBe(1);
    expect(await rowCount(db, 'mail_outbox')).toBe(0);
  });

  it('batches are bounded: a run deletes at most maxBatches × batchSize rows per table, the rest in later runs', async () => {
    for (let index = 0; index < 25; index += 1) await addSession(db, `s${String(index)}`, NOW - DAY - index);
    for (let index = 0; index < 25; index += 1) await addMinute(db, NOW - 10 * DAY - index * 60_000);
    const sweeper = createRetentionSweeper({ db, clock, retention, batchSize: 5, maxBatches: 2 });
    // The oldest first, ten a run, and the run says more is left.
    expect(await sweeper.sweep()).toEqual({ sessions: 10, traffic: 10, outbox: 0, more: true });
    const sessionsLeft = await db.selectFrom('web_sessions').select('expires_at').execute();
    expect(Math.min(...sessionsLeft.map((row) => row.expires_at))).toBe(NOW - DAY - 14);
    expect(await sweeper.sweep()).toEqual({ sessions: 10, traffic: 10, outbox: 0, more: true });
    expect(await sweeper.sweep()).toEqual({ sessions: 5, traffic: 5, outbox: 0, more: false });
    expect(await sweeper.sweep()).toEqual({ sessions: 0, traffic: 0, outbox: 0, more: false });
  });

  it('several processes sweeping at once delete each row once, without an error', async () => {
    for (let index = 0; index < 300; index += 1) await addSession(db, `s${String(index)}`, NOW - DAY - index);
    await addSession(db, 'live', NOW + HOUR);
    const sweepers = [1, 2, 3, 4].map(() =>
      createRetentionSweeper({ db, clock, retention, batchSize: 20, maxBatches: 100 }),
    );
    const runs = await Promise.all(sweepers.map((sweeper) => sweeper.sweep()));
    expect(runs.reduce((sum, run) => sum + run.sessions, 0)).toBe(300);
    expect(await ids(db, 'web_sessions')).toEqual(['live']);
  });

  it('audit trails, tickets and receipts are never swept, however old', async () => {
    const config = testConfig();
    const services = createServices({ db, clock, config });
    await seedHelpdeskDemo(services);
    await seedPosDemo(services, { receipts: 20 });
    const company = await db.selectFrom('hd_companies').select('id').executeTakeFirstOrThrow();
    await db
      .insertInto('hd_tickets')
      .values({
        id: 'old-ticket',
        system_id: 'demo',
        external_id: 'old-1',
        source: 'api',
        company_id: company.id,
        description: 'Ten years old.',
        category_id: null,
        priority_id: null,
        support_level: 1,
        nature: null,
        cnpj: null,
        requester_name: null,
        requester_contact: null,
        created_at: NOW - 3650 * DAY,
      })
      .execute();
    await db
      .insertInto('back_office_actions')
      .values({
        occurred_at: NOW - 3650 * DAY,
        actor_role: 'operator',
        actor_user_id: null,
        actor_name: null,
        channel: 'api',
        actor_ip: null,
        action: 'putAccount',
        target: 'accounts/demo',
        details: '{}',
      })
      .execute();
    await addSession(db, 'expired', NOW - DAY);
    await addMinute(db, NOW - 3 * DAY);
    await addMail(db, 'delivered', { createdAt: NOW - 40 * DAY, sentAt: NOW - 40 * DAY });
    const tables = (await db.introspection.getTables())
      .map((table) => table.name as keyof Database)
      .filter((name) => !name.startsWith('kysely_'));
    const before = new Map<string, number>();
    for (const table of tables) before.set(table, await rowCount(db, table));
    for (const table of ['key_audit_events', 'back_office_actions', 'hd_tickets', 'pos_receipts']) {
      expect(before.get(table), table).toBeGreaterThan(0);
    }

    // Ten years on, everything is older than any retention.
    clock.advance(3650 * DAY);
    await services.retention.sweep();
    for (const table of tables) {
      expect(await rowCount(db, table), table).toBe(SWEPT.has(table) ? 0 : before.get(table));
    }
  });

  it('started, it sweeps on its own at a jittered time; stopped, it sweeps no more', async () => {
    await addSession(db, 'expired', NOW - DAY);
    const sweeper = createRetentionSweeper({ db, clock, retention, intervalMs: 40, random: () => 0.5 });
    sweeper.start();
    await vi.waitFor(async () => {
      expect(await rowCount(db, 'web_sessions')).toBe(0);
    });
    await sweeper.stop();
    await addSession(db, 'expired-later', NOW - DAY);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await ids(db, 'web_sessions')).toEqual(['expired-later']);
  });
});
