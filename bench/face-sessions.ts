import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { openFreshDatabase } from './fresh-database.js';

// `npx tsx bench/face-sessions.ts`: how many session rows (table web_sessions) 10,000 cookie-less page
// loads of the web faces leave behind: the panel's and the console's sign-in pages (the console's is the
// first operator's page on a fresh install), the panel's reset request page, a page that does not exist
// and a stylesheet, in turn, over real listeners. On a SQLite file, and on PostgreSQL too when
// TEST_DATABASE_URL is set. Not part of the tests' pass/fail. BENCH_LOADS changes the number of loads.

const LOADS = Number(process.env.BENCH_LOADS ?? 10_000);
const TOKEN = 'bench-admin-token-0123456789';

async function measure(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const fresh = await openFreshDatabase(dialect, 'face-sessions', process.env.TEST_DATABASE_URL);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: fresh.url,
    ADMIN_TOKEN: TOKEN,
    CURSOR_SECRET: 'bench-cursor-secret-0123456789',
    LOG_LEVEL: 'silent',
  });
  const services = createServices({ db: fresh.db, config });
  const app = buildApp(config, { services, logger: false });
  try {
    await app.public.listen({ port: 0, host: '127.0.0.1' });
    await app.admin.listen({ port: 0, host: '127.0.0.1' });
    const base = (server: typeof app.public) =>
      `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    const [panel, console] = [base(app.public), base(app.admin)];
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(
      await (await fetch(`${panel}/panel/sign-in`)).text(),
    )?.[1];
    const pages = [
      `${panel}/panel/sign-in`,
      `${console}/console/sign-in`,
      `${panel}/panel/password-reset`,
      `${panel}/panel/nowhere`,
      `${panel}${stylesheet ?? '/panel/assets/none.css'}`,
    ];
    const started = performance.now();
    let sessionCookies = 0;
    for (let n = 0; n < LOADS; n += 1) {
      const response = await fetch(pages[n % pages.length]!, { redirect: 'manual' });
      await response.arrayBuffer();
      if (response.headers.getSetCookie().some((line) => line.includes('_session='))) sessionCookies += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    const rows = await fresh.db
      .selectFrom('web_sessions')
      .select((eb) => [
        // PostgreSQL answers both as text (bigint, numeric).
        eb.fn.countAll<number | string>().as('rows'),
        eb.fn.sum<number | string | null>(eb.fn('length', ['data'])).as('bytes'),
      ])
      .executeTakeFirstOrThrow();
    process.stdout.write(
      `${dialect}: ${LOADS} cookie-less page loads in ${seconds.toFixed(1)} s → ` +
        `${Number(rows.rows)} session rows (${Number(rows.bytes ?? 0)} bytes of session data), ` +
        `${sessionCookies} answers setting a session cookie\n`,
    );
  } finally {
    await app.close();
    await fresh.drop();
  }
}

await measure('sqlite');
if (process.env.TEST_DATABASE_URL !== undefined) await measure('postgres');
