import { Writable } from 'node:stream';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { testApp } from '../helper.js';

// The warning is once a process: once for the configuration the process runs with, which both faces
// share. One operator reading the log sees why the faces refuse, once, without a line a request.

const PRODUCTION = {
  NODE_ENV: 'production',
  TRUST_PROXY: '10.0.0.1',
  PUBLIC_BASE_URL: 'https://api.example.test',
};

it('the HTTPS-only page is logged at info for each request, and warned once in a process', async () => {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as { level: number; msg: string });
        done();
      },
    }),
  );
  const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
  await migrateToLatest(db);
  const t = testApp({ db, logger, config: { ...PRODUCTION, LOG_LEVEL: 'info' } });
  try {
    for (let i = 0; i < 3; i += 1) {
      expect((await t.call({ method: 'GET', url: '/panel/sign-in' })).statusCode).toBe(403);
    }
    expect((await t.app.admin.inject({ method: 'GET', url: '/console/sign-in' })).statusCode).toBe(403);
    const about = lines.filter((line) => line.msg.includes('plain HTTP'));
    expect(about.filter((line) => line.level === 30)).toHaveLength(4);
    const warnings = about.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/TRUST_PROXY/);
    expect(warnings[0]?.msg).toMatch(/X-Forwarded-Proto: https/);
  } finally {
    await t.app.close();
    await db.destroy();
  }
});
