import type { FastifyRequest } from 'fastify';
import { notFound } from '../../../errors/refusals.js';
import { systemPath } from '../../../helpdesk/system-input.js';
import { CONSOLE_PREFIX } from '../../console-path.js';

// Where a partner system's pages are, and what a change of one is called in the back-office log.

/** The route parameters of a system's pages. */
export interface Params {
  Params: { identifier: string };
}

/** The path of a system's page (`/systems/demo`), or of one of its pages (`/systems/demo/edit`). */
export const systemUrl = (identifier: string, tail = '') =>
  `${CONSOLE_PREFIX}/systems/${encodeURIComponent(identifier)}${tail}`;

/** The back-office log's target of a change, as the admin API's registrar writes it (the admin path). */
export const targetOf = (identifier: string, tail = '') => `helpdesk/systems/${identifier}${tail}`;

/** A system's identifier from the path: one outside the pattern is no system (404, as an unknown one). */
export function identifierOf(request: FastifyRequest<Params>): string {
  const parsed = systemPath.safeParse({ identifier: request.params.identifier });
  if (!parsed.success) throw notFound(`system "${request.params.identifier}"`);
  return parsed.data.identifier;
}
