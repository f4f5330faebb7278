import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { pathMatcher } from '../src/http/route-path.js';
import type { RouteSpec } from '../src/http/route-spec.js';

// Holds an answer to what its route table says of the operation: a success has a status the table lists
// and a body its schema accepts (strict: an undocumented member fails); a refusal is problem+json with a
// code the table lists, or one of its statuses without code.

/** Checks one answer against the route table the request went through; returns the route. */
export function expectConforms<R extends RouteSpec>(
  routes: readonly R[],
  url: string,
  response: LightMyRequestResponse,
): R {
  const found = pathMatcher(routes).match(url.split('?')[0] ?? '');
  if (found === undefined) throw new Error(`no route of the table has the path of ${url}`);
  const { route } = found;
  const where = `${route.operationId} answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  if (response.statusCode < 300) {
    expect(Object.keys(route.responses), where).toContain(String(response.statusCode));
    const schema = route.responses[response.statusCode];
    if (schema === null || schema === undefined) expect(response.body, where).toBe('');
    else expect(() => schema.parse(JSON.parse(response.body)), where).not.toThrow();
    return route;
  }
  expect(response.headers['content-type'], where).toBe('application/problem+json; charset=utf-8');
  const code = (JSON.parse(response.body) as { code?: string }).code;
  if (code === undefined) expect(route.uncodedStatuses ?? [], where).toContain(response.statusCode);
  else expect(route.problems, where).toContain(code);
  return route;
}
