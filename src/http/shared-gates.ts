import type { IpBlock } from '../rate-limit/ip-block.js';
import { attempt } from '../rate-limit/rate-limit-store.js';
import { readBody, BODY_LIMIT_BYTES } from './body.js';
import type { ApiCall } from './gate.js';
import { Problem } from '../errors/problem.js';
import { noteRequest } from '../observability/request-facts.js';

// Gates that both public APIs put in their order of problems.

/** Identity headers of the operator's other systems (docs/api-conventions.md); Node lower-cases names. */
const FOREIGN_CREDENTIAL_HEADERS = [
  'account-token',
  'api-token',
  'producer-token',
  'eventorganizer-token',
  'eventorganizer-host',
  'online-catalog-identifier',
];

/** 400 `conflicting_credentials`: another system's authentication header was sent. */
export function rejectConflictingCredentials(call: ApiCall): Problem | undefined {
  const sent = FOREIGN_CREDENTIAL_HEADERS.find((name) => call.request.headers[name] !== undefined);
  if (sent === undefined) return undefined;
  return Problem.of('conflicting_credentials', {
    detail: `The header "${sent}" belongs to another system's authentication; send only Authorization: Bearer <API_KEY>.`,
  });
}

/** A call whose body has been read (empty when none was sent). */
export interface CallWithBody extends ApiCall {
  body: Buffer;
}

/** 413 `payload_too_large`: body above 65,536 bytes as sent, chunked bodies included. */
export async function limitBodySize(call: CallWithBody): Promise<Problem | undefined> {
  const read = await readBody(call.request.raw, call.request.headers['content-length'], BODY_LIMIT_BYTES);
  if (read.ok) {
    call.body = read.bytes;
    return undefined;
  }
  // The rest of the body is not read: close the connection rather than drain it.
  return Problem.of('payload_too_large', {}, { connection: 'close' });
}

/** 429 `rate_limited` for an IP blocked after wrong keys: real wait, no X-RateLimit-* headers. */
export async function rejectBlockedIp(call: ApiCall & { ipBlock: IpBlock }): Promise<Problem | undefined> {
  // Unmeasured when the shared store is unreachable: the call goes on (docs/api-conventions.md).
  const waitMs = await attempt(() => call.ipBlock.blockedFor(call.request.ip, call.now));
  if (waitMs === undefined || waitMs === 0) return undefined;
  noteRequest(call.request, { limit: 'ip_block' });
  return Problem.of(
    'rate_limited',
    {
      detail:
        'Too many calls with a wrong key came from this IP. Retry after the time in the Retry-After header.',
    },
    { 'retry-after': String(Math.ceil(waitMs / 1000)) },
  );
}
