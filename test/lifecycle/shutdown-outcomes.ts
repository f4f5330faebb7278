import type { HttpResponse } from '../support/server-process.js';

// How the shutdown tests read what a load got back: the contract's 503.

/**
 * How a 503 differs from the one an API's document gives (helpdesk-ticket-api.md and pos-data-api.md,
 * Errors: problem+json with type, title, status, detail, code `temporarily_unavailable`; Retry-After;
 * X-Request-Id), closing its connection: empty when it does not.
 */
export function unavailableDeviations(
  response: HttpResponse,
  expected: { retryAfter?: string; requestId?: boolean } = {},
): string[] {
  const deviations: string[] = [];
  const { headers } = response;
  if (response.status !== 503) deviations.push(`status ${response.status}`);
  if (headers['content-type'] !== 'application/problem+json; charset=utf-8') {
    deviations.push(`content-type ${headers['content-type']}`);
  }
  const body = response.json as Record<string, unknown> | undefined;
  const keys = Object.keys(body ?? {})
    .sort()
    .join(',');
  if (keys !== 'code,detail,status,title,type') deviations.push(`members ${keys}`);
  if (
    body?.type !== 'about:blank' ||
    body.title !== 'Service Unavailable' ||
    body.status !== 503 ||
    body.code !== 'temporarily_unavailable' ||
    typeof body.detail !== 'string' ||
    body.detail === ''
  ) {
    deviations.push(`body ${response.text}`);
  }
  const retryAfter = headers['retry-after'];
  if (retryAfter === undefined || !/^[1-9]\d*$/.test(retryAfter))
    deviations.push(`retry-after ${retryAfter}`);
  if (expected.retryAfter !== undefined && retryAfter !== expected.retryAfter) {
    deviations.push(`retry-after ${retryAfter}, not ${expected.retryAfter}`);
  }
  const requestId = headers['x-request-id'];
  if ((expected.requestId ?? true) && (typeof requestId !== 'string' || requestId === '')) {
    deviations.push('no x-request-id');
  }
  if (headers.connection !== 'close') deviations.push(`connection ${headers.connection}`);
  return deviations;
}
