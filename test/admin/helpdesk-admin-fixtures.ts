import { expect } from 'vitest';
import { bodyOf } from '../expect-http.js';
import type { TestApp } from '../helper.js';
import { asOperator, HD } from './fixtures.js';

// The help-desk back-office suites' catalog and calls (docs/admin-rules.md, Help desk).

/** The minimal catalog a system needs: a type, a priority, two categories. */
export async function seedCatalog(t: TestApp): Promise<void> {
  await t.admin('PUT', `${HD}/category-types/1`, { name: 'Incidente' });
  await t.admin('PUT', `${HD}/priorities/1`, { name: 'Alta', level: 1, response_time_hours: 4 });
  await t.admin('PUT', `${HD}/categories/10`, { name: 'Terminal', type_id: 1, default_priority_id: 1 });
  await t.admin('PUT', `${HD}/categories/11`, { name: 'Impressora', type_id: 1 });
}

/** The rows of a help-desk collection, as the operator lists them. */
export async function list(t: TestApp, path: string): Promise<Record<string, unknown>[]> {
  return JSON.parse((await t.admin('GET', `${HD}/${path}`)).body) as Record<string, unknown>[];
}

/** Rotates the system's key: 201 {key, previous_valid_until}. */
export async function rotate(t: TestApp, system: string): Promise<Record<string, unknown>> {
  const response = await asOperator(t, 'POST', `${HD}/systems/${system}/keys/rotate`);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf(response);
}
