import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { expectProblem } from '../expect-http.js';
import { ADMIN_TOKEN, adminAs, SUPPORT_TOKEN, type TestApp } from '../helper.js';

// What the back-office suites share: the two tokens, the 422 that names the field to fix, and the paths.

/** The help-desk half of the admin API. */
export const HD = '/admin/v1/helpdesk';
/** The point-of-sale half of the admin API. */
export const POS = '/admin/v1/pos';
/** An instant in UTC with Z in whole seconds, as the admin API writes them. */
export const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** A request to the admin listener with the operator's token; any status. */
export const asOperator = (
  t: Pick<TestApp, 'app'>,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
) => adminAs(t, ADMIN_TOKEN, method, url, body);

/** A request to the admin listener with the support token; any status. */
export const asSupport = (
  t: Pick<TestApp, 'app'>,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
) => adminAs(t, SUPPORT_TOKEN, method, url, body);

/** A 422 `validation_failed` whose detail and param name the field to fix (param may be a path to it). */
export function expectInvalid(response: LightMyRequestResponse, field: string): Record<string, unknown> {
  const body = expectProblem(response, 422, 'validation_failed');
  expect(String(body.detail)).toContain(field);
  expect(String(body.param)).toMatch(new RegExp(`(^|\\.)${field.replace(/[.[\]]/g, '\\$&')}$`));
  return body;
}

/** A 422 `validation_failed` whose param is exactly `param` and whose detail names it. */
export function expectInvalidParam(response: LightMyRequestResponse, param: string): Record<string, unknown> {
  const body = expectProblem(response, 422, 'validation_failed');
  expect(body.param).toBe(param);
  expect(String(body.detail)).toContain(param);
  return body;
}
