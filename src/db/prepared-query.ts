import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

// Hot queries compiled once. Kysely builds and compiles a query on every call (a profile of the ticket
// POST spent about a tenth of its time there); a prepared query is built once per database with a
// placeholder for each value it takes, compiled, and then run with the values of each call put in the
// placeholders' places. Kysely stays the query language: the SQL text is Kysely's, only built once.
//
// On PostgreSQL the statement is also a named prepared statement: each pooled connection parses and
// plans its text once and then only binds values (`pg`'s query config `name`, see `nameStatements`).
//
//   const byExternalId = prepareQuery('hd_ticket_by_external_id', (db: Db, p: Args) =>
//     db.selectFrom('hd_tickets').selectAll().where('system_id', '=', p.systemId) …);
//   const rows = await byExternalId.rows(db, { systemId, externalId });

/** Stands in for one value of a prepared query while it is built. */
class Placeholder {
  constructor(readonly key: string) {}
}

interface Compiled {
  query: CompiledQuery;
  /** For each parameter of the SQL text: the name of the value it takes, or the constant it is. */
  slots: readonly ({ key: string } | { constant: unknown })[];
}

/** The SQL texts of named prepared statements (PostgreSQL), and their names. */
const statementNames = new Map<string, string>();
/** The names already given, to refuse a name given to two texts. */
const namesGiven = new Map<string, string>();

/** A query built once per database with Kysely and run with new values. */
export interface PreparedQuery<D, V extends object, R> {
  /** The rows the query returns with these values (on `db` or a transaction of it). */
  rows(db: Kysely<D>, values: V): Promise<R[]>;
  /** The compiled query with these values, to run elsewhere (a writer thread's batch). */
  bind(db: Kysely<D>, values: V): CompiledQuery<R>;
}

/**
 * Prepares a query: `build` is called once per database (and dialect) with placeholders in place of the
 * values, its result compiled; every run puts the values of the call in their places. `build` must use
 * each value only as a value (in `where`, `values`, `set`…), never to choose the query's shape. `name`
 * names the PostgreSQL prepared statement: unique, lowercase, at most 63 characters.
 */
export function prepareQuery<D, V extends object, R>(
  name: string,
  build: (db: Kysely<D>, values: V) => Compilable<R>,
): PreparedQuery<D, V, R> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a statement name: ${name}`);
  const compiled = new WeakMap<object, Compiled>();

  function compile(db: Kysely<D>): Compiled {
    const placeholders = new Proxy({} as V, {
      get: (_target, key) => new Placeholder(String(key)),
    });
    const query = build(db, placeholders).compile();
    const slots = query.parameters.map((parameter) =>
      parameter instanceof Placeholder ? { key: parameter.key } : { constant: parameter },
    );
    if (isPostgres(db)) nameStatement(name, query.sql);
    return { query, slots };
  }

  function bind(db: Kysely<D>, values: V): CompiledQuery<R> {
    // A transaction shares its database's executor, hence its adapter: the key is the executor's.
    const key = db.getExecutor().adapter;
    let entry = compiled.get(key);
    if (entry === undefined) {
      entry = compile(db);
      compiled.set(key, entry);
    }
    const parameters = entry.slots.map((slot) =>
      'key' in slot ? (values as Record<string, unknown>)[slot.key] : slot.constant,
    );
    return { ...(entry.query as CompiledQuery<R>), parameters };
  }

  return {
    bind,
    async rows(db, values) {
      const result = await db.executeQuery(bind(db, values));
      return result.rows;
    },
  };
}

/** At most this many texts of one family are named; the texts past it run unnamed, as before. */
const TEXTS_PER_FAMILY = 500;
/** How many texts each family has named. */
const familyTexts = new Map<string, number>();

/**
 * Names `sql` as a prepared statement on PostgreSQL, for a query whose shape follows its values but
 * takes few shapes (the sales figures' union of the slot runs and edges of a period), which `prepareQuery`
 * cannot build once: each distinct text is named after `family` and a digest of the text, so that every
 * pooled connection parses and plans it once. Calling it again with a named text does nothing.
 */
export function nameStatementText(family: string, sql: string): void {
  if (statementNames.has(sql)) return;
  const named = familyTexts.get(family) ?? 0;
  if (named >= TEXTS_PER_FAMILY) return;
  familyTexts.set(family, named + 1);
  nameStatement(`${family}_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`, sql);
}

/** Records `sql` as the text of the named statement `name` (one text per name). */
function nameStatement(name: string, sql: string): void {
  const given = namesGiven.get(name);
  if (given !== undefined && given !== sql) throw new Error(`statement name given twice: ${name}`);
  namesGiven.set(name, sql);
  statementNames.set(sql, name);
}

/** What `pg`'s client takes for a query; only `(text, values)` calls are ever named. */
interface QueryingClient {
  query: (...args: never[]) => unknown;
}

/**
 * Makes a `pg` client run the texts of prepared queries as named prepared statements: called once per
 * new pooled connection. Any other call (other texts, cursors, query configs) goes through unchanged.
 */
export function nameStatements(client: QueryingClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const named = (...args: unknown[]) => {
    const [text, values] = args;
    const name = typeof text === 'string' && args.length === 2 ? statementNames.get(text) : undefined;
    if (name === undefined) return query(...args);
    return query({ name, text, values });
  };
  client.query = named;
}
