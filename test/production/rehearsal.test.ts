import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUrl } from '../helper.js';
import { HAS_CHROMIUM, launchBrowser, pageProblems } from '../support/browser.js';
import { createProcessDatabase, postgresTestUrl, type ProcessDatabase } from '../support/process-database.js';
import { freePort, startServer, type ServerProcess } from '../support/server-process.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';

// The production rehearsal (docs/production.md, What the rehearsal checks): the built service as
// production runs it, two processes on a fresh PostgreSQL database and Redis, behind nginx terminating
// TLS for both listeners with the configuration printed in docs/production.md, and Chromium over
// https:// through it. The slow tier: it builds, starts three programs and a browser.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((path) => existsSync(path));

const missing = [
  ...(postgresTestUrl === undefined ? ['TEST_DATABASE_URL is not set'] : []),
  ...(redisUrl === undefined ? ['TEST_REDIS_URL is not set'] : []),
  ...(NGINX === undefined ? ['nginx is not installed'] : []),
  ...(OPENSSL === undefined ? ['openssl is not installed'] : []),
  ...(HAS_CHROMIUM ? [] : ['Chromium is not installed']),
];

const ADMIN_TOKEN = 'rehearsal-admin-token-0123456789';
const PASSWORD = 'uma frase longa e segura';
const HSTS = 'max-age=31536000; includeSubDomains';
const WRONG_KEY = `gtpk_${'x'.repeat(43)}`;

/** The nginx configuration of docs/production.md, the block the document marks for the rehearsal. */
function documentedNginxConfig(): string {
  const document = readFileSync(join(ROOT, 'docs', 'production.md'), 'utf8');
  const block = /<!-- production-rehearsal:[^>]*-->\s*```nginx\n([\s\S]*?)```/.exec(document)?.[1];
  if (block === undefined) throw new Error('docs/production.md has no nginx block marked for the rehearsal');
  return block;
}

/** A response read to its end. */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One HTTPS request through nginx, from the given client address (loopback: any 127.x), no keep-alive. */
function https(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; from?: string } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        rejectUnauthorized: false,
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          });
        });
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path}: no answer in time`)));
    req.on('error', reject);
    req.end(body);
  });
}

function plainHttp(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The date `days` ago in São Paulo's calendar, and an instant of that evening there. */
function dayAgo(days: number): { date: string; evening: string } {
  const date = new Date(Date.now() - 3 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);
  return { date, evening: `${date}T20:30:00-03:00` };
}

describe.skipIf(missing.length > 0)(
  `production rehearsal: two built processes on PostgreSQL + Redis behind nginx (TLS), Chromium over https${missing.length > 0 ? `: skipped, ${missing.join(', ')}` : ''}`,
  () => {
    let dir = '';
    let database: ProcessDatabase | undefined;
    let sink: SmtpSink | undefined;
    let nginx: ChildProcess | undefined;
    let nginxOutput = '';
    const processes: ServerProcess[] = [];
    let browser: { context: BrowserContext; close: () => Promise<void> } | undefined;
    /** nginx's ports: plain HTTP, the public listener's TLS, the admin listener's TLS. */
    const ports = { http: 0, public: 0, admin: 0 };
    let publicBase = '';
    let adminBase = '';
    const timings: Record<string, number> = {};
    const started = Date.now();
    /** The merchant's key made in the panel, for the later checks. */
    let merchantKey = '';

    const admin = async (method: string, path: string, body?: unknown) => {
      const answer = await https(ports.admin, method, path, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body,
      });
      if (answer.status >= 300) throw new Error(`admin ${method} ${path}: ${answer.status} ${answer.text}`);
      return answer;
    };

    /** A page through the proxy: over HTTPS, with the faces' HSTS, and no script error. */
    const open = async (page: Page, url: string): Promise<Response> => {
      const response = await page.goto(url);
      if (response === null) throw new Error(`no response for ${url}`);
      return response;
    };
    const expectFaceAnswer = async (response: Response | null) => {
      expect(response, 'a response').not.toBeNull();
      expect(response!.url()).toMatch(/^https:\/\//);
      expect((await response!.allHeaders())['strict-transport-security'], response!.url()).toBe(HSTS);
    };

    beforeAll(async () => {
      let mark = Date.now();
      // As docs/production.md says: build once, then `node dist/server.js` per process.
      execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
      timings.build = Date.now() - mark;

      dir = mkdtempSync(join(tmpdir(), 'gateway-rehearsal-'));
      // nginx's workers run as an unprivileged user when the test runs as root: they read the prefix.
      chmodSync(dir, 0o755);
      execFileSync(
        OPENSSL!,
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(dir, 'gateway.key'),
          '-out',
          join(dir, 'gateway.crt'),
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'pipe' },
      );

      mark = Date.now();
      database = await createProcessDatabase('postgres');
      sink = await startSmtpSink();
      ports.http = await freePort();
      ports.public = await freePort();
      ports.admin = await freePort();
      publicBase = `https://127.0.0.1:${ports.public}`;
      adminBase = `https://127.0.0.1:${ports.admin}`;
      const processPorts = [
        { port: await freePort(), adminPort: await freePort() },
        { port: await freePort(), adminPort: await freePort() },
      ] as const;
      // One prefix for the fleet: both processes share every limit, as docs/operations.md, Running a fleet, does.
      const redisKeyPrefix = `rehearsal-${Date.now()}:`;
      const env = (own: { port: number; adminPort: number }) => ({
        NODE_ENV: 'production',
        DATABASE_URL: database!.url,
        REDIS_URL: redisUrl!,
        REDIS_KEY_PREFIX: redisKeyPrefix,
        ADMIN_TOKEN,
        CURSOR_SECRET: 'rehearsal-cursor-secret-0123456789',
        HOST: '127.0.0.1',
        ADMIN_HOST: '127.0.0.1',
        PORT: String(own.port),
        ADMIN_PORT: String(own.adminPort),
        TRUST_PROXY: '127.0.0.1',
        PUBLIC_BASE_URL: publicBase,
        ADMIN_BASE_URL: adminBase,
        SMTP_URL: sink!.url,
        DEMO: 'false',
        IP_BLOCK_THRESHOLD: '5',
        // nginx passes a refused connection to the other process (docs/production.md, Shutdown behind
        // nginx); a short drain keeps the run short.
        SHUTDOWN_DRAIN_MS: '1000',
        LOG_LEVEL: 'warn',
      });
      // The first migrates the fresh database; the second finds it migrated.
      processes.push(await startServer(env(processPorts[0]), { built: true }));
      await processes[0]!.waitUntilListening();
      processes.push(await startServer(env(processPorts[1]), { built: true }));
      await processes[1]!.waitUntilListening();
      timings.processes = Date.now() - mark;

      // The document's nginx configuration; only ports, addresses and the certificate's paths replaced.
      const site = documentedNginxConfig()
        .replaceAll('127.0.0.1:8080', `127.0.0.1:${processPorts[0].port}`)
        .replaceAll('127.0.0.1:8090', `127.0.0.1:${processPorts[1].port}`)
        .replaceAll('127.0.0.1:9080', `127.0.0.1:${processPorts[0].adminPort}`)
        .replaceAll('127.0.0.1:9090', `127.0.0.1:${processPorts[1].adminPort}`)
        .replace('listen 10.0.0.5:443 ssl;', `listen 127.0.0.1:${ports.admin} ssl;`)
        .replace('listen 443 ssl;', `listen 127.0.0.1:${ports.public} ssl;`)
        .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
        .replaceAll('/etc/nginx/tls/', `${dir}/`);
      for (const documented of [
        /:(8080|8090|9080|9090);/,
        /listen (10\.0\.0\.5:)?(443|80)\b/,
        /\/etc\/nginx\/tls\//,
      ]) {
        expect(site, `docs/production.md's ${String(documented)} replaced`).not.toMatch(documented);
      }
      writeFileSync(join(dir, 'partner-gateway.conf'), site);
      writeFileSync(
        join(dir, 'nginx.conf'),
        [
          'daemon off;',
          'worker_processes 1;',
          `pid ${dir}/nginx.pid;`,
          `error_log ${dir}/error.log warn;`,
          'events { worker_connections 512; }',
          'http {',
          '  access_log off;',
          `  client_body_temp_path ${dir}/body;`,
          `  proxy_temp_path ${dir}/proxy;`,
          `  fastcgi_temp_path ${dir}/fastcgi;`,
          `  uwsgi_temp_path ${dir}/uwsgi;`,
          `  scgi_temp_path ${dir}/scgi;`,
          `  include ${dir}/partner-gateway.conf;`,
          '}',
          '',
        ].join('\n'),
      );
      nginx = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      nginx.stdout!.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
      nginx.stderr!.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
      for (let tries = 0; ; tries += 1) {
        try {
          await https(ports.admin, 'GET', '/healthz');
          break;
        } catch (error) {
          if (tries > 100 || nginx.exitCode !== null) {
            const log = existsSync(join(dir, 'error.log'))
              ? readFileSync(join(dir, 'error.log'), 'utf8')
              : '';
            throw new Error(`nginx did not start: ${String(error)}\n${nginxOutput}\n${log}`, {
              cause: error,
            });
          }
          await sleep(50);
        }
      }
      browser = await launchBrowser({ ignoreHTTPSErrors: true });
      timings.setUp = Date.now() - started;
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      const server = nginx;
      if (server?.exitCode === null) {
        const gone = new Promise((resolve) => server.once('exit', resolve));
        // SIGQUIT: nginx's graceful stop; SIGKILL if it has not ended in 3 s.
        server.kill('SIGQUIT');
        if ((await Promise.race([gone.then(() => 'gone'), sleep(3000)])) !== 'gone') server.kill('SIGKILL');
      }
      await Promise.all(processes.map((p) => p.stop(15_000)));
      await sink?.stop();
      await database?.drop();
      if (dir !== '') rmSync(dir, { recursive: true, force: true });
      // The run's figures, for the report of how long the slow tier takes.
      process.stdout.write(
        `production rehearsal: ${JSON.stringify({ ...timings, total: Date.now() - started })} ms\n`,
      );
    }, 60_000);

    it('the merchant: invited through the admin API, sets a password from the e-mail, signs in, makes a key that reads the POS API through nginx, sees both reports', async () => {
      // An account, a place and a month of receipts, through the admin listener's proxy over HTTPS.
      await admin('PUT', '/admin/v1/pos/accounts/acme', {
        name: 'Acme Bares',
        currency: 'BRL',
        active: true,
      });
      await admin('PUT', '/admin/v1/pos/accounts/acme/places/P1', {
        name: 'Centro',
        timezone: 'America/Sao_Paulo',
      });
      const receipts = Array.from({ length: 60 }, (_, n) => ({
        id: `R${n}`,
        place: 'P1',
        event: null,
        occurred_at: dayAgo(1 + (n % 20)).evening,
        payment_method: ['tef_credit', 'tef_debit', 'tef_pix', 'cash'][n % 4],
        brand: n % 4 === 3 || n % 4 === 2 ? null : ['VISA', 'MASTERCARD'][n % 2],
        amount: `${10 + n}.50`,
        kind: 'sale',
      }));
      const uploaded = await admin('POST', '/admin/v1/pos/accounts/acme/receipts', { receipts });
      expect(JSON.parse(uploaded.text)).toMatchObject({ inserted: 60 });
      await admin('POST', '/admin/v1/pos/accounts/acme/users', {
        email: 'ana@acme.example',
        name: 'Ana Lima',
      });

      // The processes' mail sender delivers the invitation to the SMTP server; its link is the public
      // base URL, HTTPS through nginx.
      const mail = (await sink!.waitFor(1, 20_000)).find((m) => m.recipients.includes('ana@acme.example'));
      const link = new RegExp(`${publicBase}/panel/set-password\\?token=\\S+`).exec(mail!.text)?.[0];
      expect(link, mail!.text).toBeDefined();

      const page = await browser!.context.newPage();
      const problems = pageProblems(page);
      await expectFaceAnswer(await open(page, link!));
      await page.getByLabel('Nova senha', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Repita a nova senha', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Salvar senha' }).click();
      await page.waitForURL(`${publicBase}/panel/sign-in`);

      await page.getByLabel('E-mail').fill('ana@acme.example');
      await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
      const [signedIn] = await Promise.all([
        page.waitForResponse(
          (r) => r.url() === `${publicBase}/panel/sign-in` && r.request().method() === 'POST',
        ),
        page.getByRole('button', { name: 'Entrar' }).click(),
      ]);
      const sessionCookie = (await signedIn.headerValues('set-cookie')).find((c) =>
        c.startsWith('panel_session='),
      );
      expect(sessionCookie).toMatch(/; Secure/);
      await page.waitForURL(`${publicBase}/panel/keys`);

      await page.getByRole('link', { name: 'Criar chave' }).click();
      await page.getByLabel('Nome da chave').fill('ERP da matriz');
      await page.locator('input[value="sale-by-payment-method.view"]').check();
      await page.locator('input[value="event.view"]').check();
      await page.getByRole('button', { name: 'Criar chave' }).click();
      merchantKey = await page.locator('#new-key').inputValue();
      expect(merchantKey).toMatch(/^gtpk_/);

      // The key reads the POS API through nginx; the API's answers carry no HSTS of the service.
      const ping = await https(ports.public, 'GET', '/v1/api-public/ping', {
        headers: { authorization: `Bearer ${merchantKey}` },
      });
      expect(ping.status, ping.text).toBe(200);
      expect(ping.headers['strict-transport-security']).toBeUndefined();

      const from = dayAgo(25).date;
      const to = dayAgo(0).date;
      for (const report of ['receipts', 'brands']) {
        const response = await open(
          page,
          `${publicBase}/panel/reports/${report}?place=P1&from=${from}&to=${to}`,
        );
        expect(response.status()).toBe(200);
        await expectFaceAnswer(response);
        await page.locator('canvas').waitFor();
        expect(await page.locator('[data-amount]').count(), report).toBeGreaterThan(0);
      }
      // The documentation pages are served over HTTPS with HSTS too; plain HTTP is sent to HTTPS.
      await expectFaceAnswer(await open(page, `${publicBase}/docs/`));
      const plain = await plainHttp(ports.http, '/panel/sign-in');
      expect(plain.status).toBe(301);
      expect(plain.headers.location).toBe(`https://127.0.0.1/panel/sign-in`);
      expect(problems).toEqual([]);
      await page.close();
    }, 120_000);

    it('the console: the first operator from ADMIN_TOKEN signs in; she adds a support user, who sets a password through the link and signs in', async () => {
      await browser!.context.clearCookies();
      const page = await browser!.context.newPage();
      const problems = pageProblems(page);
      await expectFaceAnswer(await open(page, `${adminBase}/console/`));
      await page.getByLabel('Token de administração (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
      await page.getByLabel('E-mail').fill('olga@operator.example');
      await page.getByLabel('Seu nome').fill('Olga Operadora');
      await page.getByLabel('Nova senha').fill('operator passphrase for the console');
      await page.getByRole('button', { name: 'Criar o operador e entrar' }).click();
      await page.waitForURL(`${adminBase}/console/dashboard`);

      // Signs out and in again with her password.
      await page.getByRole('button', { name: 'Sair' }).click();
      await page.waitForURL(`${adminBase}/console/sign-in`);
      await page.getByLabel('E-mail').fill('olga@operator.example');
      await page.getByLabel('Senha', { exact: true }).fill('operator passphrase for the console');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${adminBase}/console/dashboard`);
      const cookies = await browser!.context.cookies(`${adminBase}/console/`);
      expect(cookies.find((c) => c.name === 'console_session')?.secure).toBe(true);

      await expectFaceAnswer(await open(page, `${adminBase}/console/staff/new`));
      await page.getByLabel('Endereço de e-mail').fill('bia@operator.example');
      await page.getByLabel('Nome', { exact: true }).fill('Bia Souza');
      await page.getByLabel('Suporte', { exact: true }).check();
      await page.getByRole('button', { name: 'Adicionar e mostrar o link' }).click();
      const link = await page.locator('#new-key').inputValue();
      expect(link.startsWith(`${adminBase}/console/set-password?token=`), link).toBe(true);

      // Bia, in a browser with no session: sets her password through the link and signs in.
      await browser!.context.clearCookies();
      await expectFaceAnswer(await open(page, link));
      await page.getByLabel('Nova senha', { exact: true }).fill('a support passphrase');
      await page.getByLabel('Repita a nova senha', { exact: true }).fill('a support passphrase');
      await page.getByRole('button', { name: 'Salvar senha' }).click();
      await page.waitForURL(`${adminBase}/console/sign-in`);
      await page.getByLabel('E-mail').fill('bia@operator.example');
      await page.getByLabel('Senha', { exact: true }).fill('a support passphrase');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${adminBase}/console/find`);
      expect(problems).toEqual([]);
      await page.close();

      // The admin API's answers through the same proxy are as they were: no HSTS of the service.
      const systems = await admin('GET', '/admin/v1/helpdesk/systems');
      expect(systems.headers['strict-transport-security']).toBeUndefined();
    }, 120_000);

    it('per-IP limits see the client through nginx: wrong keys from 127.0.0.2 block 127.0.0.2, not 127.0.0.3', async () => {
      expect(merchantKey).not.toBe('');
      const ping = (key: string, from: string) =>
        https(ports.public, 'GET', '/v1/api-public/ping', {
          headers: { authorization: `Bearer ${key}` },
          from,
        });
      // IP_BLOCK_THRESHOLD is 5: five keys that never existed, each a different one, as a guesser sends.
      for (let i = 0; i < 5; i += 1) {
        expect((await ping(`${WRONG_KEY.slice(0, -1)}${i}`, '127.0.0.2')).status).toBe(401);
      }
      const blocked = await ping(merchantKey, '127.0.0.2');
      expect(blocked.status, blocked.text).toBe(429);
      const other = await ping(merchantKey, '127.0.0.3');
      expect(other.status, other.text).toBe(200);
    }, 60_000);

    it('SIGTERM to one process while requests flow through nginx: every answer is the API’s (200, or its closing 503), none nginx’s, and the other process serves on', async () => {
      // A partner system whose limit the burst does not reach, its key, and the help-desk options read
      // as fast as four clients can through nginx.
      await admin('PUT', '/admin/v1/helpdesk/companies/acme', { name: 'Acme Comércio' });
      await admin('PUT', '/admin/v1/helpdesk/systems/rehearsal', {
        name: 'Rehearsal',
        rate_limit_per_minute: 100_000,
        default_category_id: null,
      });
      const rotated = await admin('POST', '/admin/v1/helpdesk/systems/rehearsal/keys/rotate');
      const key = (JSON.parse(rotated.text) as { key: string }).key;
      const statuses = new Map<string, number>();
      let stop = false;
      const client = async () => {
        while (!stop) {
          let outcome: string;
          try {
            const answer = await https(
              ports.public,
              'GET',
              '/v1/api-external-system/help-desk-ticket-options',
              {
                headers: { authorization: `Bearer ${key}` },
              },
            );
            // The ticket API's documented answers to a read: 200, or while a process closes its own 503
            // (docs/operations.md, Shutdown, step 3); anything else (nginx's 502 or 504, a reset) is outside it.
            const code = answer.status === 503 ? (JSON.parse(answer.text) as { code?: string }).code : '';
            outcome =
              answer.status === 503
                ? `503 ${answer.headers['content-type']?.split(';')[0]} ${code} retry-after ${answer.headers['retry-after']}`
                : String(answer.status);
          } catch (error) {
            outcome = `error ${(error as Error).message}`;
          }
          statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
        }
      };
      const clients = Array.from({ length: 4 }, client);
      await sleep(500);
      const stopping = processes[0]!;
      stopping.kill('SIGTERM');
      const code = await stopping.exited;
      // Traffic goes on a moment after the process is gone, through the one left.
      await sleep(1000);
      stop = true;
      await Promise.all(clients);
      timings.sigtermRequests = [...statuses.values()].reduce((a, b) => a + b, 0);
      expect(code).toBe(0);
      const documented = new Set([
        '200',
        '503 application/problem+json temporarily_unavailable retry-after 5',
      ]);
      expect(
        [...statuses.keys()].filter((outcome) => !documented.has(outcome)),
        JSON.stringify(Object.fromEntries(statuses)),
      ).toEqual([]);
      timings.sigterm503 = statuses.get([...documented][1]!) ?? 0;
      expect(statuses.get('200') ?? 0).toBeGreaterThan(20);
      const after = await https(ports.public, 'GET', '/v1/api-external-system/help-desk-ticket-options', {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(after.status).toBe(200);
    }, 90_000);
  },
);
