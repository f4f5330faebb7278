import type { z } from 'zod';
import { ADMIN_BODY_LIMIT_BYTES, type AdminRoute } from './admin-route.js';
import { problemCatalogue, type ProblemCode } from '../errors/problem-catalogue.js';
import { RECEIPTS_JSON_MAX_BYTES } from '../pos/receipts/receipt-json-stream.js';
import { addOperation, openApiDocument } from '../openapi/document-frame.js';
import type { RefusalStyle } from '../openapi/operation-responses.js';
import { openApiMethod, routeOperation, type SuccessStyle } from '../openapi/route-operation.js';
import { exampleOf, SchemaComponents, type Json } from '../openapi/schema-components.js';
import { ADMIN_API } from '../lib/api-registry.js';

// The OpenAPI document of the back office (docs/admin-rules.md), generated from the admin route table: each
// route's access level, the zod schemas of its path, query and body (as a client sends them) and of its
// answers.

const SECURITY = 'adminToken';

/** The media type of the receipts' stream (docs/admin-rules.md, Point of sale: POST receipts). */
const NDJSON = 'application/x-ndjson';

const ACCESS_WORDS: Readonly<Record<AdminRoute['access'], string>> = {
  operator: 'The operator’s token (`ADMIN_TOKEN`); the support token gets 403 `forbidden`.',
  support: 'The operator’s token, or the support token (`SUPPORT_TOKEN`).',
  open: 'No token.',
};

const DESCRIPTION = [
  'The operator’s back office: the help-desk catalog, partner systems and their keys, the maintenance switch, merchants’ accounts, places, events, the receipts that arrive from store devices, merchants’ API keys, and the staff users of the back-office console. Every successful change made through it (any method but GET) is recorded in the back-office action log (`GET /admin/v1/audit/actions`) with the token’s role, the channel and the client’s address. Served by the same process on its own listener (`ADMIN_HOST`, default `127.0.0.1`, and `ADMIN_PORT`, default `8081`).',
  '## Authentication',
  'Every call needs `Authorization: Bearer <ADMIN_TOKEN>`; a wrong or absent token gets 401. The optional `SUPPORT_TOKEN` may list systems, keys and tickets and revoke keys (POS revoke, help-desk stop-previous), and nothing else (403). `GET /healthz` and `GET /readyz` need no token.',
  '## Request ids',
  'Every answer carries `X-Request-Id`, as the public APIs’ do; the request’s log line carries the same id as `reqId`. The last refusals of a partner system or a merchant account (`…/refusals`) list the request ids of their refused calls.',
  '## Input',
  'JSON in and out. Bad input gets 400/404/409/422 in `application/problem+json` with a `code` and a `detail` that says what to fix, and changes nothing; a 422 `validation_failed` names the field in `param` (`body.name`, `path.id`, `query.limit`). The parts of a call are checked in the order path, body, query. `PUT` creates or replaces the resource named in the path (ids are chosen by the caller) and answers 200 with the stored resource, 201 when created; fields not given keep their default. The documents’ limits hold here too: an option `description` above 500 characters, a system identifier outside `^[a-z0-9_-]{1,40}$`, an identifier outside `^[A-Za-z0-9]{1,64}$` for accounts, places, events and receipts: 422.',
].join('\n\n');

const MIB = 1024 * 1024;

/** What a code means on this API where the catalogue's default detail is another API's. */
const CONDITIONS: Partial<Record<ProblemCode, string>> = {
  payload_too_large: `The JSON body is larger than ${ADMIN_BODY_LIMIT_BYTES / MIB} MiB (the receipts upload: ${RECEIPTS_JSON_MAX_BYTES / MIB} MiB as JSON; its NDJSON form has no size limit).`,
  temporarily_unavailable:
    'The process is shutting down and applied nothing of the call; send it again after `Retry-After` (another process of a fleet takes it). On the refusal lists: the shared store does not answer.',
};

const refusalStyle: RefusalStyle = {
  codeMeaning: (code) => CONDITIONS[code] ?? problemCatalogue[code].detail,
  headers: (refusal) =>
    refusal.status === 401
      ? { 'X-Request-Id': true, 'WWW-Authenticate': true }
      : refusal.status === 503
        ? { 'X-Request-Id': true, 'Retry-After': true } // a process shutting down (docs/operations.md, Running a fleet: Shutdown)
        : { 'X-Request-Id': true },
};

const successStyle: SuccessStyle = { headers: () => ({ 'X-Request-Id': true }) };

/** The members of a converted object schema, for parameters. */
function membersOf(schema: Json): { properties: Record<string, Json>; required: readonly string[] } {
  return {
    properties: (schema.properties ?? {}) as Record<string, Json>,
    required: (schema.required ?? []) as string[],
  };
}

function parameters(
  zodSchema: z.ZodType | undefined,
  where: 'path' | 'query',
  components: SchemaComponents,
): Json[] {
  if (zodSchema === undefined) return [];
  const { properties, required } = membersOf(components.convert(zodSchema, 'input'));
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    schema,
  }));
}

function requestBody(route: AdminRoute, components: SchemaComponents): Json | undefined {
  const body = route.body;
  if (body === undefined) return undefined;
  const schema = components.convert(route.requestBody ?? body.schema, 'input');
  const example = exampleOf(schema, components);
  const json = { schema, ...(example === undefined ? {} : { example }) };
  if (body.kind === 'json-or-ndjson') {
    return {
      required: true,
      description: `JSON, or NDJSON (\`${NDJSON}\`) of any length: one receipt object (\`ReceiptInput\`) per line.`,
      content: { 'application/json': json, [NDJSON]: { schema: { type: 'string' } } },
    };
  }
  // A missing (or empty) body stands for `absent` when the route has one (rotate: `{}`).
  return { required: body.absent === undefined, content: { 'application/json': json } };
}

/** The operation of one admin route. */
function adminOperation(route: AdminRoute, components: SchemaComponents): Json {
  const operation = routeOperation(route, components, {
    success: successStyle,
    refusal: refusalStyle,
    preamble: ACCESS_WORDS[route.access],
  });
  operation.tags = [tagOf(route.path)];
  operation['x-admin-access'] = route.access;
  if (route.access === 'open') operation.security = [];
  const params = [
    ...parameters(route.params, 'path', components),
    ...parameters(route.query, 'query', components),
  ];
  if (params.length > 0) operation.parameters = params;
  const body = requestBody(route, components);
  if (body !== undefined) operation.requestBody = body;
  return operation;
}

function tagOf(path: string): string {
  if (path.startsWith(`${ADMIN_API.prefix}helpdesk/`)) return 'Help desk';
  if (path.startsWith(`${ADMIN_API.prefix}audit/`) || path.endsWith('/audit')) return 'Key audit';
  if (path.startsWith(`${ADMIN_API.prefix}pos/`)) return 'Point of sale';
  return 'Service';
}

/** The document of the admin API, from its route table. */
export function adminDocument(routes: readonly AdminRoute[]): Json {
  const components = new SchemaComponents();
  const paths = new Map<string, Json>();
  for (const route of routes)
    addOperation(paths, route.path, openApiMethod(route), adminOperation(route, components));
  return openApiDocument(
    {
      title: 'Admin API (back office)',
      version: 'v1',
      description: DESCRIPTION,
      // Relative: the document is served by the admin listener itself, at whatever address it has.
      servers: [
        { url: '/', description: 'The admin listener (ADMIN_HOST:ADMIN_PORT, default 127.0.0.1:8081).' },
      ],
      security: {
        name: SECURITY,
        description: 'The operator’s `ADMIN_TOKEN`, or the support staff’s `SUPPORT_TOKEN`.',
      },
      problem: {
        intro: 'Every refusal of the back office, with a `code` and a `detail` that says what to fix.',
        extras: {
          param:
            'On 422 `validation_failed`: the field to fix, `body.<field>`, `path.<param>` or `query.<param>`; `receipts[<index>]` or `line[<number>]` for a receipt.',
          index: { type: 'integer', description: 'A refused receipt’s 0-based position in the JSON batch.' },
          line: {
            type: 'integer',
            description: 'A refused receipt’s 1-based line number in the NDJSON stream.',
          },
        },
      },
      tags: [
        { name: 'Service', description: 'Health, readiness, metrics and this document.' },
        {
          name: 'Help desk',
          description: 'The catalog, partner systems and their keys, tickets, the maintenance switch.',
        },
        { name: 'Point of sale', description: 'Merchants’ accounts, places, events, receipts and API keys.' },
        {
          name: 'Key audit',
          description:
            'Who issued, rotated, paused, reactivated, revoked or edited which key, when and from where; expiries and ends of grace. Send `X-Admin-Client: cli` from the CLI: the trail then names the channel `cli`.',
        },
      ],
    },
    paths,
    components,
  );
}
