import { presentedBearerToken } from '../../http/bearer-token.js';
import { hasRequestBody, IDENTITY_ONLY, unsupportedContentCoding } from '../../http/content-coding.js';
import { isJsonMediaType } from '../../http/media-type.js';
import { Problem } from '../../errors/problem.js';
import { noteRequest, type LimitKind } from '../../observability/request-facts.js';
import type { AuthenticatedPosCall, PosCall } from './pos-call.js';
import type { LimitHeaders, LimitRefusal, PosLimitReason } from './limit-decision.js';
import { readQuery, type PosQueryValues, type PosRoute } from './query-params.js';

// The gates of the point-of-sale data API, each named after the rule it enforces. Their order is in
// pos-api.ts.

/** The realm of the 401's `WWW-Authenticate`. */
const REALM = 'api-public';

/**
 * The POS API's detail for a server that cannot take the call now (docs/pos-api.md, Errors: the second
 * case of 503): the shared store is unreachable, or the process is shutting down.
 */
export const POS_UNAVAILABLE_DETAIL =
  'This endpoint is temporarily unable to accept requests. Retry after the time in the Retry-After header.';

/** A limit's refusal as a problem: 429 `rate_limited`, or 503 when the shared store is unreachable. */
function limitProblem(refusal: LimitRefusal): Problem {
  if (refusal.status === 503) {
    return Problem.of('temporarily_unavailable', { detail: POS_UNAVAILABLE_DETAIL }, { ...refusal.headers });
  }
  return Problem.of('rate_limited', {}, { ...refusal.headers });
}

/** The kind of limit a refusal's reason counts under (docs/operations.md, Metrics). */
const LIMIT_KINDS: Readonly<Record<PosLimitReason, LimitKind>> = {
  ip_blocked: 'ip_block',
  unauthenticated_calls: 'unauthenticated',
  absolute_ceiling: 'absolute_ceiling',
  key_quota: 'key',
  account_ceiling: 'account',
  account_sales_in_progress: 'concurrency',
  api_sales_in_progress: 'concurrency',
  documentation_pages: 'docs_pages',
  store_unavailable: 'store_unavailable',
};

/** A limit's refusal of a call as its problem, noted for the metrics and the refusal log. */
export function refuseByLimit(call: Pick<PosCall, 'request'>, refusal: LimitRefusal): Problem {
  noteRequest(call.request, { limit: LIMIT_KINDS[refusal.reason] });
  return limitProblem(refusal);
}

function setHeaders(call: PosCall, headers: LimitHeaders): void {
  call.reply.headers({ ...headers });
}

/** 405 `method_not_allowed` for every method but GET, HEAD and OPTIONS included; `Allow: GET`. */
export function requireGet(call: PosCall): Problem | undefined {
  if (call.request.method === 'GET') return undefined;
  return Problem.of(
    'method_not_allowed',
    { detail: 'Every route of this API accepts only GET.' },
    { allow: 'GET' },
  );
}

/**
 * 404 for a versioned media type of another version in `Accept` (`application/vnd.<name>.v<n>+json`,
 * n other than 1); any other `Accept` gets JSON (Authentication).
 */
export function rejectOtherVersionAccept(call: PosCall): Problem | undefined {
  const accept = call.request.headers.accept ?? '';
  for (const range of accept.split(',')) {
    const type = (range.split(';')[0] ?? '').trim().toLowerCase();
    const version = /^application\/vnd\.[^/]+\.v(\d+)\+json$/.exec(type)?.[1];
    if (version !== undefined && Number(version) !== 1) {
      return Problem.of('not_found', { detail: `This API has no version ${version}; only v1 exists.` });
    }
  }
  return undefined;
}

/**
 * 429 for an IP blocked after wrong keys: real wait, `X-RateLimit-Limit` 20, Remaining 0. This gate asks
 * the limits before the key all at once (`admitBeforeKey`: one round trip to a shared store), in their
 * order; the next two gates answer the refusal it found, if it is theirs.
 */
export async function rejectBlockedIp(call: PosCall): Promise<Problem | undefined> {
  call.keyText = presentedBearerToken(call.request);
  const decision = await call.deps.limits.admitBeforeKey(
    call.request.ip,
    call.keyText,
    call.route?.routeClass ?? 'default',
  );
  if (decision.ok) call.keyCheck = decision;
  else call.refusedBeforeKey = decision;
  return refusedBeforeKeyBy(call, 'ip_blocked');
}

/** The refusal `rejectBlockedIp` found, as its problem, when `reason` is the limit that refused. */
function refusedBeforeKeyBy(call: PosCall, reason: PosLimitReason): Problem | undefined {
  const refusal = call.refusedBeforeKey;
  return refusal?.reason === reason ? refuseByLimit(call, refusal) : undefined;
}

/** 429 at the absolute ceiling of the presented key text in the route's class, before the key is read. */
export function limitAbsoluteCeiling(call: PosCall): Problem | undefined {
  return refusedBeforeKeyBy(call, 'absolute_ceiling');
}

/** 429 when the IP has more than 40 calls being checked plus wrong-key failures of the last minute. */
export function guardUnauthenticatedCalls(call: PosCall): Problem | undefined {
  return refusedBeforeKeyBy(call, 'unauthenticated_calls');
}

/**
 * 401 `invalid_token` with `WWW-Authenticate: Bearer realm=…`; `reason` only when the key worked before.
 * A previous key of a rotation passes, and every later response carries `Deprecation` and `Sunset`.
 */
export async function authenticateKey(call: PosCall): Promise<Problem | undefined> {
  const { outcome, key, bucket, keyHash, known } = await call.deps.merchantKeys.verify(
    call.keyText ?? null,
    call.now,
  );
  // A refused key's check ends before its 401 goes out (a wrong key counts toward the IP block at once);
  // a right key's check ends with the quota's take, in the same round trip to a shared store
  // (`limitKeyRate`), or with the call when no take follows (the handler's `finally`).
  if (!outcome.ok) await call.keyCheck?.end(outcome.countsTowardIpBlock);
  // A key of the account, even one refused (expired, revoked, rotated out): the account's refusal to read
  // (docs/operations.md, Why did my call fail).
  if (known !== undefined)
    noteRequest(call.request, {
      subject: { kind: 'account', id: known.account_id },
      credential: known.id,
    });
  if (!outcome.ok) {
    return Problem.of('invalid_token', outcome.reason === null ? {} : { reason: outcome.reason }, {
      'www-authenticate': `Bearer realm="${REALM}"`,
    });
  }
  call.key = key;
  // Its last use: a mark in memory, written later by the flush (src/audit/key-use.ts).
  if (key !== undefined && keyHash !== undefined)
    call.deps.keyUse.mark('merchant', key.id, keyHash, call.now);
  if (outcome.superseded && outcome.supersededUntil !== null) {
    call.reply.headers({ deprecation: 'true', sunset: new Date(outcome.supersededUntil).toUTCString() });
  }
  call.keyBucket = bucket;
  return undefined;
}

/**
 * 429 for the key's quota in the route's class or the account's ceiling; from here on every response
 * carries `X-RateLimit-*` (Limits: errors count once the key is recognized).
 */
export async function limitKeyRate(call: PosCall): Promise<Problem | undefined> {
  const { key, route } = call;
  if (key === undefined || route === undefined) return undefined;
  const decision = await call.deps.limits.takeQuota({
    accountId: key.account_id,
    keyBucket: call.keyBucket ?? key.id,
    routeClass: route.routeClass,
    ...(call.keyCheck === undefined ? {} : { keyCheck: call.keyCheck }),
  });
  if (!decision.ok) return refuseByLimit(call, decision);
  setHeaders(call, decision.headers);
  call.quota = decision.quota;
  return undefined;
}

/** 415 without `code`: a GET with a body whose `Content-Type` is not JSON (only with a valid key, counted). */
export function rejectNonJsonBody(call: PosCall): Problem | undefined {
  const headers = call.request.headers;
  if (!hasRequestBody(headers) || isJsonMediaType(headers['content-type']?.toLowerCase())) return undefined;
  return Problem.withoutCode(415, 'A GET of this API takes no body; a body, if any, must be JSON.');
}

/**
 * 415 without `code`, with `Accept-Encoding: identity`: a GET with a body in a content coding, which the
 * API does not decode (RFC 9110, 15.5.16), at the place of the other 415. A GET without a body may carry
 * the header: there is nothing to decode.
 */
export function rejectEncodedBody(call: PosCall): Problem | undefined {
  const headers = call.request.headers;
  if (!hasRequestBody(headers) || unsupportedContentCoding(headers) === undefined) return undefined;
  return new Problem(
    null,
    {
      detail:
        'A GET of this API takes no body; a body, if any, must be JSON sent as is, without Content-Encoding.',
    },
    415,
    IDENTITY_ONLY,
  );
}

/** 403 `forbidden_permission` with the single missing permission of the route. */
export function requirePermission(call: PosCall): Problem | undefined {
  const { key, route } = call;
  if (key === undefined || route?.permission === null || route === undefined) return undefined;
  if (key.permissions.includes(route.permission)) return undefined;
  return Problem.of('forbidden_permission', {
    detail: `This key lacks the permission "${route.permission}" that this route requires.`,
    required_permission: route.permission,
  });
}

/** 422 `invalid_parameter`: unknown, repeated, missing or invalid query parameters. */
export function readQueryParameters(call: PosCall): Problem | undefined {
  if (call.route === undefined) return undefined;
  const raw = call.request.url.includes('?') ? call.request.url.slice(call.request.url.indexOf('?') + 1) : '';
  const result = readQuery(call.route.route, raw);
  if (!result.ok) return result.problem;
  call.query = result.values;
  return undefined;
}

/** The query values of the call's route, once `readQueryParameters` passed. */
export function queryOf<R extends PosRoute>(call: AuthenticatedPosCall, _route: R): PosQueryValues[R] {
  return call.query as PosQueryValues[R];
}

/** The 503 of a query that did not finish in time (Errors, 503). */
export function queryTimeoutProblem(): Problem {
  return Problem.of(
    'temporarily_unavailable',
    {
      detail: 'The request could not be completed in time. Retry after the time in the Retry-After header.',
    },
    { 'retry-after': '60' },
  );
}
