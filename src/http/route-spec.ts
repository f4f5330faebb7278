import type { z } from 'zod';
import type { ProblemCode } from '../errors/problem-catalogue.js';

// What every API's route table says of an operation. Each API extends it with what its own gates read
// (a scope, a permission, a limit class, the admin access level); the OpenAPI documents are generated
// from the same tables.

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One operation of an API, as data. */
export interface RouteSpec {
  /** Stable name of the operation: OpenAPI `operationId`, metrics and log label. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The full path, parameters in braces: `/admin/v1/pos/accounts/{account}/keys`. */
  readonly path: string;
  /** A path parameter's own pattern (regex source), when it is narrower than one path segment. */
  readonly pathParams?: Readonly<Record<string, string>>;
  /** One line in the contract's words. */
  readonly summary: string;
  /** The rules of the operation in the contract's words, for its OpenAPI `description` (Markdown). */
  readonly description?: string;
  /** What a success status means, when the summary does not say it (201 created, 200 duplicate). */
  readonly successDescriptions?: Readonly<Record<number, string>>;
  /** An example body of a success status, where its schema's own example does not fit that status. */
  readonly examples?: Readonly<Record<number, unknown>>;
  /**
   * The body the operation reads, as the documents show it, when its table does not parse it with a
   * schema of its own (the ticket API reads its bodies by hand, in the contract's order of problems).
   */
  readonly requestBody?: z.ZodType;
  /** The successful answers: status → schema of the JSON body (null: no body). */
  readonly responses: Readonly<Record<number, z.ZodType | null>>;
  /** The problem codes the operation can answer (`application/problem+json` with `code`). */
  readonly problems: readonly ProblemCode[];
  /** Statuses the contract answers with a problem that has no `code` (documented exceptions only). */
  readonly uncodedStatuses?: readonly number[];
  /** A planned route: documented and checked, answered 501 `not_implemented`. */
  readonly planned?: boolean;
}
