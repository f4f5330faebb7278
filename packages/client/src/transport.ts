import { ApiError, type ProblemBody } from './api-error.js';
import type { RateLimit } from './rate-limit.js';

/** `Deprecation: true` and `Sunset` on an answer: the key used was rotated out and stops at `sunset`. */
export interface Deprecation {
  /** The `Sunset` instant, or null when the header is absent or unreadable. */
  sunset: Date | null;
}

/**
 * What an answer said besides its body: every value a call returns carries it as `lastResponse`, a
 * non-enumerable property (the way Stripe's objects carry theirs), so that the value reads, spreads and
 * serialises as the body alone.
 */
export interface ResponseFacts {
  /** 200 or 201. */
  status: number;
  /** `X-Request-Id`: quote it to support. */
  requestId: string | undefined;
  /** The rate-limit headers, or null when the limit was not measured on this call (never read as zero). */
  rateLimit: RateLimit | null;
  /** Set when the answer said the key is deprecated. */
  deprecation: Deprecation | null;
  /** How many requests were sent for this value: 1, or more after waits for 429 and 503. */
  attempts: number;
  /** Every header of the answer, for what the fields above do not name. */
  headers: Headers;
}

/** A value a call returned: the body of the answer, and the answer's facts as `lastResponse`. */
export type WithResponse<T, Facts extends ResponseFacts = ResponseFacts> = T & {
  /** The answer that carried this value (after any retries). Not enumerable: not in `JSON.stringify`. */
  readonly lastResponse: Facts;
};

/** Puts `facts` on `body` as its non-enumerable `lastResponse`. */
export function withResponse<T extends object, Facts extends ResponseFacts>(
  body: T,
  facts: Facts,
): WithResponse<T, Facts> {
  return Object.defineProperty(body, 'lastResponse', {
    value: facts,
    enumerable: false,
    writable: false,
    configurable: true,
  }) as WithResponse<T, Facts>;
}

/** A successful answer, inside the clients: its body and its facts. */
export interface ApiResult<T> {
  body: T;
  facts: ResponseFacts;
}

/**
 * A 2xx answer whose body is not a JSON object: the documents promise one on every success, so this is
 * a fault of the service or of a proxy in between, not a refusal.
 */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  /** The status of the answer. */
  readonly status: number;
  /** `X-Request-Id`, when the answer had one. */
  readonly requestId: string | undefined;
  /** The body as received (text, or undefined when empty). */
  readonly body: unknown;

  constructor(options: { status: number; requestId: string | undefined; body: unknown; path: string }) {
    super(`${options.status} from ${options.path} without a JSON object as its body`);
    this.status = options.status;
    this.requestId = options.requestId;
    this.body = options.body;
  }
}

/** How refusals that ask for a wait (429 and 503 with `Retry-After`) are retried. */
export interface RetryPolicy {
  /** Calls in all, the first included (default 4). */
  attempts: number;
  /**
   * The longest single wait, in seconds (default 60): a longer `Retry-After` (a maintenance window) is not
   * waited, the refusal is returned at once. The total wait of one call is thus at most
   * `(attempts - 1) × maxWaitSeconds`: 180 s by default.
   */
  maxWaitSeconds: number;
}

/** What both clients are built from. */
export interface ClientOptions {
  /** `{base_url}`: the service's address, e.g. `https://api.example.com` (no path). */
  baseUrl: string;
  /** The API key, sent as `Authorization: Bearer <key>`. */
  key: string;
  /** The fetch to use (default: the platform's). */
  fetch?: typeof fetch;
  /** Waits the given milliseconds (default: a timer); tests pass one that returns at once. */
  sleep?: (ms: number) => Promise<void>;
  /** The time in milliseconds since the epoch (default `Date.now`); reads `Retry-After` dates. */
  now?: () => number;
  /** Retries of 429 and 503; `{ attempts: 1 }` turns them off. */
  retry?: Partial<RetryPolicy>;
  /** Called on every answer carrying `Deprecation` (the key was rotated out: switch before `sunset`). */
  onDeprecation?: (deprecation: Deprecation, path: string) => void;
}

/** One request, as the clients describe it. */
interface ApiRequest {
  method: 'GET' | 'POST' | 'OPTIONS';
  /** The path from the base URL, e.g. `/v1/api-public/ping`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON body. */
  json?: unknown;
}

/** Sends requests with the key, reads answers, retries 429 and 503 as the documents say. */
export interface Transport {
  /**
   * Sends the request (again, as it was, after each wait) and answers its success, or throws the last
   * `ApiError`, or the fetch's own error when no answer came. `tries.count` tells how many were sent.
   */
  send<T extends object>(request: ApiRequest, tries?: { count: number }): Promise<ApiResult<T>>;
}

const realSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

function integerHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = integerHeader(headers, 'x-ratelimit-limit');
  const remaining = integerHeader(headers, 'x-ratelimit-remaining');
  const reset = integerHeader(headers, 'x-ratelimit-reset');
  return limit === null || remaining === null || reset === null ? null : { limit, remaining, reset };
}

/** `Retry-After` in whole seconds: delta-seconds, or an HTTP date counted from `now`. */
function retryAfterOf(headers: Headers, now: number): number | null {
  const value = headers.get('retry-after');
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function deprecationOf(headers: Headers): Deprecation | null {
  if (headers.get('deprecation') === null) return null;
  const sunset = headers.get('sunset');
  const date = sunset === null ? NaN : Date.parse(sunset);
  return { sunset: Number.isNaN(date) ? null : new Date(date) };
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The transport of one client. */
export function createTransport(options: ClientOptions): Transport {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const policy: RetryPolicy = { attempts: 4, maxWaitSeconds: 60, ...options.retry };
  const base = options.baseUrl.replace(/\/+$/, '');

  async function once<T extends object>(request: ApiRequest, attempts: number): Promise<ApiResult<T>> {
    const url = new URL(base + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.key}`,
      accept: 'application/json',
    };
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetchFn(url, {
      method: request.method,
      headers,
      ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
    });
    const body = await bodyOf(response);
    const deprecation = deprecationOf(response.headers);
    if (deprecation !== null) options.onDeprecation?.(deprecation, request.path);
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const rateLimit = rateLimitOf(response.headers);
    if (response.ok) {
      if (typeof body !== 'object' || body === null) {
        throw new UnexpectedResponseError({ status: response.status, requestId, body, path: request.path });
      }
      const facts = { status: response.status, requestId, rateLimit, deprecation, attempts };
      return { body: body as T, facts: { ...facts, headers: response.headers } };
    }
    throw new ApiError({
      status: response.status,
      problem: typeof body === 'object' && body !== null ? (body as ProblemBody) : undefined,
      requestId,
      retryAfter: retryAfterOf(response.headers, now()),
      rateLimit,
    });
  }

  return {
    async send<T extends object>(request: ApiRequest, tries = { count: 0 }): Promise<ApiResult<T>> {
      for (;;) {
        tries.count += 1;
        try {
          return await once<T>(request, tries.count);
        } catch (error) {
          // Only a refusal that names its wait is retried, and only while the wait is bounded.
          const waitable =
            error instanceof ApiError &&
            (error.status === 429 || error.status === 503) &&
            error.retryAfter !== null &&
            error.retryAfter <= policy.maxWaitSeconds;
          if (!waitable || tries.count >= policy.attempts) throw error;
          await sleep(error.retryAfter * 1000);
        }
      }
    },
  };
}
