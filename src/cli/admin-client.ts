import { CliError, EXIT, usageError } from './cli-error.js';

// The management commands talk to a running deployment's admin API over HTTP (Node's fetch), never to the
// database: they go through the same service layer, caches and checks as every other caller, and work
// against any process of a fleet (docs/admin-rules.md).

/** What every admin call of the command line carries, so that the audit trail says it came through it. */
const ADMIN_CLIENT_HEADER = { 'x-admin-client': 'cli' } as const;

/** A refusal of the admin API: its status and problem+json body. */
export class AdminRefusal extends CliError {
  constructor(
    readonly status: number,
    readonly problem: Record<string, unknown>,
    readonly requestId: string | null,
  ) {
    super(describeProblem(status, problem, requestId), EXIT.failed, { status, ...problem });
    this.name = 'AdminRefusal';
  }

  /** The problem's `code`, when it has one. */
  get code(): string | undefined {
    return typeof this.problem.code === 'string' ? this.problem.code : undefined;
  }
}

/** One line saying what was refused and why: `404 Not Found: … (code not_found, param path.id)`. */
function describeProblem(
  status: number,
  problem: Record<string, unknown>,
  requestId: string | null = null,
): string {
  const title = typeof problem.title === 'string' ? problem.title : `HTTP ${status}`;
  const detail = typeof problem.detail === 'string' ? `: ${problem.detail}` : '';
  const extras = [
    typeof problem.code === 'string' ? `code ${problem.code}` : null,
    typeof problem.param === 'string' ? `param ${problem.param}` : null,
    requestId === null ? null : `request ${requestId}`,
  ].filter((extra) => extra !== null);
  return `${status} ${title}${detail}${extras.length === 0 ? '' : ` (${extras.join(', ')})`}`;
}

/** Where the admin API is and the credential to present. */
export interface AdminTarget {
  /** Base URL of the admin listener, such as `http://127.0.0.1:8081`. */
  url: string;
  /** `ADMIN_TOKEN`, or `SUPPORT_TOKEN` for the calls support may make. */
  token: string;
}

/**
 * The admin URL: `--admin-url`, else `ADMIN_URL`, else the local admin listener of the same
 * configuration defaults as the server (`ADMIN_HOST`, `ADMIN_PORT`).
 */
export function adminUrl(option: string | undefined, env: NodeJS.ProcessEnv): string {
  const given = option ?? env.ADMIN_URL;
  if (given !== undefined && given !== '') {
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      throw usageError(`--admin-url: not a URL (got "${given}"); for example http://127.0.0.1:8081`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw usageError(`--admin-url: must be an http:// or https:// URL (got "${given}")`);
    }
    return url.href.replace(/\/+$/, '');
  }
  let host = env.ADMIN_HOST === undefined || env.ADMIN_HOST === '' ? '127.0.0.1' : env.ADMIN_HOST;
  if (host === '0.0.0.0') host = '127.0.0.1';
  if (host === '::') host = '::1';
  const port = env.ADMIN_PORT === undefined || env.ADMIN_PORT === '' ? '8081' : env.ADMIN_PORT;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** `ADMIN_TOKEN`, else `SUPPORT_TOKEN`, from the environment (never from the command line: shells keep history). */
export function adminToken(env: NodeJS.ProcessEnv): string {
  const token = env.ADMIN_TOKEN ?? env.SUPPORT_TOKEN;
  if (token === undefined || token === '') {
    throw usageError(
      'ADMIN_TOKEN is not set: export the admin API token (or SUPPORT_TOKEN for support) before calling a running deployment',
    );
  }
  return token;
}

/** Options of one admin call. */
interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with `contentType`. */
  rawBody?: string | Uint8Array;
  contentType?: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
}

/** A client of one deployment's admin API. */
export interface AdminClient {
  readonly url: string;
  /** Calls `method path`; answers the parsed JSON body (undefined for 204), throws AdminRefusal on 4xx/5xx. */
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<T>;
}

/** Encodes one path segment (identifiers are plain, but a typo must not change the path). */
export const seg = (value: string | number) => encodeURIComponent(String(value));

function unreachable(url: string, error: unknown): CliError {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new CliError(
    `cannot reach the admin API at ${url} (${reason}); is the server running there? (set --admin-url, or ADMIN_HOST/ADMIN_PORT)`,
    EXIT.failed,
    { error: 'unreachable', admin_url: url, reason },
  );
}

/** A client of the admin API at `target`. */
export function createAdminClient(target: AdminTarget, fetchImpl: typeof fetch = fetch): AdminClient {
  return {
    url: target.url,
    async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
      const url = new URL(`${target.url}${path}`);
      for (const [name, value] of Object.entries(options.query ?? {})) {
        if (value !== undefined) url.searchParams.set(name, String(value));
      }
      const headers: Record<string, string> = {
        authorization: `Bearer ${target.token}`,
        accept: 'application/json',
        ...ADMIN_CLIENT_HEADER,
      };
      let body: string | Uint8Array | undefined;
      if (options.rawBody !== undefined) {
        body = options.rawBody;
        headers['content-type'] = options.contentType ?? 'application/octet-stream';
      } else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      let response: Response;
      try {
        response = await fetchImpl(url, { method, headers, body });
      } catch (error) {
        throw unreachable(target.url, error);
      }
      const text = await response.text();
      let parsed: unknown;
      if (text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
      }
      if (!response.ok) {
        const problem =
          parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
            ? (parsed as Record<string, unknown>)
            : { title: response.statusText, detail: text.slice(0, 200) };
        throw new AdminRefusal(response.status, problem, response.headers.get('x-request-id'));
      }
      return parsed as T;
    },
  };
}
