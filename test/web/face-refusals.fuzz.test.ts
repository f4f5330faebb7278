import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { signedInStaff } from '../console/console-agent.js';
import { describeEachDialect, testApp, type Dialect, type TestApp } from '../helper.js';
import { capturedLog } from './face-log.js';

// A seeded fuzz of every page of both web faces (docs/back-office.md, Merchant panel: refusals): the routes are read
// from the listeners' own routers, so a new page is in the fuzz without a line here. Signed out and
// signed in (a merchant user on the panel, an operator on the console), with junk methods, content types,
// bodies up to a few MB, content codings, bytes that are not UTF-8, percent-escapes, long and duplicated
// headers and cookies, dot segments, encoded slashes and overlong paths. No answer is a 5xx, the app logs
// nothing at error, a refusal is an HTML page, and no table changes. The fuzz never holds a valid CSRF
// token for the session it sends (a forged one, another session's, or none): nothing it sends may change
// anything, so every table is compared before and after.

const SEED = 20_261_127;
const RUNS = 800;

/**
 * Tables whose rows the fuzz may touch, and the columns that must still be the same. A signed-in page
 * renews its session (`rolling`): the expiry and the cookie data move on, but no session is made, ended
 * or handed to another user, and a signed-out request writes none at all.
 */
const COMPARED_COLUMNS = new Map([['web_sessions', ['id_hash', 'face', 'user_id']]]);

interface FaceUnderFuzz {
  name: 'panel' | 'console';
  prefix: string;
  listener: FastifyInstance;
  /** The signed-in user's cookies (session and language). */
  signedIn: string;
  /** A CSRF token of another session: well-formed, but not this session's. */
  foreignToken: string;
  /** A route path with its parameters (`/panel/keys/:id`), and the methods it takes. */
  routes: { path: string; methods: string[] }[];
}

/** The routes of a listener under a prefix, read from its router's tree (`printRoutes`). */
function routesUnder(listener: FastifyInstance, prefix: string): { path: string; methods: string[] }[] {
  const routes: { path: string; methods: string[] }[] = [];
  // Each line is a segment under the one above it, four characters of tree drawing deeper.
  const segments: string[] = [];
  for (const line of listener.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─\s]*)(\S.*?) \(([^)]+)\)$/.exec(line);
    if (match === null) continue;
    const [, drawing = '', segment = '', methods = ''] = match;
    const depth = drawing.length / 4;
    segments.length = depth - 1;
    segments.push(segment);
    const path = segments.join('');
    if (path === prefix || path.startsWith(`${prefix}/`)) {
      routes.push({ path, methods: methods.split(',').map((method) => method.trim()) });
    }
  }
  return routes;
}

/** Every table's rows, each table sorted, to compare before and after the fuzz. */
async function snapshot(db: Db, dialect: Dialect['name']): Promise<Record<string, string[]>> {
  const tables =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
          db,
        );
  const rows: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    const columns = COMPARED_COLUMNS.get(name);
    const all = await sql<Record<string, unknown>>`select ${
      columns === undefined ? sql`*` : sql.join(columns.map((column) => sql.ref(column)))
    } from ${sql.table(name)}`.execute(db);
    rows[name] = all.rows
      .map((row) =>
        JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)),
      )
      .sort();
  }
  return rows;
}

const FORM = 'application/x-www-form-urlencoded';
const MB = 1024 * 1024;

/** Bodies: small and large (built once: a few MB each), in every shape a face may be sent. */
const BODIES: readonly (string | Buffer | undefined)[] = [
  undefined,
  '',
  'email=a%40b.example&password=x',
  '_csrf=forged&lang=en&back=%2Fpanel%2F',
  'back=%2Fpanel%2Fa%0D%0ASet-Cookie%3A+x%3D1&lang=en',
  'back=%E2%80%A8&lang=xx',
  '{"email":"a@b.example","password":"x"}',
  '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na\r\n--x--\r\n',
  Buffer.from([0x65, 0x3d, 0xff, 0xfe, 0xc3, 0x28]),
  'e=%ff&f=%E2%82&g=%zz&h=%',
  'a=1&a=2&a=3&__proto__=x&constructor=y',
  gzipSync('email=a&password=b'),
  `name=${'x'.repeat(70 * 1024)}`,
  `name=${'y'.repeat(MB)}`,
  Buffer.alloc(3 * MB, 0x61),
];

const CONTENT_TYPES: readonly (string | undefined)[] = [
  undefined,
  FORM,
  `${FORM}; charset=utf-8`,
  `${FORM}; charset=klingon`,
  `${FORM}; charset="UTF-8"; x=y`,
  'application/json',
  'application/json; charset=utf-16',
  'multipart/form-data; boundary=x',
  'text/plain',
  'application/x-ndjson',
  '',
  '///',
  `${FORM}, text/html`,
  `text/${'x'.repeat(3000)}`,
];

const ENCODINGS: readonly (string | undefined)[] = [undefined, 'gzip', 'br', 'identity', 'x-junk, gzip', ''];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'TRACE'] as const;

/** What a route's parameter is filled with. */
const PARAMS = fc.oneof(
  fc.constantFrom(
    'acme',
    '1',
    '0',
    '-1',
    'x'.repeat(5000),
    '%ff',
    '%2e%2e',
    '..',
    '%2F',
    'a%2Fb',
    '%00',
    '%E2%80%A8',
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

/** Query strings, junk included. */
const QUERIES = fc.constantFrom(
  '',
  '?q=a',
  '?q=%ff',
  '?q=a%00b&page=%00',
  '?page=-1&cursor=%zz',
  '?cursor=not-a-cursor&limit=99999999999',
  '?token=x',
  `?q=${'a'.repeat(10_000)}`,
  '?a=1&a=2',
  '?%=%',
  '?q[]=1&q[x]=2',
);

/** Ways to bend the path after the face's prefix: dot segments, encoded and doubled slashes, overlong. */
const PATH_TWISTS = fc.constantFrom(
  (path: string) => path,
  (path: string) => path,
  (path: string) => `${path}/`,
  (path: string) => path.replace(/\/([^/]*)$/, '/./$1'),
  (path: string) => path.replace(/\/([^/]*)$/, '/../$1'),
  (path: string) => path.replace(/\//g, '%2F').replace(/^%2F/, '/'),
  (path: string) => path.replace(/\//g, '//'),
  (path: string) => `${path}/${'a'.repeat(8000)}`,
  (path: string) => `${path}%00`,
  (path: string) => `${path}%`,
  (path: string) => `${path}\u00e9`,
  (path: string) => path.toUpperCase(),
);

/** Extra headers: long, duplicated or bad cookies, a forged or foreign CSRF token. */
function headerShapes(face: FaceUnderFuzz) {
  const session = face.name === 'panel' ? 'panel_session' : 'console_session';
  return fc.constantFrom<Record<string, string | string[]>>(
    {},
    { cookie: face.signedIn },
    { cookie: face.signedIn, 'x-csrf-token': face.foreignToken },
    { cookie: face.signedIn, 'x-csrf-token': 'forged' },
    { cookie: `${session}=forged; ${face.signedIn}` },
    { cookie: `${face.signedIn}; ${session}=%zz; lang=xx` },
    { cookie: `${session}=${'a'.repeat(8000)}` },
    { cookie: '=;;;=; lang=en; lang=pt-BR' },
    { cookie: [face.signedIn, `${session}=other`] },
    { 'x-junk': 'a'.repeat(16 * 1024), cookie: face.signedIn },
    { accept: '*/*;q=junk', 'accept-language': '\u00ff'.repeat(10), cookie: 'lang=en' },
    { 'content-length': '5', cookie: face.signedIn },
  );
}

/** One fuzzed request to a face. */
function requests(faces: readonly FaceUnderFuzz[]) {
  return fc.constantFrom(...faces).chain((face) =>
    fc.record({
      face: fc.constant(face),
      route: fc.constantFrom(...face.routes),
      params: fc.array(PARAMS, { minLength: 4, maxLength: 4 }),
      twist: PATH_TWISTS,
      query: QUERIES,
      method: fc.oneof(fc.constantFrom(...METHODS), fc.constant<string | null>(null)),
      body: fc.constantFrom(...BODIES),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      encoding: fc.constantFrom(...ENCODINGS),
      headers: headerShapes(face),
    }),
  );
}

async function facesOf(t: TestApp): Promise<FaceUnderFuzz[]> {
  await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
  const password = 'uma frase longa e segura';
  await t.services.merchantUsers.ensureWithPassword('acme', 'ana@acme.example', 'Ana', password);
  const signIn = async (listener: FastifyInstance, prefix: string, email: string, secret: string) => {
    const page = await listener.inject({ method: 'GET', url: `${prefix}/sign-in` });
    const cookie = page.cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const done = await listener.inject({
      method: 'POST',
      url: `${prefix}/sign-in`,
      headers: { cookie, 'content-type': FORM },
      payload: new URLSearchParams({ _csrf: token, email, password: secret }).toString(),
    });
    expect(done.statusCode).toBe(303);
    return done.cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  };
  const staff = await signedInStaff(t, 'operator');
  const foreign = async (listener: FastifyInstance, prefix: string) => {
    const page = await listener.inject({ method: 'GET', url: `${prefix}/sign-in` });
    return /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  };
  return [
    {
      name: 'panel',
      prefix: '/panel',
      listener: t.app.public,
      signedIn: await signIn(t.app.public, '/panel', 'ana@acme.example', password),
      foreignToken: await foreign(t.app.public, '/panel'),
      routes: routesUnder(t.app.public, '/panel'),
    },
    {
      name: 'console',
      prefix: '/console',
      listener: t.app.admin,
      signedIn: staff.agent.cookieHeader(),
      foreignToken: await foreign(t.app.admin, '/console'),
      routes: routesUnder(t.app.admin, '/console'),
    },
  ];
}

/** The request a fuzzed case stands for. */
function injectOptions(sample: {
  face: FaceUnderFuzz;
  route: { path: string; methods: string[] };
  params: string[];
  twist: (path: string) => string;
  query: string;
  method: string | null;
  body: string | Buffer | undefined;
  contentType: string | undefined;
  encoding: string | undefined;
  headers: Record<string, string | string[]>;
}): InjectOptions & { url: string; method: string } {
  let next = 0;
  const filled = sample.route.path.replace(/:[A-Za-z_]+|\*/g, () => sample.params[next++ % 4] ?? 'x');
  const { prefix } = sample.face;
  const headers: Record<string, string | string[]> = { ...sample.headers };
  if (sample.contentType !== undefined) headers['content-type'] = sample.contentType;
  if (sample.encoding !== undefined) headers['content-encoding'] = sample.encoding;
  // No method given: one the route takes, so that the page's own handler reads the junk.
  const method = sample.method ?? sample.route.methods[0] ?? 'GET';
  return {
    method,
    url: prefix + sample.twist(filled.slice(prefix.length)) + sample.query,
    headers,
    ...(sample.body === undefined || method === 'GET' || method === 'HEAD' ? {} : { payload: sample.body }),
  };
}

describeEachDialect('web faces: a seeded fuzz of every page', (dialect) => {
  it(`${RUNS} junk requests over every panel and console route: no 5xx, nothing logged at error, every refusal a page, no table changed`, async () => {
    const opened = await dialect.open();
    const log = capturedLog();
    const t = testApp({ db: opened.db, rateLimits: await dialect.openStore(), logger: log.logger });
    try {
      const faces = await facesOf(t);
      // Every page of both faces is in the fuzz: at least the shared pages and the faces' own.
      expect(faces[0]?.routes.map((route) => route.path)).toContain('/panel/keys/:id/rotate');
      expect(faces[1]?.routes.map((route) => route.path)).toContain('/console/accounts/:account/receipts');
      const before = await snapshot(t.db, dialect.name);
      const errorsBefore = log.errors().length;
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requests(faces), async (sample) => {
          const options = injectOptions(sample);
          const response = await sample.face.listener.inject(options);
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const type = response.headers['content-type'] ?? '';
          const where = `${options.method} ${options.url.slice(0, 200)} ${JSON.stringify(options.headers).slice(0, 300)}`;
          if (response.statusCode >= 500) failures.push(`${response.statusCode} ${where}`);
          // A refusal of the face's paths is a page; the console's upload answers its script in
          // problem+json (its own route). A twist may leave the face (`/panel` + `%`, or dot segments,
          // which inject resolves as a URL): the APIs answer those, as before.
          const path = new URL(options.url, 'http://face.test').pathname;
          const prefix = sample.face.prefix;
          const ofFace = path === prefix || path.startsWith(`${prefix}/`);
          const upload = /^\/console\/accounts\/[^/]+\/receipts$/.test(path);
          if (
            ofFace &&
            response.statusCode >= 400 &&
            options.method !== 'HEAD' &&
            !upload &&
            !type.startsWith('text/html')
          ) {
            failures.push(`${response.statusCode} ${type} ${where}`);
          }
          return true;
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      expect(failures).toEqual([]);
      expect(log.errors().slice(errorsBefore)).toEqual([]);
      expect(await snapshot(t.db, dialect.name)).toEqual(before);
      // The fuzz reached past the refusals too: pages answered 200 and redirects were given.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(statuses.get(303) ?? statuses.get(302) ?? 0).toBeGreaterThan(0);
    } finally {
      await t.app.close();
      await opened.drop();
    }
  }, 180_000);
});
