import { sql } from 'kysely';
import { buildApp, type App } from '../src/app.js';
import type { Clock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { type Db } from '../src/db/database.js';
import { isPostgres } from '../src/db/dialect.js';
import { SERVICE_ACTOR } from '../src/audit/actor.js';
import { foldName } from '../src/pos/places/event-repository.js';
import { openFreshDatabase } from './fresh-database.js';
import { createServices } from '../src/services.js';
import { posDataOutcomeValue } from '../src/pos/places/pos-data-refusal.js';
import { keyOutcomeValue } from '../src/pos/keys/merchant-key-problem.js';

// `npm run bench:events` (and part of `npm run bench`): the events of one place at depth.
// - Reading: GET /v1/api-public/events, page 1,000 (limit 100, reached by following the API's own
//   next_cursor from page 1) against page 1, and a search for a rare word against page 1, all in the
//   same turns; page 1 is the baseline.
// - Writing: the rate of event creation through the admin API (PUT, 16 in flight) for the place's first
//   10,000 events against the rate once it has 60,000 and more; the first rate is the baseline.
// Between the two timed creation phases the place grows by multi-row inserts (not timed), and after the
// last one to its full size. SQLite (a file in a temporary directory) always; PostgreSQL when
// BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a database of its own, dropped at the end).
//
//   --quick   20,000 events, page 200 against page 1, creation of the first 1,000 against 12,000 and more
//
// Each read is timed in turns with the others; the p50 and the fastest tenth (p10) are printed. On a
// machine shared with other work a request of a millisecond is often preempted for several, which moves
// a p50 between its two modes; the p10 shows what the request itself costs. Deterministic: the same
// events every run. Not part of the tests' pass/fail.

const quick = process.argv.includes('--quick');
const SIZE = quick ? 20_000 : 100_000;
const LIMIT = 100;
/** The deep page: the last one. */
const DEEP_PAGE = SIZE / LIMIT;
/** Created through the admin API first (the baseline rate), then how many are in the place when the
 * second timed creation starts, and how many that one creates. */
const FIRST = quick ? 1_000 : 10_000;
const LATER_FROM = quick ? 12_000 : 60_000;
const LATER = quick ? 1_000 : 5_000;
const IN_FLIGHT = 16;
const ROUNDS = quick ? 60 : 200;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const ACCOUNT = 'bench';
const PLACE = 'P1';
const ADMIN_TOKEN = 'bench-admin-token-0123';
/** Events are registered a minute apart, ending here. */
const START = Date.UTC(2020, 0, 1);
/** Every this many events one has the rare word in its name (so 10 in 100,000, most of them deep). */
const RARE_EVERY = SIZE / 10;
const RARE_WORD = 'Maracatu';

const WORDS = ['Noite', 'Festa', 'São João', 'Forró', 'Samba', 'Show', 'Baile', 'Pagode', 'Ação', 'Carnaval'];

/** The i-th event (0 = registered first): deterministic id, name and instants. */
function benchEvent(i: number) {
  // Ids are not in registration order (a mix, as ids picked by people are), and names carry accents.
  const id = `E${((i * 7919) % 1_000_003).toString(36).toUpperCase()}x${i}`;
  const word = WORDS[i % WORDS.length]!;
  const name = i % RARE_EVERY === 7 ? `${word} do ${RARE_WORD} ${i}` : `${word} ${i}`;
  const registeredAt = START + i * 60_000;
  const startsAt = registeredAt + 86_400_000;
  return { id, name, startsAt, endsAt: startsAt + 8 * 3_600_000, registeredAt };
}

/** A clock moved a rate window (61 s) before every call, so that no call meets the key's quota. */
class SteppingClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  step(): void {
    this.ms += 61_000;
  }
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
const times = (value: number) => `${value.toFixed(2)}x`;
const count = (n: number) => n.toLocaleString('en');

/** Events `from` to `to` (exclusive) inserted straight into the table, 500 a statement. */
async function bulkLoad(db: Db, from: number, to: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let start = from; start < to; start += 500) {
      const rows = [];
      for (let i = start; i < Math.min(to, start + 500); i += 1) {
        const event = benchEvent(i);
        rows.push({
          account_id: ACCOUNT,
          place_id: PLACE,
          id: event.id,
          name: event.name,
          name_folded: foldName(event.name),
          starts_at: event.startsAt,
          ends_at: event.endsAt,
          active: 1,
          registered_at: event.registeredAt,
        });
      }
      await trx.insertInto('pos_events').values(rows).execute();
    }
  });
}

/** Creates events `from` to `to` through the admin API, `IN_FLIGHT` at a time; returns events/s. */
async function createThroughApi(app: App, from: number, to: number): Promise<number> {
  let next = from;
  const started = performance.now();
  const worker = async () => {
    while (next < to) {
      const event = benchEvent(next);
      next += 1;
      const response = await app.admin.inject({
        method: 'PUT',
        url: `/admin/v1/pos/accounts/${ACCOUNT}/places/${PLACE}/events/${event.id}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({
          name: event.name,
          starts_at: new Date(event.startsAt).toISOString(),
          ends_at: new Date(event.endsAt).toISOString(),
          registered_at: new Date(event.registeredAt).toISOString(),
        }),
      });
      if (response.statusCode !== 201) throw new Error(`PUT event: ${response.statusCode} ${response.body}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return (to - from) / ((performance.now() - started) / 1000);
}

/** Something timed: `rounds` times, after three warm-up runs. */
interface Timed {
  name: string;
  rounds: number;
  run: () => Promise<unknown>;
}

/** The p50 and p10 times (ms) of each, the rounds taken in turns so that a busy machine slows them alike. */
async function percentiles(tasks: readonly Timed[]): Promise<Map<string, { p50: number; p10: number }>> {
  for (const task of tasks) for (let i = 0; i < 3; i += 1) await task.run();
  const times = tasks.map((): number[] => []);
  const rounds = Math.max(...tasks.map((task) => task.rounds));
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, task] of tasks.entries()) {
      if (round >= task.rounds) continue;
      const start = process.hrtime.bigint();
      await task.run();
      times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return new Map(
    tasks.map((task, index) => {
      const sorted = times[index]!.sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.floor(sorted.length * q)]!;
      return [task.name, { p50: at(0.5), p10: at(0.1) }];
    }),
  );
}

async function measure(dialect: 'sqlite' | 'postgres'): Promise<void> {
  console.log(`\n${dialect === 'sqlite' ? 'SQLite (a file, WAL)' : 'PostgreSQL'}`);
  const fresh = await openFreshDatabase(dialect, 'bench-events', postgresUrl);
  const { db } = fresh;
  const config = loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN, LOG_LEVEL: 'silent' });
  const clock = new SteppingClock(Date.UTC(2026, 10, 20, 12));
  const services = createServices({ db, clock, config });
  const app = buildApp(config, { services, logger: false });
  try {
    await services.posData.putAccount(ACCOUNT, { name: 'Bench', currency: 'BRL', active: true, email: null });
    posDataOutcomeValue(
      await services.posData.putPlace(ACCOUNT, PLACE, {
        name: 'Bar',
        timezone: 'America/Sao_Paulo',
        active: true,
      }),
    );
    const { key } = keyOutcomeValue(
      await services.merchantKeys.create(
        ACCOUNT,
        { name: 'Bench', permissions: ['event.view'], places: 'all' },
        SERVICE_ACTOR,
      ),
    );

    // Writing: the first events through the API, the place grown, then more through the API.
    const firstRate = await createThroughApi(app, 0, FIRST);
    await bulkLoad(db, FIRST, LATER_FROM);
    const laterRate = await createThroughApi(app, LATER_FROM, LATER_FROM + LATER);
    await bulkLoad(db, LATER_FROM + LATER, SIZE);
    // As after a while of autovacuum (PostgreSQL's statistics and visibility map); SQLite as it runs.
    if (isPostgres(db)) await sql`vacuum analyze pos_events`.execute(db);

    const get = async (query: string): Promise<{ next_cursor: string | null; data: unknown[] }> => {
      clock.step();
      const response = await app.public.inject({
        url: `/v1/api-public/events?place=${PLACE}&limit=${LIMIT}${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
      if (response.statusCode !== 200) throw new Error(`events: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    // The cursor of the deep page, from the API's own next_cursor, page after page.
    let cursor: string | null = null;
    let middleCursor = '';
    let seen = 0;
    for (let page = 1; page < DEEP_PAGE; page += 1) {
      const body = await get(cursor === null ? '' : `&cursor=${cursor}`);
      seen += body.data.length;
      cursor = body.next_cursor;
      if (cursor === null) throw new Error(`no page ${page + 1}`);
      if (page + 1 === DEEP_PAGE / 2) middleCursor = cursor;
    }
    const deepCursor = cursor!;
    const deep = await get(`&cursor=${deepCursor}`);
    if (seen + deep.data.length !== SIZE || deep.next_cursor !== null)
      throw new Error(`paging read ${seen + deep.data.length} events, not ${SIZE}`);
    const rare = await get(`&search=${encodeURIComponent(RARE_WORD.toLowerCase())}`);
    if (rare.data.length !== 10) throw new Error(`the rare word was found ${rare.data.length} times, not 10`);

    const timed = await percentiles([
      { name: 'page 1', rounds: ROUNDS, run: () => get('') },
      { name: 'middle', rounds: ROUNDS, run: () => get(`&cursor=${middleCursor}`) },
      { name: 'deep', rounds: ROUNDS, run: () => get(`&cursor=${deepCursor}`) },
      { name: 'rare', rounds: ROUNDS, run: () => get(`&search=${encodeURIComponent('maracatú')}`) },
      { name: 'common', rounds: ROUNDS, run: () => get(`&search=${encodeURIComponent('SAO')}`) },
    ]);
    const line = (label: string, name: string, target = '') => {
      const { p50, p10 } = timed.get(name)!;
      const base = timed.get('page 1')!;
      const ratios = `${times(p50 / base.p50)} page 1 (p10: ${times(p10 / base.p10)})`;
      console.log(
        `    ${label}: ${ms(p50)} (p10 ${ms(p10)})${name === 'page 1' ? '' : `  => ${ratios}${target}`}`,
      );
    };
    console.log(`  ${count(SIZE)} events in one place, GET /v1/api-public/events, limit ${LIMIT}, p50:`);
    line('page 1 (baseline)', 'page 1');
    line(`page ${count(DEEP_PAGE / 2)} (by next_cursor)`, 'middle');
    line(`page ${count(DEEP_PAGE)} (by next_cursor)`, 'deep', ' (target: at most 1.5x)');
    line('search for a rare word (10 events)', 'rare');
    line('search for a common word (1 event in 10), page 1', 'common');
    console.log(`  event creation through the admin API (PUT, ${IN_FLIGHT} in flight):`);
    console.log(
      `    first ${count(FIRST)} events of the place (baseline): ${count(Math.round(firstRate))}/s`,
    );
    console.log(
      `    ${count(LATER)} more once the place has ${count(LATER_FROM)}: ${count(Math.round(laterRate))}/s  => ${times(laterRate / firstRate)} the first rate (target: no fall)`,
    );
  } finally {
    await app.close();
    await fresh.drop();
  }
}

console.log('events of one place at depth');
const dialects: ('sqlite' | 'postgres')[] = postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
if (postgresUrl === undefined)
  console.log('(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
for (const dialect of dialects) await measure(dialect);
