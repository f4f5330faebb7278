import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { nameStatementText, prepareQuery } from '../../src/db/prepared-query.js';
import { describeEachDialect, useDialectDb, type Dialect } from '../helper.js';

// Hot queries compiled once (src/db/prepared-query.ts): built with Kysely once per database, run with
// each call's values; on PostgreSQL as named prepared statements.

interface SettingValues {
  key: string;
}

const settingByKey = prepareQuery('test_setting_by_key', (db: Db, v: SettingValues) =>
  db.selectFrom('settings').select(['key', 'value']).where('key', '=', v.key).where('value', '!=', 'hidden'),
);

const putSetting = prepareQuery('test_setting_put', (db: Db, v: SettingValues & { value: string }) =>
  db.insertInto('settings').values({ key: v.key, value: v.value, updated_at: 1 }).returning('key'),
);

describeEachDialect('prepared queries', (dialect: Dialect) => {
  const opened = useDialectDb(dialect);

  it('each run binds its own values; constants of the query stay in place', async () => {
    await putSetting.rows(opened.db, { key: 'a', value: '"1"' });
    await putSetting.rows(opened.db, { key: 'b', value: '"2"' });
    await putSetting.rows(opened.db, { key: 'c', value: 'hidden' });
    expect(await settingByKey.rows(opened.db, { key: 'a' })).toEqual([{ key: 'a', value: '"1"' }]);
    expect(await settingByKey.rows(opened.db, { key: 'b' })).toEqual([{ key: 'b', value: '"2"' }]);
    // `value != 'hidden'` is a constant of the compiled query, not a value of the call.
    expect(await settingByKey.rows(opened.db, { key: 'c' })).toEqual([]);
    expect(await settingByKey.rows(opened.db, { key: 'none' })).toEqual([]);
  });

  it('runs inside a transaction, seeing its writes, and the rollback undoes them', async () => {
    await opened.db
      .transaction()
      .execute(async (trx) => {
        await putSetting.rows(trx, { key: 'in-trx', value: '"x"' });
        expect(await settingByKey.rows(trx, { key: 'in-trx' })).toHaveLength(1);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await settingByKey.rows(opened.db, { key: 'in-trx' })).toEqual([]);
  });

  it('on PostgreSQL the statement is prepared once per connection under its name', async () => {
    if (dialect.name !== 'postgres') return;
    await putSetting.rows(opened.db, { key: 'p', value: '"1"' });
    await opened.db.connection().execute(async (connection) => {
      for (let i = 0; i < 3; i += 1) await settingByKey.rows(connection, { key: 'p' });
      const prepared = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(
        connection,
      );
      expect(prepared.rows.map((row) => row.name)).toContain('test_setting_by_key');
    });
  });

  it('on PostgreSQL a name is given to one SQL text only', async () => {
    if (dialect.name !== 'postgres') return;
    await settingByKey.rows(opened.db, { key: 'a' });
    const other = prepareQuery('test_setting_by_key', (d: Db, v: SettingValues) =>
      d.selectFrom('settings').select('key').where('key', '=', v.key),
    );
    await expect(other.rows(opened.db, { key: 'a' })).rejects.toThrow(
      'statement name given twice: test_setting_by_key',
    );
  });

  it('on PostgreSQL a text named by its family runs as a prepared statement of its own, each text once', async () => {
    if (dialect.name !== 'postgres') return;
    const texts = [1, 2].map((n) =>
      opened.db
        .selectFrom('settings')
        .select('key')
        .where(
          'key',
          'in',
          Array.from({ length: n }, (_, i) => `k${i}`),
        ),
    );
    await opened.db.connection().execute(async (connection) => {
      for (const query of texts) {
        const compiled = query.compile();
        nameStatementText('test_family', compiled.sql);
        nameStatementText('test_family', compiled.sql); // again: nothing changes
        await connection.executeQuery(compiled);
        await connection.executeQuery(compiled);
      }
      const prepared = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(
        connection,
      );
      const names = prepared.rows.map((row) => row.name).filter((name) => name.startsWith('test_family_'));
      expect(names).toHaveLength(2);
      expect(new Set(names).size).toBe(2);
    });
  });
});
