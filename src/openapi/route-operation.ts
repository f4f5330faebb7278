import type { RouteSpec } from '../http/route-spec.js';
import {
  headersObject,
  refusalResponses,
  type DocumentedHeader,
  type RefusalStyle,
  type ResponseHeaders,
} from './operation-responses.js';
import { exampleOf, type Json, type SchemaComponents } from './schema-components.js';

// One operation of a route table as an OpenAPI operation object: what every API's document shares. Each
// API adds what its own table carries (parameters, bodies, security, its words on headers).

/** How a document heads the successes of its operations. */
export interface SuccessStyle {
  headers(status: number): ResponseHeaders;
  headerNotes?: Partial<Record<DocumentedHeader, string>>;
}

/** The media type of a success body: JSON, or text for a schema that is plain text (/metrics). */
function mediaType(schema: Json): string {
  return schema.type === 'string' ? 'text/plain' : 'application/json';
}

/** The successes of a route: each status of its table with its body schema and example. */
function successResponses(
  route: RouteSpec,
  components: SchemaComponents,
  style: SuccessStyle,
): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const [status, zodSchema] of Object.entries(route.responses)) {
    const headers = headersObject(style.headers(Number(status)), style.headerNotes);
    const response: Json = {
      description: route.successDescriptions?.[Number(status)] ?? route.summary,
      ...(headers === undefined ? {} : { headers }),
    };
    if (zodSchema !== null) {
      const schema = components.convert(zodSchema, 'output');
      const example = route.examples?.[Number(status)] ?? exampleOf(schema, components);
      response.content = {
        [mediaType(schema)]: { schema, ...(example === undefined ? {} : { example }) },
      };
    }
    responses[status] = response;
  }
  return responses;
}

/**
 * The members every operation has: its tag, id, summary, description (a planned route says so, carries
 * `x-planned: true` and is tagged `PLANNED_TAG`), and its responses, successes first.
 */
export function routeOperation(
  route: RouteSpec,
  components: SchemaComponents,
  style: {
    success: SuccessStyle;
    refusal: RefusalStyle;
    /** What the API says first (scope, access). */ preamble?: string;
    /** The tag (group) of an operation in service; a planned one is in `PLANNED_TAG`. */
    tag?: string;
  },
): Json {
  const planned = route.planned === true;
  const description = [
    style.preamble,
    planned
      ? '**Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.'
      : undefined,
    route.description,
  ]
    .filter((part) => part !== undefined)
    .join('\n\n');
  const tag = planned ? PLANNED_TAG.name : style.tag;
  return {
    ...(tag === undefined ? {} : { tags: [tag] }),
    operationId: route.operationId,
    summary: route.summary,
    ...(description === '' ? {} : { description }),
    ...(planned ? { 'x-planned': true } : {}),
    responses: {
      ...successResponses(route, components, style.success),
      ...refusalResponses(route.problems, route.uncodedStatuses ?? [], style.refusal),
    },
  };
}

/**
 * The group of the planned operations: a tag of their own, listed last, so that a reader of the reference
 * sees them apart from the operations in service (the pages under /docs also mark each with a badge).
 */
export const PLANNED_TAG = {
  name: 'Planned — not yet available',
  description:
    'Documented and checked as described, then answered 501 `not_implemented`: nothing is stored or read. Parameters and responses are provisional, outside the v1 promise; do not integrate them until they are announced.',
} as const;

/** The OpenAPI form of a table path's method. */
export const openApiMethod = (route: RouteSpec): string => route.method.toLowerCase();
