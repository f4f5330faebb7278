import { expect } from 'vitest';
import { bodyOf } from '../expect-http.js';
import type { TestApp } from '../helper.js';
import { asOperator } from './fixtures.js';

// The staff user suites' calls (docs/back-office.md, Staff users): the path, a user created through the admin API,
// and the token of a set-password link.

/** The staff users of the admin API. */
export const STAFF = '/admin/v1/staff/users';
/** The back-office action log. */
export const ACTIONS = '/admin/v1/audit/actions';

type Body = Record<string, unknown>;

/** Creates a staff user through the admin API (201 expected); answers the body. */
export async function createStaffUser(t: TestApp, body: Body = {}): Promise<Body> {
  const response = await asOperator(t, 'POST', STAFF, {
    email: 'bia@operator.example',
    name: 'Bia',
    role: 'support',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf(response);
}

/** The token in a set-password link. */
export function tokenOf(url: unknown): string {
  return new URL(String(url)).searchParams.get('token') ?? '';
}
