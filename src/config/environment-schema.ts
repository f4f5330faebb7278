import { z } from 'zod';

// The environment variables the service reads, each with its rule and default, in the order of the
// Configuration list (a start that fails names its variables in this order).

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const port = integer(0, 65535);

const nonEmpty = z.string().min(1, 'must not be empty');

export const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(8080),
  HOST: nonEmpty.default('0.0.0.0'),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  DATABASE_URL: nonEmpty.default('file:./data/service.sqlite'),
  DATABASE_READ_URL: nonEmpty.optional(),
  DATABASE_TIMEOUT_MS: integer(100, 600_000).default(5000),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\x21-\x7e]{1,64}$/, 'must be 1 to 64 printable ASCII characters without spaces')
    .default('gw:'),
  REDIS_TIMEOUT_MS: integer(10, 60_000).default(500),
  ADMIN_HOST: nonEmpty.default('127.0.0.1'),
  ADMIN_PORT: port.default(8081),
  ADMIN_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SUPPORT_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CURSOR_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO: z.enum(['true', 'false']).optional(),
  POS_ROTATION_GRACE_SECONDS: integer(0, 365 * 86400).default(86400),
  POS_SALES_QUERY_TIMEOUT_MS: integer(1, 600_000).default(15000),
  POS_EVENTS_QUERY_TIMEOUT_MS: integer(1, 600_000).default(3000),
  IP_BLOCK_THRESHOLD: integer(1, 1_000_000).default(20),
  SHUTDOWN_DRAIN_MS: integer(0, 600_000).default(10_000),
  SHUTDOWN_TIMEOUT_MS: integer(100, 600_000).default(20_000),
  HTTP_HEADERS_TIMEOUT_MS: integer(10, 600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: integer(10, 3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(10, 600_000).default(5000),
  HTTP_IDLE_TIMEOUT_MS: integer(10, 3_600_000).default(60_000),
  MAX_CONNECTIONS_PER_IP: integer(1, 1_000_000).default(256),
  UPLOAD_IDLE_TIMEOUT_MS: integer(100, 3_600_000).default(30_000),
  UPLOAD_TIMEOUT_MS: integer(100, 86_400_000).default(900_000),
  UPLOAD_WRITE_TIMEOUT_MS: integer(100, 86_400_000).default(900_000),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
      'must be an address, or a name and <address>',
    )
    .default('Partner Gateway <no-reply@localhost>'),
  PANEL: z.enum(['true', 'false']).default('true'),
  CONSOLE: z.enum(['true', 'false']).default('true'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  RETENTION_SESSION_HOURS: integer(0, 8760).default(1),
  RETENTION_TRAFFIC_DAYS: integer(1, 3650).default(2),
  RETENTION_OUTBOX_DAYS: integer(1, 3650).default(30),
});
