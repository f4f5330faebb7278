import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  createProcessDatabase,
  describeEachProcessDatabase,
  type ProcessDatabase,
} from '../support/process-database.js';
import { http, startServer, type ServerProcess } from '../support/server-process.js';
import { FLEET_SYSTEM, fleetEnv, postTicket, setUpTicketSystem } from './fleet-fixtures.js';

// A process killed with SIGKILL under ticket load: every ticket that got a 201 or 200 is in the
// database afterwards (docs/ticket-api.md, POST help-desk-ticket: 201 created, 200 the existing
// ticket). Requests in flight at the kill fail with socket errors: not acknowledged, stored or not.

const CLIENTS = 16;
/**
 * The kill comes after this many acknowledged requests, or after LOAD_MS once at least
 * ACKNOWLEDGED_AT_LEAST were, or after MAX_LOAD_MS on a machine too busy for that.
 */
const ACKNOWLEDGED_BEFORE_KILL = 600;
const ACKNOWLEDGED_AT_LEAST = 150;
const LOAD_MS = 1500;
const MAX_LOAD_MS = 6000;

interface TicketBody {
  id: string;
  duplicate: boolean;
}

/** What the load saw: the acknowledged external_ids with their ticket ids, and what went wrong. */
interface Load {
  /** external_id → ticket id, for every 201 and 200. */
  acknowledged: Map<string, string>;
  created: number;
  duplicates: number;
  /** Requests that failed after the kill (socket errors): not acknowledged. */
  lostInFlight: number;
  /** Requests in flight when SIGKILL was sent. */
  inFlightAtKill: number;
  /** Milliseconds of load before the kill. */
  msBeforeKill: number;
  /** Anything other than 201/200 before the kill, or an answer that contradicts an earlier one. */
  problems: string[];
}

/** Runs CLIENTS concurrent clients against the process and sends SIGKILL in the middle of the load. */
async function loadAndKill(server: ServerProcess, key: string): Promise<Load> {
  const load: Load = {
    acknowledged: new Map(),
    created: 0,
    duplicates: 0,
    lostInFlight: 0,
    inFlightAtKill: 0,
    msBeforeKill: 0,
    problems: [],
  };
  let killed = false;
  // Read through a function: the loop's condition would otherwise narrow `killed` to false for good.
  const killedYet = () => killed;
  let inFlight = 0;
  let sent = 0;

  const client = async (c: number) => {
    const mine: string[] = [];
    for (let i = 0; !killedYet(); i++) {
      // Mostly new ids; every 4th a resend of one of ours (200); every 6th an id shared by whichever
      // clients get there in the same moment (one 201, the others 200 through the unique constraint).
      const externalId =
        i % 4 === 3 && mine.length > 0
          ? mine[(i * 7) % mine.length]!
          : i % 6 === 0
            ? `race-${Math.floor(sent / 24)}`
            : `c${c}-${i}`;
      inFlight++;
      sent++;
      try {
        const response = await postTicket(server.port, key, externalId);
        if (response.status !== 201 && response.status !== 200) {
          load.problems.push(`${externalId}: ${response.status} ${response.text}`);
          continue;
        }
        const body = response.json as TicketBody;
        if (body.duplicate !== (response.status === 200)) {
          load.problems.push(`${externalId}: ${response.status} with duplicate ${body.duplicate}`);
        }
        const earlier = load.acknowledged.get(externalId);
        if (earlier !== undefined && earlier !== body.id) {
          load.problems.push(`${externalId}: acknowledged as ${earlier} and as ${body.id}`);
        }
        load.acknowledged.set(externalId, body.id);
        if (response.status === 201) {
          load.created++;
          mine.push(externalId);
        } else {
          load.duplicates++;
        }
      } catch (error) {
        if (killedYet()) load.lostInFlight++;
        else load.problems.push(`${externalId}: ${(error as Error).message} before the kill`);
      } finally {
        inFlight--;
      }
    }
  };

  const started = Date.now();
  const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
  const killNow = () => {
    const acknowledged = load.created + load.duplicates;
    const ms = Date.now() - started;
    return (
      acknowledged >= ACKNOWLEDGED_BEFORE_KILL ||
      (ms >= LOAD_MS && acknowledged >= ACKNOWLEDGED_AT_LEAST) ||
      ms >= MAX_LOAD_MS
    );
  };
  while (!killNow()) await new Promise((resolve) => setTimeout(resolve, 5));
  load.inFlightAtKill = inFlight;
  load.msBeforeKill = Date.now() - started;
  killed = true;
  server.kill('SIGKILL');
  await server.exited;
  await Promise.all(clients);
  return load;
}

describeEachProcessDatabase('fleet: SIGKILL under ticket load', (kind) => {
  let database: ProcessDatabase | undefined;
  const servers: ServerProcess[] = [];
  const start = async () => {
    const server = await startServer(fleetEnv(database!.url));
    servers.push(server);
    await server.waitUntilListening();
    return server;
  };

  beforeAll(async () => {
    database = await createProcessDatabase(kind);
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('every ticket that got a 201 or 200 is stored exactly once, and a restart answers it as a duplicate', async ({
    annotate,
  }) => {
    const first = await start();
    // The highest limit the admin API takes, so that the limit never refuses a call of the load.
    const key = await setUpTicketSystem(first, { rateLimitPerMinute: 1_000_000 });

    const load = await loadAndKill(first, key);
    expect(first.child.signalCode).toBe('SIGKILL');
    // The killed process was the server itself: nothing listens on its port any more.
    await expect(http(first.port, 'GET', '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(load.problems).toEqual([]);
    expect(load.created).toBeGreaterThan(20);
    expect(load.duplicates).toBeGreaterThan(0);
    expect(load.inFlightAtKill).toBeGreaterThan(0);

    const db = database!.open();
    try {
      const rows = await db
        .selectFrom('hd_tickets')
        .select(['external_id', 'id'])
        .where('system_id', '=', FLEET_SYSTEM)
        .execute();
      const stored = new Map<string, string[]>();
      for (const row of rows) stored.set(row.external_id, [...(stored.get(row.external_id) ?? []), row.id]);
      const wrong = [...load.acknowledged]
        .filter(([externalId, id]) => stored.get(externalId)?.join() !== id)
        .map(
          ([externalId, id]) =>
            `${externalId}: acknowledged ${id}, stored [${stored.get(externalId)?.join() ?? ''}]`,
        );
      expect(wrong).toEqual([]);
      if (kind === 'sqlite') {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
        expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
      }
      await annotate(
        `${load.acknowledged.size} external_ids acknowledged (${load.created} created, ${load.duplicates} ` +
          `duplicates) in ${load.msBeforeKill} ms; ${load.inFlightAtKill} in flight at the kill, ` +
          `${load.lostInFlight} failed; ${rows.length - load.acknowledged.size} stored without an answer`,
      );
    } finally {
      await db.destroy();
    }

    // A new process on the same database starts, and knows an acknowledged ticket.
    const second = await start();
    const [externalId, id] = [...load.acknowledged][0]!;
    const again = await postTicket(second.port, key, externalId);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id, duplicate: true });
    expect((await postTicket(second.port, key, 'after-the-restart')).status).toBe(201);
    await second.stop();
    expect(await second.exited).toBe(0);
  }, 30_000);
});
