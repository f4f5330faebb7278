import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/database-unavailable.js';

// A receipts upload whose last step failed says why (docs/back-office.md, Point of sale: receipts): 503
// `upload_interrupted` when the database went out of reach, and a 500 for anything else, which is a fault.

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'the server restarted (admin shutdown)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['the server is starting', withCode('the database system is starting up', '57P03')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['connections refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['the connection reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['the connection ended under the query', new Error('Connection terminated unexpectedly')],
    ['a silent server (client-side limit)', new Error('Query read timeout')],
    ['no connection in time', new Error('timeout exceeded when trying to connect')],
    ['a broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['SQLite locked by another process', withCode('database is locked', 'SQLITE_BUSY')],
    ['SQLite disk I/O', withCode('disk I/O error', 'SQLITE_IOERR_WRITE')],
    ['SQLite disk full', withCode('database or disk is full', 'SQLITE_FULL')],
    ['a cause that is one of these', new Error('wrapped', { cause: new Error('Connection terminated') })],
  ])('out of reach: %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    [
      'a cancelled statement (a time limit)',
      withCode('canceling statement due to statement timeout', '57014'),
    ],
    ['a syntax error', withCode('syntax error at or near "x"', '42601')],
    ['a SQLite constraint', withCode('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_PRIMARYKEY')],
    ['a plain error', new Error('boom')],
    ['not an error', 'Connection terminated'],
  ])('a refusal or a fault, not an outage: %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
