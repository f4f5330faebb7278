import { STATUS_CODES } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

// Assertions on HTTP answers shared by the suites of both public APIs and the admin API.

export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * Identity headers of the operator's other systems: with a key, either API answers 400
 * `conflicting_credentials` (docs/api-conventions.md). Written from the document, not imported from the code.
 */
export const FOREIGN_HEADERS = [
  'Account-Token',
  'Api-Token',
  'Producer-Token',
  'EventOrganizer-Token',
  'EventOrganizer-Host',
  'Online-Catalog-Identifier',
] as const;
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

/** The parsed JSON body of a response. */
export function bodyOf(response: LightMyRequestResponse): Record<string, unknown> {
  return JSON.parse(response.body) as Record<string, unknown>;
}

/**
 * A problem+json refusal: status, `type` about:blank, `title` the status name, a non-empty `detail`, and
 * `code` (absent when null: the documented server-level refusals without code).
 */
export function expectProblem(
  response: LightMyRequestResponse,
  status: number,
  code: string | null,
): Record<string, unknown> {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toBe(PROBLEM_TYPE);
  const body = bodyOf(response);
  expect(body.type).toBe('about:blank');
  expect(body.title).toBe(STATUS_CODES[status]);
  expect(body.status).toBe(status);
  expect(typeof body.detail).toBe('string');
  expect(body.detail).not.toBe('');
  if (code === null) expect(body).not.toHaveProperty('code');
  else expect(body.code).toBe(code);
  return body;
}

/** A refusal of a public API: a problem with a server-made `X-Request-Id`. */
export function expectApiProblem(
  response: LightMyRequestResponse,
  status: number,
  code: string | null,
): Record<string, unknown> {
  expect(response.headers['x-request-id']).toMatch(UUID);
  return expectProblem(response, status, code);
}

/** No X-RateLimit-* header: the limit was not measured on this call. */
export function expectNoRateHeaders(response: LightMyRequestResponse): void {
  for (const name of RATE_HEADERS) expect(response.headers[name], name).toBeUndefined();
}

/**
 * Every X-RateLimit-* header, each an integer: the limit was measured on this call. With `limit` and
 * `remaining`, Limit and Remaining are those numbers (Reset any integer).
 */
export function expectRateHeaders(
  response: LightMyRequestResponse,
  limit?: number,
  remaining?: number,
): void {
  if (limit === undefined || remaining === undefined) {
    for (const name of RATE_HEADERS) expect(response.headers[name], name).toMatch(/^\d+$/);
    return;
  }
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}
