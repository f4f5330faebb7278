import { presentedBearerToken } from '../http/bearer-token.js';
import type { Answer } from '../http/gate.js';
import { IDENTITY_ONLY, unsupportedContentCoding } from '../http/content-coding.js';
import { isJsonMediaType } from '../http/media-type.js';
import { Problem } from '../errors/problem.js';
import { noteRequest } from '../observability/request-facts.js';
import { attempt } from '../rate-limit/rate-limit-store.js';
import type { TicketCall, TicketRoute } from './ticket-call.js';

// The gates of the ticket API, each named after the rule it enforces. Their order is in ticket-api.ts.

const RATE_WINDOW_MS = 60_000;

/** The methods a route answers: its own, and OPTIONS. */
function allowHeader(route: TicketRoute): string {
  return `${route.method}, OPTIONS`;
}

/** 503 `temporarily_unavailable` while the operator has switched the API off, before any other check. */
export async function answerMaintenance(call: TicketCall): Promise<Problem | undefined> {
  const maintenance = await call.deps.maintenance.get();
  if (!maintenance.enabled) return undefined;
  return Problem.of('temporarily_unavailable', {}, { 'retry-after': String(maintenance.retryAfterSeconds) });
}

/** 405 `method_not_allowed` with `Allow`; OPTIONS is answered later, after the key and the rate check. */
export function requireRouteMethod(call: TicketCall): Problem | undefined {
  const route = call.route;
  if (route === undefined || call.request.method === route.method || call.request.method === 'OPTIONS')
    return undefined;
  return Problem.of(
    'method_not_allowed',
    { detail: `This route accepts ${route.method} (and OPTIONS).` },
    { allow: allowHeader(route) },
  );
}

const isPost = (call: TicketCall) => call.request.method === 'POST';

/** 415 `unsupported_media_type` on the ticket and lead routes: lowercase JSON type required. */
export function requireJsonContentType(call: TicketCall): Problem | undefined {
  if (call.route?.body !== 'json' || !isPost(call)) return undefined;
  if (isJsonMediaType(call.request.headers['content-type'])) return undefined;
  return Problem.of('unsupported_media_type');
}

const CODED_BODY_DETAIL =
  'The body is sent in a content coding (Content-Encoding) that this API does not decode: send it as is, without Content-Encoding.';

/**
 * 415 `unsupported_media_type` with `Accept-Encoding: identity` on the ticket and lead routes, where the
 * media type is judged: a body in a content coding (gzip, say) is not JSON the API can read, and reading
 * it as plain text would take compressed bytes for the ticket (RFC 9110, 8.4 and 15.5.16).
 */
export function rejectContentCoding(call: TicketCall): Problem | undefined {
  if (call.route?.body !== 'json' || !isPost(call)) return undefined;
  if (unsupportedContentCoding(call.request.headers) === undefined) return undefined;
  return Problem.of('unsupported_media_type', { detail: CODED_BODY_DETAIL }, IDENTITY_ONLY);
}

type Parsed = { ok: true; text: string; value: unknown } | { ok: false };

/** Strict UTF-8: one decoder for every call (a whole body at a time, so it keeps no state between them). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes strict UTF-8 and parses JSON. */
function parseJson(body: Buffer): Parsed {
  try {
    const text = UTF8.decode(body);
    return { ok: true, text, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isPlainObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const INVALID_BODY_DETAIL = 'The request body must be a JSON object (UTF-8).';

/** 422 `invalid_body` on the ticket and lead routes, before the key: the body must be a JSON object. */
export function requireJsonObjectBody(call: TicketCall): Problem | undefined {
  if (call.route?.body !== 'json' || !isPost(call)) return undefined;
  const parsed = parseJson(call.body);
  if (!parsed.ok || !isPlainObject(parsed.value))
    return Problem.of('invalid_body', { detail: INVALID_BODY_DETAIL });
  call.json = parsed.text;
  return undefined;
}

/** 401 `unauthorized`: the same answer for every case; which ones count toward the IP block differs. */
export async function authenticateKey(call: TicketCall): Promise<Problem | undefined> {
  const refuse = async (countsTowardIpBlock: boolean) => {
    if (countsTowardIpBlock) await attempt(() => call.ipBlock.recordFailure(call.request.ip, call.now));
    return Problem.of('unauthorized', {}, { 'www-authenticate': 'Bearer' });
  };
  const check = await call.deps.systems.verifyKey(presentedBearerToken(call.request), call.now);
  if (!('system' in check)) return refuse(true);
  const { system, credential } = check;
  // From here on the key is the system's: its refusals are the system's to read (docs/operations.md, Why did my
  // call fail), a rotated-out key's 401 among them.
  noteRequest(call.request, { subject: { kind: 'system', id: system.identifier }, credential });
  // The previous key after its grace period: a 401 that does not count.
  if (!check.ok) return refuse(false);
  // A known key on another system's webhook (or an unknown identifier) does not count either.
  if (call.pathSystem !== undefined && call.pathSystem !== system.identifier) return refuse(false);
  call.system = system;
  // Its last use: a mark in memory, written later by the flush (src/audit/key-use.ts).
  call.deps.keyUse.mark('system', system.identifier, check.keyHash, call.now);
  return undefined;
}

/** 403 `system_inactive`, before the rate check (so without X-RateLimit-* headers). */
export function rejectInactiveSystem(call: TicketCall): Problem | undefined {
  if (call.system === undefined || call.system.active) return undefined;
  return Problem.of('system_inactive');
}

/**
 * 429 `rate_limited` when the system spent its calls of the sliding minute. From here on every response
 * carries X-RateLimit-Limit, -Remaining and -Reset (docs/ticket-api.md, Limits), unless the shared
 * store is unreachable: the call then goes on unmeasured, without them (docs/api-conventions.md).
 */
export async function limitSystemRate(call: TicketCall): Promise<Problem | undefined> {
  const system = call.system;
  if (system === undefined) return undefined;
  const limit = system.rateLimitPerMinute;
  const take = await attempt(() =>
    call.deps.rateLimits.take(`hd:system:${system.identifier}`, limit, RATE_WINDOW_MS, call.now),
  );
  if (take === undefined) return undefined;
  const resetAt = take.oldestAt + RATE_WINDOW_MS;
  call.reply.headers({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(take.allowed ? limit - take.count : 0),
    'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
  });
  if (take.allowed) return undefined;
  noteRequest(call.request, { limit: 'system' });
  const retryAfter = Math.max(1, Math.ceil((resetAt - call.now) / 1000));
  return Problem.of(
    'rate_limited',
    {
      detail: `This system used its ${limit} calls of the last minute. Retry after the time in the Retry-After header.`,
    },
    { 'retry-after': String(retryAfter) },
  );
}

/** OPTIONS: 200 with `Allow` and no body, after the key and the rate check (it counts). */
export function answerOptions(call: TicketCall): Answer | undefined {
  if (call.request.method !== 'OPTIONS' || call.route === undefined) return undefined;
  return { status: 200, headers: { allow: allowHeader(call.route) } };
}

/** 403 `forbidden_scope` with `required_scope`, after the rate check. */
export function requireScope(call: TicketCall): Problem | undefined {
  const { route, system } = call;
  if (route === undefined || system === undefined || system.scopes.includes(route.scope)) return undefined;
  return Problem.of('forbidden_scope', {
    detail: `This key lacks the scope "${route.scope}" that this route requires.`,
    required_scope: route.scope,
  });
}

/**
 * The webhook's body shape, after the key and the rate check. With a JSON type, a body that is not an
 * object or a list is the server-level 400 without `code`; a list, or any non-object under another type,
 * is 422 `invalid_body`.
 */
export function requireWebhookObjectBody(call: TicketCall): Problem | undefined {
  if (call.route?.body !== 'webhook' || !isPost(call)) return undefined;
  // The webhook takes any type and answers no 415 (POST webhook); a body in a content coding is one it
  // cannot read, so it gets this rule's answer for an unreadable body, saying why.
  const coded = unsupportedContentCoding(call.request.headers) !== undefined;
  const parsed: Parsed = coded ? { ok: false } : parseJson(call.body);
  if (parsed.ok && isPlainObject(parsed.value)) {
    call.json = parsed.text;
    return undefined;
  }
  const jsonType = isJsonMediaType(call.request.headers['content-type']);
  if (jsonType && (!parsed.ok || !Array.isArray(parsed.value))) {
    if (coded) return new Problem(null, { detail: CODED_BODY_DETAIL }, 400, IDENTITY_ONLY);
    return Problem.withoutCode(400, 'The body could not be read as a JSON object or list.');
  }
  if (coded) return Problem.of('invalid_body', { detail: CODED_BODY_DETAIL }, IDENTITY_ONLY);
  return Problem.of('invalid_body', { detail: INVALID_BODY_DETAIL });
}
