import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/database.js';
import {
  createTraffic,
  MINUTE_MS,
  outcomeOf,
  TRAFFIC_RETENTION_MS,
  type ApiTraffic,
  type TrafficHour,
  type TrafficLog,
} from '../../src/observability/traffic.js';
import { readTrafficCounts } from '../../src/observability/traffic-repository.js';
import { describeEachDialect, testApp, useTestApp } from '../helper.js';
import { getOptions } from '../helpdesk/fixtures.js';
import { PING } from '../pos/fixtures.js';
import { publicRequest } from '../request.js';

// The per-minute request counts of the console's dashboard (issue 14: "requests and refusals by API over
// the last hour, from the service's own counters"): counted in memory by every answered request of both
// listeners, added to the fleet's rows by a flush every 15 s and at shutdown, kept when a flush fails,
// read back as the last 60 minutes by API and outcome; not written once past their retention (the
// retention sweep deletes the old rows: test/retention/).

const NOON = Date.UTC(2026, 10, 20, 12, 0, 0);
const zero = { answered: 0, refused: 0, failed: 0 };

const apiOf = (hour: TrafficHour, api: string): ApiTraffic => {
  const found = hour.apis.find((entry) => entry.api === api);
  if (found === undefined) throw new Error(`no ${api} in the hour`);
  return found;
};

/** Each API's totals of the hour, left out when all zero. */
const totalsOf = (hour: TrafficHour) =>
  Object.fromEntries(
    hour.apis
      .filter(({ totals }) => totals.answered + totals.refused + totals.failed > 0)
      .map(({ api, totals }) => [api, totals]),
  );

/** Moves the table away (and back): the database then refuses every write to it, as when it is down. */
const tableAway = (db: Db) => sql`alter table traffic_minutes rename to traffic_minutes_away`.execute(db);
const tableBack = (db: Db) => sql`alter table traffic_minutes_away rename to traffic_minutes`.execute(db);

/** A log that keeps its lines. */
function keptLog() {
  const lines: { level: 'warn' | 'info'; message: string }[] = [];
  const log: TrafficLog = {
    warn: (_fields, message) => lines.push({ level: 'warn', message }),
    info: (_fields, message) => lines.push({ level: 'info', message }),
  };
  return { log, lines };
}

describe('traffic outcomes', () => {
  it('answered below 400, refused 4xx, failed 5xx', () => {
    expect([200, 204, 304, 399, 400, 401, 429, 499, 500, 503].map(outcomeOf)).toEqual([
      'answered',
      'answered',
      'answered',
      'answered',
      'refused',
      'refused',
      'refused',
      'refused',
      'failed',
      'failed',
    ]);
  });
});

describeEachDialect('traffic by minute', (dialect) => {
  const t = useTestApp(dialect);

  it('real requests of both listeners show in the last hour after a flush, by API and outcome, not before', async () => {
    expect((await publicRequest(t, { url: PING })).statusCode).toBe(401);
    expect((await getOptions(t)).statusCode).toBe(401);
    expect((await publicRequest(t, { url: '/docs' })).statusCode).toBe(200);
    expect((await publicRequest(t, { url: '/nowhere' })).statusCode).toBe(404);
    await t.admin('GET', '/admin/v1/helpdesk/systems');
    expect((await t.app.admin.inject({ url: '/admin/v1/helpdesk/systems' })).statusCode).toBe(401);
    // The maintenance switch: the ticket API answers 503, a failure.
    await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });
    expect((await getOptions(t)).statusCode).toBe(503);
    expect(t.services.traffic.unwritten()).toBe(8);

    const before = await t.services.traffic.lastHour();
    expect(before.flushedAt).toBeNull();
    expect(totalsOf(before)).toEqual({});

    t.clock.advance(5000);
    expect(await t.services.traffic.flush()).toEqual({ rows: 7, requests: 8 });
    expect(t.services.traffic.unwritten()).toBe(0);
    const hour = await t.services.traffic.lastHour();
    expect(hour).toMatchObject({ from: NOON - 59 * MINUTE_MS, to: NOON + MINUTE_MS, flushedAt: NOON + 5000 });
    expect(totalsOf(hour)).toEqual({
      pos: { answered: 0, refused: 1, failed: 0 },
      helpdesk: { answered: 0, refused: 1, failed: 1 },
      docs: { answered: 1, refused: 0, failed: 0 },
      other: { answered: 0, refused: 1, failed: 0 },
      admin: { answered: 2, refused: 1, failed: 0 },
    });
    // Every API the service names, in the metrics' order, each with the hour's 60 minutes.
    expect(hour.apis.map(({ api }) => api)).toEqual(['helpdesk', 'pos', 'docs', 'admin', 'console', 'other']);
    const helpdesk = apiOf(hour, 'helpdesk');
    expect(helpdesk.minutes).toHaveLength(60);
    expect(helpdesk.minutes.map(({ minute }) => minute)).toEqual(
      Array.from({ length: 60 }, (_, index) => NOON - (59 - index) * MINUTE_MS),
    );
    expect(helpdesk.minutes.at(-1)).toEqual({ minute: NOON, answered: 0, refused: 1, failed: 1 });
    expect(
      helpdesk.minutes.slice(0, 59).every((point) => point.answered + point.refused + point.failed === 0),
    ).toBe(true);
    // A flush with nothing new writes nothing, and moves the instant the page shows.
    t.clock.advance(15_000);
    expect(await t.services.traffic.flush()).toEqual({ rows: 0, requests: 0 });
    expect((await t.services.traffic.lastHour()).flushedAt).toBe(NOON + 20_000);
  });

  it('each request counts in its own UTC minute; a flush adds to the rows of earlier flushes', async () => {
    await publicRequest(t, { url: '/docs' }); // 12:00
    await t.services.traffic.flush();
    t.clock.advance(59_999);
    await publicRequest(t, { url: '/docs' }); // 12:00:59.999
    t.clock.advance(1);
    await publicRequest(t, { url: '/docs' }); // 12:01
    t.clock.advance(3 * MINUTE_MS);
    await publicRequest(t, { url: '/docs' }); // 12:04
    await t.services.traffic.flush();
    const docs = apiOf(await t.services.traffic.lastHour(), 'docs');
    expect(docs.totals).toEqual({ answered: 4, refused: 0, failed: 0 });
    expect(docs.minutes.slice(-5).map(({ minute, answered }) => [minute, answered])).toEqual([
      [NOON, 2],
      [NOON + MINUTE_MS, 1],
      [NOON + 2 * MINUTE_MS, 0],
      [NOON + 3 * MINUTE_MS, 0],
      [NOON + 4 * MINUTE_MS, 1],
    ]);
  });

  it('the last hour is the minute in progress and the 59 before it: an older minute is left out', async () => {
    await publicRequest(t, { url: '/docs' }); // 12:00
    t.clock.advance(MINUTE_MS);
    await publicRequest(t, { url: '/docs' }); // 12:01
    await t.services.traffic.flush();
    const at = (ms: number) => t.services.traffic.lastHour(ms).then((hour) => apiOf(hour, 'docs').totals);
    expect(await at(NOON + 59 * MINUTE_MS + 59_999)).toEqual({ ...zero, answered: 2 });
    expect(await at(NOON + 60 * MINUTE_MS)).toEqual({ ...zero, answered: 1 });
    const later = await t.services.traffic.lastHour(NOON + 60 * MINUTE_MS);
    expect(later.from).toBe(NOON + MINUTE_MS);
    expect(apiOf(later, 'docs').minutes[0]).toEqual({ minute: NOON + MINUTE_MS, ...zero, answered: 1 });
    expect(await at(NOON + 61 * MINUTE_MS)).toEqual(zero);
  });

  it('a failed flush keeps its counts: the next one writes them, with those counted meanwhile, once', async () => {
    await publicRequest(t, { url: '/docs' });
    await publicRequest(t, { url: PING });
    await tableAway(t.db);
    await expect(t.services.traffic.flush()).rejects.toThrow();
    expect(t.services.traffic.unwritten()).toBe(2);
    await publicRequest(t, { url: '/docs' }); // the same minute and API as a kept count
    t.clock.advance(MINUTE_MS);
    await publicRequest(t, { url: PING }); // the next minute
    await expect(t.services.traffic.flush()).rejects.toThrow();
    expect(t.services.traffic.unwritten()).toBe(4);
    await tableBack(t.db);
    expect(await t.services.traffic.flush()).toEqual({ rows: 3, requests: 4 });
    const hour = await t.services.traffic.lastHour();
    expect(apiOf(hour, 'docs').minutes.slice(-2)).toEqual([
      { minute: NOON, ...zero, answered: 2 },
      { minute: NOON + MINUTE_MS, ...zero },
    ]);
    expect(apiOf(hour, 'pos').minutes.slice(-2)).toEqual([
      { minute: NOON, ...zero, refused: 1 },
      { minute: NOON + MINUTE_MS, ...zero, refused: 1 },
    ]);
    // The instant shown is the one of the flush that wrote.
    expect(hour.flushedAt).toBe(NOON + MINUTE_MS);
  });

  it('counts kept through an outage longer than the retention are dropped, not written to be pruned', async () => {
    await publicRequest(t, { url: '/docs' }); // 12:00
    await tableAway(t.db);
    await expect(t.services.traffic.flush()).rejects.toThrow();
    t.clock.advance(TRAFFIC_RETENTION_MS);
    await publicRequest(t, { url: PING }); // two days later
    await tableBack(t.db);
    t.clock.advance(1);
    expect(await t.services.traffic.flush()).toEqual({ rows: 1, requests: 1 });
    expect(await readTrafficCounts(t.db, 0, Number.MAX_SAFE_INTEGER)).toEqual([
      { minute: NOON + TRAFFIC_RETENTION_MS, api: 'pos', outcome: 'refused', count: 1 },
    ]);
  });

  it('labels another version of the fleet wrote: an unknown API counts under other, an unknown outcome not at all', async () => {
    await t.db
      .insertInto('traffic_minutes')
      .values([
        { minute: NOON, api: 'kiosk', outcome: 'answered', count: 3 },
        { minute: NOON, api: 'other', outcome: 'answered', count: 1 },
        { minute: NOON, api: 'pos', outcome: 'throttled', count: 5 },
      ])
      .execute();
    const hour = await t.services.traffic.lastHour();
    expect(totalsOf(hour)).toEqual({ other: { ...zero, answered: 4 } });
  });

  it('two apps on one database (a fleet) add up, their flushes at the same time included', async () => {
    const other = testApp({ db: t.db, clock: t.clock });
    try {
      for (const app of [t, other, other]) {
        await publicRequest(app, { url: '/docs' });
        await publicRequest(app, { url: PING });
      }
      await Promise.all([t.services.traffic.flush(), other.services.traffic.flush()]);
      await publicRequest(t, { url: PING });
      await publicRequest(other, { url: PING });
      await Promise.all([t.services.traffic.flush(), other.services.traffic.flush()]);
      // Each process reads the fleet's sums.
      for (const app of [t, other]) {
        expect(totalsOf(await app.services.traffic.lastHour())).toEqual({
          docs: { ...zero, answered: 3 },
          pos: { ...zero, refused: 5 },
        });
      }
    } finally {
      await other.app.close();
    }
  });

  it('the shutdown writes what is left: stop flushes the counts still in memory', async () => {
    await publicRequest(t, { url: '/docs' });
    await t.services.traffic.stop();
    expect(apiOf(await t.services.traffic.lastHour(), 'docs').totals).toEqual({ ...zero, answered: 1 });
  });

  it('the periodic flush writes by itself, says once that the database is away, and once that it is back', async () => {
    const { log, lines } = keptLog();
    const traffic = createTraffic({ db: t.db, clock: t.clock, flushMs: 10 });
    traffic.start(log);
    try {
      traffic.record('pos', 200);
      await vi.waitFor(async () => {
        expect(apiOf(await traffic.lastHour(), 'pos').totals).toEqual({ ...zero, answered: 1 });
      });
      await tableAway(t.db);
      traffic.record('pos', 500);
      await vi.waitFor(() => {
        expect(lines).toHaveLength(1);
      });
      // Several rounds fail meanwhile: still one line.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines).toEqual([
        { level: 'warn', message: 'request counts not written: kept in memory, each next flush tries again' },
      ]);
      expect(traffic.unwritten()).toBe(1);
      await tableBack(t.db);
      await vi.waitFor(() => {
        expect(lines.at(-1)).toEqual({ level: 'info', message: 'request counts written again' });
      });
      expect(apiOf(await traffic.lastHour(), 'pos').totals).toEqual({ ...zero, answered: 1, failed: 1 });
      traffic.record('pos', 429);
    } finally {
      await traffic.stop();
    }
    expect(apiOf(await traffic.lastHour(), 'pos').totals).toEqual({ answered: 1, refused: 1, failed: 1 });
  });
});
