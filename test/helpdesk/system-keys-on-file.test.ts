import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteDataVersionOf, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createSystemService, type SystemService } from '../../src/helpdesk/system-service.js';
import { systemInput } from '../../src/helpdesk/system-input.js';
import { hashApiKey } from '../../src/lib/api-key.js';
import { createProcessDatabase, type ProcessDatabase } from '../support/process-database.js';

// The key validity table of docs/ticket-api.md (States and transitions) on a SQLite file, where a key's
// look-up answers the calls until the file's next commit (src/db/unchanged-reads.ts): every change of
// a key or a system is honoured on the next call, and the time rules are judged at each call's time,
// even when its look-up is the one an earlier call read.

const GRACE_SECONDS = 60;
const actor = { role: 'operator', channel: 'admin_api', ip: null } as const;

describe('partner-system keys on a SQLite file', () => {
  let database: ProcessDatabase;
  let db: Db;
  let now: number;
  let systems: SystemService;

  beforeEach(async () => {
    database = await createProcessDatabase('sqlite');
    db = database.open();
    await migrateToLatest(db);
    now = Date.UTC(2026, 10, 1);
    systems = createSystemService({
      db,
      clock: { now: () => now },
      catalog: { exists: () => Promise.resolve(true) },
    });
    const input = { name: 'Acme', default_category_id: null, key_grace_seconds: GRACE_SECONDS };
    await systems.put('acme', systemInput.parse(input), actor);
  });
  afterEach(async () => {
    await db.destroy();
    await database.drop();
  });

  /** Issues a key, or rotates: the new key text. */
  async function rotate(): Promise<string> {
    const rotated = await systems.rotateKey('acme', actor);
    if (!rotated.ok) throw new Error('rotation refused');
    return rotated.key;
  }

  it('key rotation: the new key is current on the next call, the one before it previous', async () => {
    const first = await rotate();
    expect(await systems.verifyKey(first, now)).toMatchObject({ ok: true, credential: 'current' });
    const second = await rotate();
    expect(await systems.verifyKey(second, now)).toMatchObject({ ok: true, credential: 'current' });
    expect(await systems.verifyKey(first, now)).toMatchObject({ ok: true, credential: 'previous' });
  });

  it('previous key past its grace period: a 401 that does not count, judged at the call, not at the look-up', async () => {
    const first = await rotate();
    await rotate();
    const version = sqliteDataVersionOf(db);
    if (version === undefined) throw new Error('a SQLite file has a data version');
    const before = version();
    now += (GRACE_SECONDS - 1) * 1000;
    expect(await systems.verifyKey(first, now)).toMatchObject({ ok: true, credential: 'previous' });
    now += 1000;
    expect(await systems.verifyKey(first, now)).toMatchObject({ ok: false, reason: 'grace_ended' });
    // Nothing was committed between the two calls: the second was answered from the same look-up.
    expect(version()).toBe(before);
  });

  it('support stops the previous key at once: the next call with it is refused', async () => {
    const first = await rotate();
    await rotate();
    expect(await systems.verifyKey(first, now)).toMatchObject({ ok: true, credential: 'previous' });
    const stopped = await systems.stopPreviousKey('acme', actor);
    expect(stopped).toMatchObject({ ok: true, stopped: true });
    expect(await systems.verifyKey(first, now)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('a system switched off is inactive on the next call (403 system_inactive comes from it)', async () => {
    const key = await rotate();
    expect(await systems.verifyKey(key, now)).toMatchObject({ ok: true, system: { active: true } });
    const input = { name: 'Acme', active: false, default_category_id: null };
    await systems.put('acme', systemInput.parse(input), actor);
    expect(await systems.verifyKey(key, now)).toMatchObject({ ok: true, system: { active: false } });
  });

  it('a key replaced by another process is unknown on the next call (401)', async () => {
    const key = await rotate();
    expect(await systems.verifyKey(key, now)).toMatchObject({ ok: true, credential: 'current' });
    expect(await systems.verifyKey(key, now)).toMatchObject({ ok: true, credential: 'current' });
    // Another process: here a connection of its own to the same file.
    const other = new SQLite(database.url.slice('file:'.length));
    try {
      other
        .prepare("update hd_systems set current_key_hash = ? where identifier = 'acme'")
        .run(hashApiKey(`gtes_${'x'.repeat(43)}`));
    } finally {
      other.close();
    }
    expect(await systems.verifyKey(key, now)).toEqual({ ok: false, reason: 'unknown_key' });
  });
});
