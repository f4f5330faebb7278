import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../test/helper.js';
import { startServer } from '../test/support/server-process.js';
import { openDatabase } from '../src/db/database.js';
import { createMerchantUserService } from '../src/pos/users/merchant-user-service.js';

// `npx tsx bench/sign-in-flood.ts`: what a flood of wrong passwords against the merchant panel costs the
// POS data API beside it (issue 20). A real server process (SQLite in a file, the default settings); a
// merchant user with a scrypt-hashed password; the p99 of `GET /v1/api-public/ping` idle, then while 200
// wrong sign-ins and 200 wrong change-password attempts (from a signed-in session) are sent, 8 at a time.
// Prints both p99s and their ratio, and how many attempts reached a password check (401/422) or were
// refused by the limits (429). Not part of `npm run bench` nor of the tests' pass/fail.
// PORT and ADMIN_PORT: BENCH_PORT and BENCH_PORT + 1 (20310 unless set).

const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const PASSWORD = 'the merchant passphrase of the bench';
const ACCOUNTS = 10;
const KEYS_PER_ACCOUNT = 3;
/** Pings per phase, one at a time, paced under the keys' quotas (60 a minute each, 180 an account). */
const PINGS = 200;
const PING_EVERY_MS = 40;
const FLOOD = 200;
const FLOOD_CONCURRENCY = 8;

const basePort = Number(process.env.BENCH_PORT ?? 20310);
const dir = mkdtempSync(join(tmpdir(), 'bench-sign-in-flood-'));
const file = join(dir, 'service.sqlite');
const server = await startServer({
  DATABASE_URL: `file:${file}`,
  DEMO: 'false',
  ADMIN_TOKEN,
  CURSOR_SECRET: 'bench-cursor-secret-0123456789',
  SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
  PORT: String(basePort),
  ADMIN_PORT: String(basePort + 1),
  LOG_LEVEL: 'warn',
});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  await server.waitUntilListening({ ms: 120_000 });
  const publicBase = `http://127.0.0.1:${server.port}`;
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${server.adminPort}/admin/v1/pos${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
    return (await response.json()) as { key?: string };
  };
  const keys: string[] = [];
  for (let a = 0; a < ACCOUNTS; a += 1) {
    await admin('PUT', `/accounts/bench${a}`, { name: `Bench ${a}` });
    for (let k = 0; k < KEYS_PER_ACCOUNT; k += 1) {
      const created = await admin('POST', `/accounts/bench${a}/keys`, { name: `Key ${k}`, places: 'all' });
      keys.push(created.key ?? '');
    }
  }
  // The merchant user, written into the server's database as the demo's user is.
  const db = openDatabase({ kind: 'sqlite', path: file });
  await createMerchantUserService({
    db,
    clock: new ManualClock(Date.now()),
    panelUrl: '',
  }).ensureWithPassword('bench0', 'owner@bench.example', 'Owner', PASSWORD);
  await db.destroy();

  /** A browser session of the panel: its cookie and the CSRF token of its forms. */
  const session = async () => {
    const page = await fetch(`${publicBase}/panel/sign-in`);
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    return { cookie, csrf };
  };
  /** The browser's cookies after an answer: the ones it sets replace those of the same name. */
  const withCookies = (cookie: string, response: Response): string => {
    const jar = new Map(cookie.split('; ').map((pair) => [pair.split('=')[0] ?? '', pair] as const));
    for (const set of response.headers.getSetCookie()) {
      const pair = set.split(';')[0] ?? '';
      jar.set(pair.split('=')[0] ?? '', pair);
    }
    return [...jar.values()].filter((pair) => pair !== '').join('; ');
  };
  const post = async (s: { cookie: string; csrf: string }, path: string, form: Record<string, string>) => {
    const response = await fetch(`${publicBase}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, _csrf: s.csrf }).toString(),
    });
    await response.arrayBuffer();
    return response;
  };

  let next = 0;
  const pings = async (count: number, until?: () => boolean): Promise<number[]> => {
    const times: number[] = [];
    while (times.length < count && until?.() !== true) {
      const started = performance.now();
      const response = await fetch(`${publicBase}/v1/api-public/ping`, {
        headers: { authorization: `Bearer ${keys[next++ % keys.length] ?? ''}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`ping answered ${response.status}`);
      times.push(performance.now() - started);
      await pause(PING_EVERY_MS);
    }
    return times;
  };
  const p99 = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

  await pings(20); // warm-up
  const idle = await pings(PINGS);

  // The flood: a signed-in session guessing the current password, and sign-ins with wrong passwords.
  const signedIn = await session();
  const signIn = await post(signedIn, '/panel/sign-in', { email: 'owner@bench.example', password: PASSWORD });
  if (signIn.status !== 303) throw new Error(`sign-in answered ${signIn.status}`);
  signedIn.cookie = withCookies(signedIn.cookie, signIn);
  const form = await fetch(`${publicBase}/panel/account/password`, { headers: { cookie: signedIn.cookie } });
  signedIn.cookie = withCookies(signedIn.cookie, form);
  signedIn.csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? signedIn.csrf;
  const anonymous = await session();
  const attempts = [
    ...Array.from(
      { length: FLOOD },
      (_, i) => () =>
        post(anonymous, '/panel/sign-in', { email: 'owner@bench.example', password: `wrong password ${i}` }),
    ),
    ...Array.from(
      { length: FLOOD },
      (_, i) => () =>
        post(signedIn, '/panel/account/password', {
          current: `wrong password ${i}`,
          password: 'a new passphrase nobody sets',
          confirm: 'a new passphrase nobody sets',
        }),
    ),
  ].sort(() => Math.random() - 0.5);
  const statuses = new Map<number, number>();
  let flooding = true;
  const started = performance.now();
  const flood = (async () => {
    const workers = Array.from({ length: FLOOD_CONCURRENCY }, async () => {
      for (let attempt = attempts.shift(); attempt !== undefined; attempt = attempts.shift()) {
        const { status } = await attempt();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    });
    await Promise.all(workers);
    flooding = false;
  })();
  const during = await pings(PINGS, () => !flooding);
  await flood;
  const floodSeconds = (performance.now() - started) / 1000;

  const [idleP99, floodP99] = [p99(idle), p99(during)];
  console.log(`ping p99 idle:   ${idleP99.toFixed(1)} ms (${idle.length} pings)`);
  console.log(
    `ping p99 flood:  ${floodP99.toFixed(1)} ms (${during.length} pings during ${floodSeconds.toFixed(1)} s)`,
  );
  console.log(
    `flood answers:   ${[...statuses].map(([status, count]) => `${count}× ${status}`).join(', ')} (${2 * FLOOD} attempts)`,
  );
  console.log(`ratio flood/idle p99: ${(floodP99 / idleP99).toFixed(2)} (the goal: at most 3)`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
