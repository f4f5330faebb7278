import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

// The configuration (docs/admin-rules.md, Configuration): defaults, a frozen result, and one clear message
// naming the variable for every value the service cannot start with.

/** The error loadConfig throws for `env`, which must be a ConfigError. */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('defaults per the Configuration list', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 8080,
      host: '0.0.0.0',
      publicBaseUrl: 'http://localhost:8080',
      database: { kind: 'sqlite', path: './data/service.sqlite' },
      redisUrl: null,
      adminHost: '127.0.0.1',
      adminPort: 8081,
      adminToken: null,
      supportToken: null,
      trustProxy: [],
      logLevel: 'info',
      demo: 'auto',
      posRotationGraceSeconds: 86400,
      posSalesQueryTimeoutMs: 15000,
      posEventsQueryTimeoutMs: 3000,
      ipBlockThreshold: 20,
      shutdownDrainMs: 10_000,
      shutdownTimeoutMs: 20_000,
    });
    // Outside production an unset CURSOR_SECRET gets a random one of its own.
    expect(config.cursorSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}).cursorSecret).not.toBe(config.cursorSecret);
  });

  it('empty values count as unset', () => {
    const config = loadConfig({ PORT: '', ADMIN_TOKEN: '', DEMO: '', TRUST_PROXY: '', DATABASE_URL: '' });
    expect(config.port).toBe(8080);
    expect(config.adminToken).toBeNull();
    expect(config.demo).toBe('auto');
    expect(config.trustProxy).toEqual([]);
    expect(config.database).toEqual({ kind: 'sqlite', path: './data/service.sqlite' });
  });

  it('reads every variable it is given', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '9000',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: 'https://api.example.com/',
      DATABASE_URL: 'postgres://user:pw@db:5432/service',
      DATABASE_READ_URL: 'postgres://user:pw@replica:5432/service',
      DATABASE_TIMEOUT_MS: '2500',
      REDIS_URL: 'rediss://cache:6380',
      REDIS_KEY_PREFIX: 'gw-staging:',
      REDIS_TIMEOUT_MS: '250',
      ADMIN_HOST: '0.0.0.0',
      ADMIN_PORT: '9001',
      ADMIN_BASE_URL: 'https://admin.example.com/',
      ADMIN_TOKEN: 'admin-token-0123456789',
      SUPPORT_TOKEN: 'support-token-0123456789',
      CURSOR_SECRET: 'cursor-secret-0123456789',
      TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,2001:db8::/32',
      LOG_LEVEL: 'warn',
      DEMO: 'false',
      POS_ROTATION_GRACE_SECONDS: '60',
      POS_SALES_QUERY_TIMEOUT_MS: '1000',
      POS_EVENTS_QUERY_TIMEOUT_MS: '500',
      IP_BLOCK_THRESHOLD: '3',
      SHUTDOWN_DRAIN_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '45000',
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000',
      HTTP_IDLE_TIMEOUT_MS: '15000',
      MAX_CONNECTIONS_PER_IP: '50',
      UPLOAD_IDLE_TIMEOUT_MS: '10000',
      UPLOAD_TIMEOUT_MS: '120000',
      UPLOAD_WRITE_TIMEOUT_MS: '300000',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
      MAIL_FROM: 'Gateway <no-reply@example.com>',
      PANEL: 'true',
      CONSOLE: 'false',
      SESSION_SECRET: 'session-secret-0123456789-0123456789',
      RETENTION_SESSION_HOURS: '2',
      RETENTION_TRAFFIC_DAYS: '3',
      RETENTION_OUTBOX_DAYS: '60',
    });
    expect(config).toEqual({
      env: 'production',
      port: 9000,
      host: '127.0.0.1',
      publicBaseUrl: 'https://api.example.com',
      database: { kind: 'postgres', url: 'postgres://user:pw@db:5432/service' },
      databaseRead: { kind: 'postgres', url: 'postgres://user:pw@replica:5432/service' },
      databaseTimeoutMs: 2500,
      redisUrl: 'rediss://cache:6380',
      redisKeyPrefix: 'gw-staging:',
      redisTimeoutMs: 250,
      adminHost: '0.0.0.0',
      adminPort: 9001,
      adminBaseUrl: 'https://admin.example.com',
      adminToken: 'admin-token-0123456789',
      supportToken: 'support-token-0123456789',
      cursorSecret: 'cursor-secret-0123456789',
      trustProxy: ['10.0.0.1', '192.168.0.0/16', '2001:db8::/32'],
      logLevel: 'warn',
      demo: 'off',
      posRotationGraceSeconds: 60,
      posSalesQueryTimeoutMs: 1000,
      posEventsQueryTimeoutMs: 500,
      ipBlockThreshold: 3,
      shutdownDrainMs: 0,
      shutdownTimeoutMs: 45_000,
      http: {
        headersTimeoutMs: 5000,
        requestTimeoutMs: 20000,
        keepAliveTimeoutMs: 2000,
        idleTimeoutMs: 15000,
        maxConnectionsPerIp: 50,
      },
      uploadIdleTimeoutMs: 10_000,
      uploadTimeoutMs: 120_000,
      uploadWriteTimeoutMs: 300_000,
      smtpUrl: 'smtps://mailer:secret@smtp.example.com:465',
      mailFrom: 'Gateway <no-reply@example.com>',
      panel: true,
      console: false,
      sessionSecret: 'session-secret-0123456789-0123456789',
      retention: { sessionGraceMs: 2 * 3_600_000, trafficMs: 3 * 86_400_000, outboxMs: 60 * 86_400_000 },
    });
  });

  it('ADMIN_BASE_URL: the console links’ base; by default the admin listener, by loopback when it listens everywhere', () => {
    expect(loadConfig({}).adminBaseUrl).toBe('http://127.0.0.1:8081');
    expect(loadConfig({ ADMIN_HOST: '10.1.2.3', ADMIN_PORT: '9001' }).adminBaseUrl).toBe(
      'http://10.1.2.3:9001',
    );
    expect(loadConfig({ ADMIN_HOST: '0.0.0.0' }).adminBaseUrl).toBe('http://127.0.0.1:8081');
    expect(loadConfig({ ADMIN_HOST: '::' }).adminBaseUrl).toBe('http://127.0.0.1:8081');
    expect(loadConfig({ ADMIN_HOST: '::1' }).adminBaseUrl).toBe('http://[::1]:8081');
    expect(loadConfig({ ADMIN_BASE_URL: 'https://ops.example.com/back//' }).adminBaseUrl).toBe(
      'https://ops.example.com/back',
    );
    expect(configError({ ADMIN_BASE_URL: 'ftp://ops.example.com' }).problems).toEqual([
      { variable: 'ADMIN_BASE_URL', message: 'must be an http(s) URL (got "ftp://ops.example.com")' },
    ]);
  });

  it('SMTP_URL: unset logs the mail; not smtp(s):// stops the start, shown without its password', () => {
    expect(loadConfig({}).smtpUrl).toBeNull();
    expect(loadConfig({}).mailFrom).toBe('Partner Gateway <no-reply@localhost>');
    const refuse = () => loadConfig({ SMTP_URL: 'http://mailer:hunter2secret@smtp.example.com' });
    expect(refuse).toThrow(
      /^SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL \(got "http:\/\/mailer:\*\*\*@smtp\.example\.com"\)$/,
    );
    expect(refuse).not.toThrow(/hunter2secret/);
    expect(() => loadConfig({ MAIL_FROM: 'nobody' })).toThrow(/^MAIL_FROM: must be an address/);
    expect(loadConfig({ MAIL_FROM: 'no-reply@example.com' }).mailFrom).toBe('no-reply@example.com');
  });

  it('answers a frozen object', () => {
    const config = loadConfig({ TRUST_PROXY: '10.0.0.1' });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.trustProxy)).toBe(true);
    expect(Object.isFrozen(config.database)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(() => {
      (config.trustProxy as string[]).push('10.0.0.2');
    }).toThrow(TypeError);
    expect(config.port).toBe(8080);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['ADMIN_PORT', '65536'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'file:'],
    ['TRUST_PROXY', 'not-an-ip'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.1, nope'],
    ['LOG_LEVEL', 'loud'],
    ['IP_BLOCK_THRESHOLD', '0'],
    ['IP_BLOCK_THRESHOLD', 'many'],
    ['DEMO', 'maybe'],
    ['DEMO', 'TRUE'],
    ['ADMIN_TOKEN', 'short'],
    ['SUPPORT_TOKEN', 'short'],
    ['CURSOR_SECRET', 'short'],
    ['PUBLIC_BASE_URL', 'ftp://example.com'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['REDIS_URL', 'http://cache:6379'],
    ['REDIS_KEY_PREFIX', 'has space'],
    ['REDIS_KEY_PREFIX', 'x'.repeat(65)],
    ['REDIS_TIMEOUT_MS', '5'],
    ['DATABASE_READ_URL', 'mysql://replica'],
    ['DATABASE_READ_URL', 'file:./replica.sqlite'],
    ['DATABASE_TIMEOUT_MS', '0'],
    ['NODE_ENV', 'staging'],
    ['POS_ROTATION_GRACE_SECONDS', 'forever'],
    ['POS_SALES_QUERY_TIMEOUT_MS', '0'],
    ['POS_EVENTS_QUERY_TIMEOUT_MS', '1e3'],
    ['SHUTDOWN_DRAIN_MS', '-1'],
    ['SHUTDOWN_DRAIN_MS', '10s'],
    ['SHUTDOWN_DRAIN_MS', '600001'],
    ['SHUTDOWN_TIMEOUT_MS', '0'],
    ['SHUTDOWN_TIMEOUT_MS', '600001'],
    ['HTTP_HEADERS_TIMEOUT_MS', '0'],
    ['HTTP_HEADERS_TIMEOUT_MS', '60000'],
    ['HTTP_REQUEST_TIMEOUT_MS', 'soon'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '0'],
    ['HTTP_IDLE_TIMEOUT_MS', '-1'],
    ['MAX_CONNECTIONS_PER_IP', '0'],
    ['UPLOAD_IDLE_TIMEOUT_MS', '50'],
    ['UPLOAD_TIMEOUT_MS', 'forever'],
    ['RETENTION_SESSION_HOURS', '-1'],
    ['RETENTION_TRAFFIC_DAYS', '0'],
    ['RETENTION_TRAFFIC_DAYS', '2d'],
    ['RETENTION_OUTBOX_DAYS', '0'],
    ['RETENTION_OUTBOX_DAYS', '3651'],
    ['UPLOAD_WRITE_TIMEOUT_MS', '99'],
  ])('%s=%s stops the start with a ConfigError naming the variable', (variable, value) => {
    const error = configError({ [variable]: value });
    expect(error.name).toBe('ConfigError');
    expect(error.message.startsWith(`${variable}:`), error.message).toBe(true);
    // One line, something to act on after the name.
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeGreaterThan(variable.length + 5);
  });

  it('names every wrong variable at once, in the order of the Configuration list', () => {
    const error = configError({
      LOG_LEVEL: 'loud',
      PORT: 'abc',
      TRUST_PROXY: 'nope',
      DATABASE_URL: 'mysql://x',
      HTTP_HEADERS_TIMEOUT_MS: '40000',
      ADMIN_TOKEN: 'same-token-0123456789',
      SUPPORT_TOKEN: 'same-token-0123456789',
      NODE_ENV: 'production',
    });
    expect(error.problems.map((problem) => problem.variable)).toEqual([
      'PORT',
      'DATABASE_URL',
      'SUPPORT_TOKEN',
      'CURSOR_SECRET',
      'TRUST_PROXY',
      'LOG_LEVEL',
      'HTTP_HEADERS_TIMEOUT_MS',
    ]);
    expect(error.message).toMatch(/^PORT: must be a whole number \(got "abc"\); DATABASE_URL: /);
    expect(error.message).not.toContain('\n');
    // A check that needs a wrong variable is not made: one message a variable, about its own value.
    expect(configError({ DATABASE_URL: 'mysql://x', DATABASE_READ_URL: 'postgres://r/db' }).problems).toEqual(
      [
        {
          variable: 'DATABASE_URL',
          message: 'must be postgres://…, file:PATH or a plain path (got "mysql://x")',
        },
      ],
    );
  });

  it('never shows a secret: tokens and secrets not at all, URLs without their password and query', () => {
    const secret = 'hunter2-hunter2';
    const error = configError({
      ADMIN_TOKEN: 'short',
      SUPPORT_TOKEN: 'sh0rt',
      CURSOR_SECRET: 'tiny',
      DATABASE_URL: `mysql://gateway:${secret}@db:3306/gateway?sslpassword=${secret}`,
      DATABASE_READ_URL: `postgres://gateway:${secret}@replica/gateway`,
      REDIS_URL: `http://:${secret}@cache:6379`,
      PUBLIC_BASE_URL: `ftp://user:${secret}@example.com`,
    });
    expect(error.problems.map((problem) => problem.variable)).toEqual([
      'PUBLIC_BASE_URL',
      'DATABASE_URL',
      'REDIS_URL',
      'ADMIN_TOKEN',
      'SUPPORT_TOKEN',
      'CURSOR_SECRET',
    ]);
    for (const shown of [secret, 'short', 'sh0rt', 'tiny']) expect(error.message).not.toContain(shown);
    expect(error.message).toContain('ADMIN_TOKEN: must be at least 16 characters;');
    expect(error.message).toContain('(got "mysql://gateway:***@db:3306/gateway?…")');
    expect(error.message).toContain('(got "http://:***@cache:6379")');
    // The replica's own problem (a PostgreSQL primary) is not checked while the primary is wrong.
    expect(configError({ DATABASE_READ_URL: `postgres://u:${secret}@replica/db` }).message).not.toContain(
      secret,
    );
  });

  it('production needs CURSOR_SECRET; SUPPORT_TOKEN must differ from ADMIN_TOKEN', () => {
    expect(configError({ NODE_ENV: 'production' }).message).toMatch(/^CURSOR_SECRET:/);
    const same = 'same-token-0123456789';
    expect(configError({ ADMIN_TOKEN: same, SUPPORT_TOKEN: same }).message).toMatch(/^SUPPORT_TOKEN:/);
  });

  it('a fleet (REDIS_URL) needs CURSOR_SECRET: every process must sign cursors alike', () => {
    expect(configError({ REDIS_URL: 'redis://cache:6379' }).message).toMatch(/^CURSOR_SECRET:/);
    const fleet = loadConfig({
      REDIS_URL: 'redis://cache:6379',
      CURSOR_SECRET: 'c'.repeat(16),
      SESSION_SECRET: 's'.repeat(32),
    });
    expect(fleet).toMatchObject({
      redisUrl: 'redis://cache:6379',
      redisKeyPrefix: 'gw:',
      redisTimeoutMs: 500,
    });
  });

  it('SESSION_SECRET: the panel signs with it, or with a key derived from CURSOR_SECRET, never required', () => {
    // A deployment (production, a fleet) that starts today starts the same with the panel on.
    const cursor = 'c'.repeat(16);
    const production = loadConfig({ NODE_ENV: 'production', CURSOR_SECRET: cursor });
    const fleet = loadConfig({ REDIS_URL: 'redis://cache:6379', CURSOR_SECRET: cursor });
    expect(production.panel).toBe(true);
    // Every process of a fleet derives the same key, and it is not the cursors' secret itself.
    expect(fleet.sessionSecret).toBe(production.sessionSecret);
    expect(fleet.sessionSecret).not.toContain(cursor);
    expect(loadConfig({ CURSOR_SECRET: 'd'.repeat(16) }).sessionSecret).not.toBe(fleet.sessionSecret);
    expect(loadConfig({ CURSOR_SECRET: cursor, SESSION_SECRET: 's'.repeat(32) }).sessionSecret).toBe(
      's'.repeat(32),
    );
    expect(configError({ SESSION_SECRET: 'short' }).message).toMatch(/^SESSION_SECRET: must be at least 32/);
    expect(configError({ SESSION_SECRET: 'short' }).message).not.toContain('short"');
    const off = loadConfig({ NODE_ENV: 'production', CURSOR_SECRET: cursor, PANEL: 'false' });
    expect(off.panel).toBe(false);
    expect(loadConfig({}).panel).toBe(true);
  });

  it('a read replica needs PostgreSQL as the primary too; without one the data routes read the primary', () => {
    expect(configError({ DATABASE_READ_URL: 'postgres://replica/db' }).message).toMatch(
      /^DATABASE_READ_URL:/,
    );
    expect(loadConfig({}).databaseRead).toBeNull();
    expect(loadConfig({}).databaseTimeoutMs).toBe(5000);
  });

  it('the HTTP edge: 10 s for a head, 30 s for a public request, 5 s kept alive, 60 s of silence, 256 connections an address', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
      idleTimeoutMs: 60_000,
      maxConnectionsPerIp: 256,
    });
    expect(Object.isFrozen(loadConfig({}).http)).toBe(true);
    // The head is part of the request: its limit may not be the longer one.
    expect(configError({ HTTP_HEADERS_TIMEOUT_MS: '40000' }).message).toMatch(/^HTTP_HEADERS_TIMEOUT_MS:/);
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '30000' }).http.headersTimeoutMs).toBe(30_000);
  });

  it('retention: sessions an hour past their expiry, request counts 2 days, delivered e-mail 30 days; each its own variable (docs/data.md, Retention)', () => {
    const hour = 3_600_000;
    const day = 24 * hour;
    expect(loadConfig({}).retention).toEqual({
      sessionGraceMs: hour,
      trafficMs: 2 * day,
      outboxMs: 30 * day,
    });
    expect(Object.isFrozen(loadConfig({}).retention)).toBe(true);
    expect(
      loadConfig({
        RETENTION_SESSION_HOURS: '0',
        RETENTION_TRAFFIC_DAYS: '7',
        RETENTION_OUTBOX_DAYS: '90',
      }).retention,
    ).toEqual({ sessionGraceMs: 0, trafficMs: 7 * day, outboxMs: 90 * day });
  });

  it('ADMIN_TOKEN of 16 characters or more is accepted', () => {
    expect(loadConfig({ ADMIN_TOKEN: 'x'.repeat(16) }).adminToken).toBe('x'.repeat(16));
  });

  describe('DATABASE_URL forms', () => {
    it.each([
      ['file:./data/service.sqlite', { kind: 'sqlite', path: './data/service.sqlite' }],
      ['file:/var/lib/gateway/db.sqlite', { kind: 'sqlite', path: '/var/lib/gateway/db.sqlite' }],
      ['file::memory:', { kind: 'sqlite', path: ':memory:' }],
      ['./local.sqlite', { kind: 'sqlite', path: './local.sqlite' }],
      ['/abs/path/db.sqlite', { kind: 'sqlite', path: '/abs/path/db.sqlite' }],
      [
        'postgres://postgres@127.0.0.1:5432/test',
        { kind: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/test' },
      ],
      [
        'postgresql://u:p@db/service?sslmode=require',
        { kind: 'postgres', url: 'postgresql://u:p@db/service?sslmode=require' },
      ],
    ])('%s', (value, database) => {
      expect(loadConfig({ DATABASE_URL: value }).database).toEqual(database);
    });
  });

  describe('DEMO', () => {
    it.each([
      ['true', 'on'],
      ['false', 'off'],
      [undefined, 'auto'],
    ] as const)('DEMO=%s gives %s', (value, demo) => {
      expect(loadConfig(value === undefined ? {} : { DEMO: value }).demo).toBe(demo);
    });
  });
});
