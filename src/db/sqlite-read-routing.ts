import {
  CompiledQuery,
  SelectQueryNode,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import type { SqliteWriterThread } from './sqlite-writer-thread.js';

// SQLite in WAL mode lets readers work beside the one writer, but Kysely's SQLite driver has one
// connection behind a lock: a read waits for every write and transaction before it, however long (a
// ping waited 14.7 s behind a receipts upload). This dialect gives the reads a connection of their own:
// a SELECT outside a transaction runs on the reader and never waits for the writer; everything else
// (every write, every transaction, reads inside a transaction, raw statements) keeps the one writer
// connection and its lock, in the order it was asked for. With one writer connection SQLite never
// answers SQLITE_BUSY here (better-sqlite3 would block the whole process for busy_timeout on it): a
// reader in WAL mode never waits for the writer, and the reader never writes (`query_only`).

/** Runs one query on a driver's connection, taking and giving back its lock. */
async function onConnection<T>(
  driver: Driver,
  run: (connection: DatabaseConnection) => Promise<T>,
): Promise<T> {
  const connection = await driver.acquireConnection();
  try {
    return await run(connection);
  } finally {
    await driver.releaseConnection(connection);
  }
}

/**
 * What Kysely holds as a connection: reads go to the reader until the first write or transaction, which
 * takes the writer (and its lock) for the rest of the connection's use, so a sequence of statements on
 * one connection still sees its own writes in order.
 */
class RoutedConnection implements DatabaseConnection {
  #writer: DatabaseConnection | undefined;

  constructor(
    private readonly writerDriver: Driver,
    private readonly readerDriver: Driver,
  ) {}

  /** The writer connection, its lock taken until `release`. */
  async writer(): Promise<DatabaseConnection> {
    this.#writer ??= await this.writerDriver.acquireConnection();
    return this.#writer;
  }

  pinnedWriter(): DatabaseConnection {
    if (this.#writer === undefined) throw new Error('no transaction on this connection');
    return this.#writer;
  }

  async release(): Promise<void> {
    if (this.#writer === undefined) return;
    const writer = this.#writer;
    this.#writer = undefined;
    await this.writerDriver.releaseConnection(writer);
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#writer === undefined && SelectQueryNode.is(compiledQuery.query)) {
      return onConnection(this.readerDriver, (reader) => reader.executeQuery<R>(compiledQuery));
    }
    return (await this.writer()).executeQuery<R>(compiledQuery);
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    if (this.#writer === undefined && SelectQueryNode.is(compiledQuery.query)) {
      const reader = await this.readerDriver.acquireConnection();
      try {
        yield* reader.streamQuery<R>(compiledQuery, chunkSize);
      } finally {
        await this.readerDriver.releaseConnection(reader);
      }
      return;
    }
    yield* (await this.writer()).streamQuery<R>(compiledQuery, chunkSize);
  }
}

/** The driver behind the dialect: one writer connection with its lock, one reader connection beside it. */
class ReadRoutingDriver implements Driver {
  constructor(
    private readonly writerDriver: SqliteDriver,
    private readonly readerDriver: SqliteDriver,
    private readonly writerThread: SqliteWriterThread,
    private readonly others: readonly SqliteDatabase[],
  ) {}

  async init(): Promise<void> {
    await this.writerDriver.init();
    await this.readerDriver.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new RoutedConnection(this.writerDriver, this.readerDriver));
  }

  // SQLite has no isolation levels or access modes to set: every transaction is serializable. It takes
  // the write lock at once (`begin immediate`, waiting for it with busy_timeout): the writer thread of
  // sqlite-writer-thread.ts is a second writer, and a transaction that read first and wrote after its
  // commit would be refused at once (SQLITE_BUSY_SNAPSHOT) instead of waiting.
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await (await routed(connection).writer()).executeQuery(CompiledQuery.raw('begin immediate'));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.writerDriver.commitTransaction(writerOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.writerDriver.rollbackTransaction(writerOf(connection));
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.writerDriver.savepoint(writerOf(connection), name, compileQuery);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.writerDriver.rollbackToSavepoint(writerOf(connection), name, compileQuery);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.writerDriver.releaseSavepoint(writerOf(connection), name, compileQuery);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return routed(connection).release();
  }

  async destroy(): Promise<void> {
    await this.writerThread.close();
    for (const other of this.others) other.close();
    await this.readerDriver.destroy();
    await this.writerDriver.destroy();
  }
}

/** The connection Kysely hands back: always one of this driver's. */
function routed(connection: DatabaseConnection): RoutedConnection {
  if (!(connection instanceof RoutedConnection)) throw new Error('not a connection of this driver');
  return connection;
}

/** The writer a transaction's connection holds (savepoints live inside a transaction). */
function writerOf(connection: DatabaseConnection): DatabaseConnection {
  return routed(connection).pinnedWriter();
}

/**
 * The dialect of a SQLite file in WAL mode: `writer` takes every write and transaction, `reader` (opened
 * on the same file, never writing) the reads outside transactions; `writerThread` (the batches of
 * sqlite-writer-thread.ts) and the `others` connections of the file (database.ts) end with them.
 */
export class ReadRoutingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly writer: SqliteDatabase,
    private readonly reader: SqliteDatabase,
    private readonly writerThread: SqliteWriterThread,
    private readonly others: readonly SqliteDatabase[] = [],
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    return new ReadRoutingDriver(
      new SqliteDriver({ database: this.writer }),
      new SqliteDriver({ database: this.reader }),
      this.writerThread,
      this.others,
    );
  }
}
