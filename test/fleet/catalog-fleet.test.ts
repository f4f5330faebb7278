import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { CATALOG_RECHECK_MS } from '../../src/helpdesk/catalog-cache.js';
import { createMemoryFleetNotices, type FleetNotices } from '../../src/fleet/fleet-notices.js';
import { connectRedisFleetNotices } from '../../src/fleet/redis-fleet-notices.js';
import {
  CATALOG,
  getOptions,
  HD_SCOPES,
  json,
  postTicket,
  putSystem,
  seedHelpdesk,
  ticket,
  type Keys,
} from '../helpdesk/fixtures.js';
import { describeEachDialect, dialects, ManualClock, redisUrl, testApp, type TestApp } from '../helper.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { timeUntil } from '../support/timing.js';

// The ticket API's answer does not depend on which process of a fleet a partner reaches (docs/operations.md, Running
// a fleet: what every process sees at once). Two apps over one database, each with its own services and
// its own copy of the catalog, stand for two processes; their clocks stand still, so a copy never expires
// by itself unless a test moves the clock: what a process sees comes from the re-read on an unknown id or
// from the fleet's notices.

interface Options {
  categories: { id: number; name: string }[];
  companies: { id: string; name: string }[];
  priorities: { id: number; name: string }[];
}

/** Counts the catalog reads of a database (one read asks for the companies once). */
function countingCatalogReads(db: Db): { db: Db; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'selectFrom') {
        return (table: string) => {
          if (table === 'hd_companies') reads += 1;
          return target.selectFrom(table as never);
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: counted, reads: () => reads };
}

/** Two processes of a fleet over one database; `notices` decides how they hear of each other's changes. */
/**
 * Waits until every notice `from` published so far has reached `to`: a last one (the seeding changes only
 * the catalog, so a maintenance notice is the last) comes after them, as Redis delivers a connection's
 * messages in order. Otherwise a notice of the seeding delivered late, on a loaded machine, would drop
 * the copy the second process reads next, and a test that counts on that copy would read a newer one.
 */
async function noticesDelivered(from: FleetNotices, to: FleetNotices): Promise<void> {
  const last = new Promise<void>((resolve) => {
    to.subscribe((notice) => {
      if (notice === 'helpdesk.maintenance') resolve();
    });
  });
  await from.publish('helpdesk.maintenance');
  await last;
}

function useTwoProcesses(
  dialect: (typeof dialects)[number],
  notices: () => Promise<[FleetNotices?, FleetNotices?]>,
) {
  const fleet = {} as { first: TestApp; second: TestApp; keys: Keys; secondReads: () => number };
  let drop: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const opened = await dialect.open();
    drop = () => opened.drop();
    const [firstNotices, secondNotices] = await notices();
    const counting = countingCatalogReads(opened.db);
    fleet.first = testApp({
      db: opened.db,
      clock: new ManualClock(),
      rateLimits: await dialect.openStore(),
      ...(firstNotices === undefined ? {} : { notices: firstNotices }),
    });
    fleet.second = testApp({
      db: counting.db,
      clock: new ManualClock(),
      rateLimits: await dialect.openStore(),
      ...(secondNotices === undefined ? {} : { notices: secondNotices }),
    });
    fleet.secondReads = counting.reads;
    fleet.keys = await seedHelpdesk(fleet.first);
    if (firstNotices !== undefined && secondNotices !== undefined)
      await noticesDelivered(firstNotices, secondNotices);
    // The second process has its copy of the catalog, read before the changes below.
    expect(
      (await postTicket(fleet.second, fleet.keys.alpha, ticket({ external_id: 'warm' }))).statusCode,
    ).toBe(201);
  });
  afterEach(async () => {
    await fleet.first.app.close();
    await fleet.second.app.close();
    await drop?.();
  });
  return fleet;
}

const put = (t: TestApp, path: string, body: unknown) => t.admin('PUT', `/admin/v1/helpdesk/${path}`, body);

describeEachDialect('a fleet: an id created through one process is known at once by another', (dialect) => {
  // No notices between them (each its own, as without Redis): the re-read on an unknown id alone.
  const fleet = useTwoProcesses(dialect, () => Promise.resolve([undefined, undefined]));

  it('a category created and released through one process is applied by the other, not the fallback', async () => {
    const { first, second, keys } = fleet;
    await put(first, 'categories/50', { name: 'Nova categoria', type_id: 1, default_priority_id: 1 });
    await putSystem(first, 'alpha', HD_SCOPES, { released_category_ids: [...CATALOG.released, 50] });

    const created = await postTicket(
      second,
      keys.alpha,
      ticket({ external_id: 'new-category', category: 50 }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created)).toMatchObject({ warnings: [], applied: { category_id: 50, priority_id: 1 } });
    const options = json(await getOptions(second, keys.alpha)) as unknown as Options;
    expect(options.categories.map((c) => c.id)).toContain(50);
  });

  it('a company, nature, priority and support level created through one process are accepted by the other', async () => {
    const { first, second, keys } = fleet;
    await put(first, 'companies/nova', { name: 'Nova Ltda' });
    await put(first, 'natures/reclamacao', { name: 'Reclamação' });
    await put(first, 'priorities/9', { name: 'Urgentíssima', level: 5, response_time_hours: 1 });
    await put(first, 'support-levels/7', { name: 'N7' });

    const created = await postTicket(
      second,
      keys.alpha,
      ticket({
        external_id: 'new-ids',
        company: 'nova',
        nature: 'reclamacao',
        priority: 9,
        support_level: 7,
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created)).toMatchObject({
      warnings: [],
      applied: { company: 'nova', nature: 'reclamacao', priority_id: 9, support_level: 7 },
    });
  });

  it("a system's new default category, created a moment ago elsewhere, opens tickets (no misconfigured_system)", async () => {
    const { first, second, keys } = fleet;
    await put(first, 'categories/60', { name: 'Padrão novo', type_id: 3, default_priority_id: 2 });
    await putSystem(first, 'alpha', HD_SCOPES, { default_category_id: 60 });

    const created = await postTicket(second, keys.alpha, ticket({ external_id: 'new-default' }));
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created)).toMatchObject({ warnings: [], applied: { category_id: 60, priority_id: 2 } });
  });

  it('ids that exist nowhere still get their fallback, and do not turn every call into a catalog read', async () => {
    const { second, keys } = fleet;
    const before = fleet.secondReads();
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postTicket(second, keys.alpha, ticket({ external_id: `junk-${i}`, category: 999, priority: 999 })),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(201);
      expect((json(answer) as { warnings: { code: string }[] }).warnings.map((w) => w.code)).toEqual([
        'category_fallback',
        'priority_fallback',
      ]);
    }
    // Forty calls at once share the re-reads: at most one per CATALOG_RECHECK_MS while they last.
    const paced = Math.ceil((performance.now() - started) / CATALOG_RECHECK_MS) + 1;
    expect(fleet.secondReads() - before).toBeLessThanOrEqual(Math.min(paced, 10));
    // A category that exists but is not released to the system is no unknown id: no re-read at all.
    const reads = fleet.secondReads();
    const unreleased = await postTicket(
      second,
      keys.alpha,
      ticket({ external_id: 'unreleased', category: 20 }),
    );
    expect((json(unreleased) as { warnings: { code: string }[] }).warnings[0]?.code).toBe(
      'category_fallback',
    );
    expect(fleet.secondReads()).toBe(reads);
  });
});

describeEachDialect(
  'a fleet: a change through one process is seen by the others at once through their notices',
  (dialect) => {
    // With TEST_REDIS_URL, Redis pub/sub under a prefix of the test's own; else one in-process channel
    // shared by both apps, standing for it.
    const fleet = useTwoProcesses(dialect, async () => {
      if (redisUrl === undefined) {
        const shared = createMemoryFleetNotices();
        return [shared, shared];
      }
      const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
      const connect = () =>
        connectRedisFleetNotices({ url: redisUrl ?? '', keyPrefix, commandTimeoutMs: 2000 });
      return [await connect(), await connect()];
    });
    /** Delivery through Redis takes a round trip; far below the copy's one-second life. */
    const atOnce = (probe: () => Promise<boolean>) => timeUntil(probe, 250);

    it('a renamed category and priority are shown renamed by the other process', async () => {
      const { first, second, keys } = fleet;
      await put(first, 'categories/10', { name: 'Terminal mudo', type_id: 1, default_priority_id: 2 });
      await put(first, 'priorities/2', { name: 'Muito alta', level: 2, response_time_hours: 2 });
      await atOnce(async () => {
        const options = json(await getOptions(second, keys.alpha)) as unknown as Options;
        return (
          options.categories.find((c) => c.id === 10)?.name === 'Terminal mudo' &&
          options.priorities.find((p) => p.id === 2)?.name === 'Muito alta'
        );
      });
    });

    it("a company switched off through one process is refused by the other; a category's new default priority applies", async () => {
      const { first, second, keys } = fleet;
      await put(first, 'companies/acme', { name: 'Acme Comércio', active: false });
      await put(first, 'categories/10', {
        name: 'Terminal sem comunicação',
        type_id: 1,
        default_priority_id: 1,
      });
      let n = 0;
      await atOnce(async () => {
        const refused = await postTicket(second, keys.alpha, ticket({ external_id: `off-${(n += 1)}` }));
        return refused.statusCode === 422 && (json(refused) as { code: string }).code === 'invalid_company';
      });
      const created = await postTicket(
        second,
        keys.alpha,
        ticket({ external_id: 'brisa', company: 'Brisa', category: 10 }),
      );
      expect(json(created)).toMatchObject({ applied: { category_id: 10, priority_id: 1 } });
    });

    it('a deleted category is gone from the other process; the maintenance switch flips there too', async () => {
      const { first, second, keys } = fleet;
      await first.admin('DELETE', '/admin/v1/helpdesk/categories/11');
      await atOnce(async () => {
        const options = json(await getOptions(second, keys.alpha)) as unknown as Options;
        return !options.categories.some((c) => c.id === 11);
      });
      await first.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 120 });
      await atOnce(async () => (await getOptions(second, keys.alpha)).statusCode === 503);
      await first.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: false });
      await atOnce(async () => (await getOptions(second, keys.alpha)).statusCode === 200);
    });
  },
);

describe.skipIf(redisUrl === undefined)(
  `a fleet with Redis down: changes still reach every process within a second [sqlite + redis through a proxy${
    redisUrl === undefined ? ': skipped, TEST_REDIS_URL is not set' : ''
  }]`,
  () => {
    let proxy: TcpProxy;
    beforeEach(async () => {
      const target = new URL(redisUrl ?? '');
      proxy = await startTcpProxy({ targetHost: target.hostname, targetPort: Number(target.port || 6379) });
    });
    afterEach(() => proxy.close());

    const fleet = useTwoProcesses(dialects[0]!, async () => {
      const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
      const connect = () =>
        connectRedisFleetNotices({ url: proxy.url(redisUrl ?? ''), keyPrefix, commandTimeoutMs: 200 });
      return [await connect(), await connect()];
    });

    it('a change is answered at once through its own process, and seen by the other within a second', async () => {
      const { first, second, keys } = fleet;
      await proxy.refuse();
      const started = Date.now();
      await put(first, 'companies/acme', { name: 'Acme Comércio', active: false });
      expect(Date.now() - started).toBeLessThan(1000);
      const through = (t: TestApp, id: string) => postTicket(t, keys.alpha, ticket({ external_id: id }));
      expect((await through(first, 'first')).statusCode).toBe(422);
      // The notice is lost: the other process keeps its copy for the rest of its second, not longer.
      second.clock.advance(999);
      expect((await through(second, 'second-early')).statusCode).toBe(201);
      second.clock.advance(1);
      expect((await through(second, 'second-late')).statusCode).toBe(422);
      // An id created meanwhile is still found at once by the re-read.
      await put(first, 'categories/50', { name: 'Nova categoria', type_id: 1, default_priority_id: 1 });
      await putSystem(first, 'alpha', HD_SCOPES, { released_category_ids: [...CATALOG.released, 50] });
      const created = await postTicket(
        second,
        keys.alpha,
        ticket({ external_id: 'new', company: 'Brisa', category: 50 }),
      );
      expect(json(created)).toMatchObject({ warnings: [], applied: { category_id: 50 } });
    });
  },
);
