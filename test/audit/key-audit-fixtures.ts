import { expect } from 'vitest';
import { asOperator, HD, POS } from '../admin/fixtures.js';
import { seedCatalog } from '../admin/helpdesk-admin-fixtures.js';
import { bodyOf } from '../expect-http.js';
import type { TestApp } from '../helper.js';

// The key audit suites' calls (docs/back-office.md, Audit trail and last use): a page of the trail as the back office
// reads it, and the systems whose keys it records.

type Body = Record<string, unknown>;

/** One page of a trail reading (200 expected). */
export async function auditPage(
  t: TestApp,
  url: string,
): Promise<{ data: Body[]; next_cursor: string | null }> {
  const response = await t.admin('GET', url);
  return bodyOf(response) as { data: Body[]; next_cursor: string | null };
}

/** The event names of a reading's first page, newest first. */
export async function eventNames(t: TestApp, url: string): Promise<unknown[]> {
  return (await auditPage(t, url)).data.map((event) => event.event);
}

/** A partner system with the minimal catalog (no key yet). */
export async function seedSystem(t: TestApp, identifier = 'alpha', body: Body = {}): Promise<void> {
  await seedCatalog(t);
  await t.admin('PUT', `${HD}/systems/${identifier}`, { name: 'Alpha', default_category_id: 10, ...body });
}

/** Rotates a system's key (201 expected): its first key, or a rotation. */
export async function rotateSystem(t: TestApp, identifier = 'alpha'): Promise<string> {
  const response = await asOperator(t, 'POST', `${HD}/systems/${identifier}/keys/rotate`);
  expect(response.statusCode, response.body).toBe(201);
  return String(bodyOf(response).key);
}

export { HD, POS };
