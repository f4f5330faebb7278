import type { FastifyRequest } from 'fastify';

/**
 * The token of an `Authorization: Bearer <token>` header: the scheme word in any case, spaces around
 * and between tolerated. Null when the header is absent or not of that shape.
 */
function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * The bearer token a request presents. Two or more `Authorization` headers present none: Node keeps only
 * the first of them, so which credential the client meant is ambiguous, and the call is answered as one
 * without a key (401) rather than authenticated with whichever came first.
 */
export function presentedBearerToken(request: Pick<FastifyRequest, 'headers' | 'raw'>): string | null {
  let count = 0;
  const raw = request.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === 'authorization') count += 1;
  }
  return count > 1 ? null : bearerToken(request.headers.authorization);
}
