import type { IncomingHttpHeaders } from 'node:http';

/**
 * The header of a 415 for a content coding (RFC 9110, 15.5.16 and 12.5.3): in a response, Accept-Encoding
 * names the codings the server takes in requests, and this service decodes none.
 */
export const IDENTITY_ONLY: Readonly<Record<string, string>> = Object.freeze({
  'accept-encoding': 'identity',
});

/**
 * The first content coding of the request other than `identity` (RFC 9110, 8.4: codings are
 * case-insensitive, listed in the order they were applied), or undefined when the body is sent as is.
 * The service decodes no coding, so a body labelled `gzip` is not JSON, whatever its bytes look like.
 */
export function unsupportedContentCoding(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['content-encoding'];
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .find((coding) => coding !== '' && coding !== 'identity');
}

/** True when the request carries a body: a chunked one, or a Content-Length other than 0. */
export function hasRequestBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
