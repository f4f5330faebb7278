import type { z } from 'zod';
import { Problem } from '../errors/problem.js';

/**
 * Parses a request part with a schema, or throws a 422 that names the field to fix
 * (`body.name: must not be empty`).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  part: 'body' | 'query' | 'path',
): z.infer<S> {
  const parsed = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = [part, ...(issue?.path ?? []).map(String)].join('.');
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown field(s) ${issue.keys.join(', ')}`
      : (issue?.message ?? 'invalid');
  throw Problem.of('validation_failed', { detail: `${where}: ${message}`, param: where });
}
