import { describe, expect, it } from 'vitest';
import { wireTime } from '../../src/lib/wire-time.js';
import { bodyOf } from '../expect-http.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { asOperator, HD, POS } from './fixtures.js';

// PUT creates or replaces the resource named in its path (docs/admin-rules.md, intro: "PUT creates or
// replaces … 200 with the stored resource (201 when created)"). Calls that race on one new id are still one
// creation and replacements: one atomic upsert each, never a 5xx. On PostgreSQL the harness's pool
// (5 connections) makes the calls really concurrent; SQLite serialises them on its one connection.

type Body = Record<string, unknown>;

/** Parallel PUTs per round, and rounds per kind. */
const PARALLEL = 20;
const ROUNDS = 3;

/** A kind of resource the operator writes with PUT. */
interface PutKind {
  name: string;
  /** The path of the new resource. */
  path: string;
  body: Body;
  /** What the stored resource shows: the body with its defaults. */
  shown: Body;
  /** The resources it refers to, written first. */
  prepare?: (t: TestApp) => Promise<void>;
  /** Reads the stored resource back. */
  read: (t: TestApp) => Promise<Body | undefined>;
  /** The instant a replacement must keep (`created_at`, or an event's `registered_at` when not sent). */
  kept?: 'created_at' | 'registered_at';
}

async function getBody(t: TestApp, path: string): Promise<Body> {
  return bodyOf(await t.admin('GET', path));
}

/** The entry with this key in a collection. */
async function inList(t: TestApp, path: string, key: string, id: unknown): Promise<Body | undefined> {
  const rows = JSON.parse((await t.admin('GET', path)).body) as Body[];
  return rows.find((row) => row[key] === id);
}

async function catalogBasics(t: TestApp): Promise<void> {
  await t.admin('PUT', `${HD}/category-types/1`, { name: 'Incidente' });
  await t.admin('PUT', `${HD}/priorities/1`, { name: 'Alta', level: 1, response_time_hours: 4 });
}

const ACCOUNT = `${POS}/accounts/acme`;

const kinds: PutKind[] = [
  {
    name: 'company',
    path: `${HD}/companies/acme`,
    body: { name: 'Acme' },
    shown: { id: 'acme', name: 'Acme', active: true },
    read: (t) => inList(t, `${HD}/companies`, 'id', 'acme'),
  },
  {
    name: 'category type',
    path: `${HD}/category-types/7`,
    body: { name: 'Problema' },
    shown: { id: 7, name: 'Problema', description: null },
    read: (t) => inList(t, `${HD}/category-types`, 'id', 7),
  },
  {
    name: 'priority',
    path: `${HD}/priorities/7`,
    body: { name: 'Média', level: 2, response_time_hours: 24 },
    shown: { id: 7, name: 'Média', description: null, level: 2, response_time_hours: 24 },
    read: (t) => inList(t, `${HD}/priorities`, 'id', 7),
  },
  {
    name: 'category',
    path: `${HD}/categories/7`,
    body: { name: 'Terminal', type_id: 1, default_priority_id: 1 },
    shown: { id: 7, name: 'Terminal', description: null, type_id: 1, default_priority_id: 1 },
    prepare: catalogBasics,
    read: (t) => inList(t, `${HD}/categories`, 'id', 7),
  },
  {
    name: 'support level',
    path: `${HD}/support-levels/7`,
    body: { name: 'N2', description: 'Segundo nível' },
    shown: { id: 7, name: 'N2', description: 'Segundo nível' },
    read: (t) => inList(t, `${HD}/support-levels`, 'id', 7),
  },
  {
    name: 'nature',
    path: `${HD}/natures/duvida`,
    body: { name: 'Dúvida', active: false },
    shown: { identifier: 'duvida', name: 'Dúvida', active: false },
    read: (t) => inList(t, `${HD}/natures`, 'identifier', 'duvida'),
  },
  {
    name: 'system',
    path: `${HD}/systems/alpha`,
    body: { name: 'Alpha', default_category_id: 10, rate_limit_per_minute: 60 },
    shown: {
      identifier: 'alpha',
      name: 'Alpha',
      active: true,
      scopes: ['help-desk-ticket.create'],
      rate_limit_per_minute: 60,
      key_grace_seconds: 86400,
      default_category_id: 10,
      released_category_ids: [],
      has_key: false,
      previous_key_valid_until: null,
      key_last_used_at: null,
      previous_key_last_used_at: null,
    },
    prepare: async (t) => {
      await catalogBasics(t);
      await t.admin('PUT', `${HD}/categories/10`, { name: 'Terminal', type_id: 1 });
    },
    read: (t) => getBody(t, `${HD}/systems/alpha`),
    kept: 'created_at',
  },
  {
    name: 'account',
    path: ACCOUNT,
    body: { name: 'Acme Bares', currency: 'USD' },
    shown: { id: 'acme', name: 'Acme Bares', currency: 'USD', active: true },
    read: (t) => getBody(t, ACCOUNT),
    kept: 'created_at',
  },
  {
    name: 'place',
    path: `${ACCOUNT}/places/p1`,
    body: { name: 'Centro', timezone: 'America/Sao_Paulo' },
    shown: { account: 'acme', id: 'p1', name: 'Centro', timezone: 'America/Sao_Paulo', active: null },
    prepare: async (t) => {
      await t.admin('PUT', ACCOUNT, { name: 'Acme' });
    },
    read: (t) => inList(t, `${ACCOUNT}/places`, 'id', 'p1'),
    kept: 'created_at',
  },
  {
    name: 'event',
    path: `${ACCOUNT}/places/p1/events/e1`,
    body: { name: 'Festa Junina', starts_at: '2026-06-24T18:00:00-03:00' },
    shown: {
      account: 'acme',
      place: 'p1',
      id: 'e1',
      name: 'Festa Junina',
      starts_at: '2026-06-24T21:00:00Z',
      ends_at: null,
      active: true,
    },
    prepare: async (t) => {
      await t.admin('PUT', ACCOUNT, { name: 'Acme' });
      await t.admin('PUT', `${ACCOUNT}/places/p1`, { timezone: 'America/Sao_Paulo' });
    },
    read: (t) => inList(t, `${ACCOUNT}/places/p1/events`, 'id', 'e1'),
    kept: 'registered_at',
  },
];

describeEachDialect('admin API, concurrent PUTs of one id', (dialect) => {
  const t = useTestApp(dialect);

  describe('PUT is one atomic upsert (docs/admin-rules.md, intro: "PUT creates or replaces", 201 when created)', () => {
    for (const kind of kinds) {
      it(`${kind.name}: ${PARALLEL} parallel PUTs of a new id, ${ROUNDS} rounds: one 201 in round 1, the rest 200, never a 5xx`, async () => {
        await kind.prepare?.(t);
        const createdAt = wireTime(t.clock.now());
        for (let round = 1; round <= ROUNDS; round += 1) {
          const answers = await Promise.all(
            Array.from({ length: PARALLEL }, () => asOperator(t, 'PUT', kind.path, kind.body)),
          );
          const statuses = answers.map((answer) => answer.statusCode);
          const failed = answers.filter((answer) => answer.statusCode >= 500).map((answer) => answer.body);
          expect(failed, `round ${round}: 5xx answers`).toEqual([]);
          // Round 1: the one call that created the resource answers 201, every other one replaced it.
          const creations = round === 1 ? 1 : 0;
          expect(
            statuses.filter((status) => status === 201).length,
            `round ${round}: ${statuses.join(' ')}`,
          ).toBe(creations);
          expect(
            statuses.filter((status) => status === 200).length,
            `round ${round}: ${statuses.join(' ')}`,
          ).toBe(PARALLEL - creations);
          for (const answer of answers) expect(bodyOf(answer)).toMatchObject(kind.shown);
          const stored = await kind.read(t);
          expect(stored).toMatchObject(kind.shown);
          // A replacement keeps the creation instant (or the registration instant it was not sent).
          if (kind.kept !== undefined) {
            for (const answer of answers) expect(bodyOf(answer)[kind.kept]).toBe(createdAt);
            expect(stored?.[kind.kept]).toBe(createdAt);
          }
          // … and a replacement did write: the resource says when (accounts, places, systems).
          if (kind.kept === 'created_at') expect(stored?.updated_at).toBe(wireTime(t.clock.now()));
          t.clock.advance(60_000);
        }
      });
    }
  });
});
