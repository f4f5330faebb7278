import { problemCatalogue, type ProblemCode } from '../errors/problem-catalogue.js';
import { ticketApiGates } from '../helpdesk/ticket-api.js';
import { systemInput } from '../helpdesk/system-input.js';
import { TICKET_LIMITS } from '../helpdesk/ticket-request.js';
import { TICKET_API_PREFIX, TICKET_OPTIONS_PROBLEMS, ticketRoutes } from '../helpdesk/ticket-routes.js';
import type { TicketRoute } from '../helpdesk/ticket-call.js';
import { BODY_LIMIT_BYTES } from '../http/body.js';
import { POS_IP_BLOCK_THRESHOLD } from '../pos/api/pos-limits.js';
import { addOperation, gateOrder, markdownTable, openApiDocument } from './document-frame.js';
import {
  headersObject,
  refusalResponses,
  type RefusalContext,
  type RefusalStyle,
  type ResponseHeaders,
} from './operation-responses.js';
import { openApiMethod, PLANNED_TAG, routeOperation, type SuccessStyle } from './route-operation.js';
import { SchemaComponents, type Json } from './schema-components.js';

// The OpenAPI document of the partner help-desk ticket API (docs/ticket-api.md), generated from its
// route table (ticket-routes.ts), its order of problems (ticketApiGates) and its limits.

const SECURITY = 'partnerKey';

/** The groups of the reference, in the order it lists them: the planned route last. */
const TAGS = {
  tickets: {
    name: 'Tickets',
    description:
      'Open a help-desk ticket with a JSON POST or through the system’s webhook, and read the choices a ticket can carry.',
  },
  methods: {
    name: 'Methods (OPTIONS)',
    description:
      '`OPTIONS` on each route: the methods it accepts, in `Allow`. Needs the key and counts toward the limit.',
  },
} as const;

/** A system's defaults when the operator sets nothing (docs/admin-rules.md: PUT systems). */
const systemDefaults = systemInput.pick({ rate_limit_per_minute: true, key_grace_seconds: true }).parse({});

/** One line per gate of `ticketApiGates`, in the contract's words (Authentication: order of problems). */
const GATE_LINES: Readonly<Record<string, string>> = {
  answerMaintenance:
    '503 `temporarily_unavailable` with `Retry-After` while the API is switched off for a while, on every path under the prefix, before any other check.',
  rejectConflictingCredentials:
    '400 `conflicting_credentials`: a header of another system’s authentication was sent (`Account-Token`, `Api-Token`, `Producer-Token`, `EventOrganizer-Token`, `EventOrganizer-Host`, `Online-Catalog-Identifier`; any value, names case-insensitive).',
  findRoute:
    '404 `not_found`: the path begins with the prefix but is no route (typo, trailing slash, `{system}` outside its pattern), or is a route of this API in another version or without version.',
  requireRouteMethod:
    '405 `method_not_allowed` with `Allow`: a method other than the route’s (`HEAD` on a GET route too). `OPTIONS` does not get 405.',
  limitBodySize: `413 \`payload_too_large\`: a body above ${BODY_LIMIT_BYTES.toLocaleString('en')} bytes as sent, on every route, the webhook too.`,
  requireJsonContentType:
    '415 `unsupported_media_type` on the ticket and lead routes: no `Content-Type`, or one other than lowercase JSON.',
  rejectContentCoding:
    '415 `unsupported_media_type` with `Accept-Encoding: identity` on the ticket and lead routes: the body is sent with a `Content-Encoding` other than `identity` (the webhook reads such a body as unreadable, after the key).',
  requireJsonObjectBody:
    '422 `invalid_body` on the ticket and lead routes: the body is not a JSON object (broken JSON or invalid UTF-8 included).',
  rejectBlockedIp:
    '429 `rate_limited` while the calling IP is blocked after wrong keys (no `X-RateLimit-*`).',
  authenticateKey:
    '401 `unauthorized` with `WWW-Authenticate: Bearer`: key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key.',
  rejectInactiveSystem: '403 `system_inactive`, before the rate-limit check (no `X-RateLimit-*`).',
  limitSystemRate:
    '429 `rate_limited`: the system’s limit (with `X-RateLimit-*`, Remaining 0). From here on every response carries `X-RateLimit-*`.',
  answerOptions: '`OPTIONS`: 200 with `Allow` and no body (it needs the key and counts toward the limit).',
  requireScope: '403 `forbidden_scope` with `required_scope`.',
  requireWebhookObjectBody:
    'Webhook only: 400 without `code` (JSON type, body not an object or list) or 422 `invalid_body` (a list, or any non-object under another type).',
};

function description(): string {
  const limits = markdownTable(
    ['What', 'Limit'],
    [
      [
        'Calls per system',
        `${systemDefaults.rate_limit_per_minute} per one-minute window by default; support may agree another value`,
      ],
      ['Request body', `${BODY_LIMIT_BYTES.toLocaleString('en')} bytes (413)`],
      ['external_id', `${TICKET_LIMITS.externalId} characters`],
      ['description', `${TICKET_LIMITS.description} characters`],
      [
        'requester.name / requester.contact',
        `${TICKET_LIMITS.requesterName} / ${TICKET_LIMITS.requesterContact} characters (truncated)`,
      ],
      [
        '`ignored_fields` list',
        `${TICKET_LIMITS.ignoredFieldNames} names, ${TICKET_LIMITS.ignoredFieldNameLength} characters each`,
      ],
      ['Option description', '500 characters'],
      ['System identifier in webhook path', '40 characters'],
      ['Previous key after rotation', `valid ${systemDefaults.key_grace_seconds / 3600} hours`],
      ['Wrong keys from one IP (IPv6: one /64) that block it', `${POS_IP_BLOCK_THRESHOLD} within 60 seconds`],
    ],
  );
  return [
    `Partner systems open help-desk tickets with a JSON POST or a webhook-style POST, read the choices available when opening a ticket, and call a planned lead route. Path prefix: \`${TICKET_API_PREFIX}\`. HTTPS only; a staging address, if any, is given by support together with the key.`,
    '## Authentication',
    'Every call carries `Authorization: Bearer <API_KEY>` (the scheme word is case-insensitive); the key starts with `gtes_` followed by 43 characters. Send no other authentication header. Scopes: `help-desk-ticket.create` allows the options, ticket and webhook routes; `lead.create` the lead route. Key rotation: the previous key stays valid 24 hours (unless agreed otherwise), then gets 401.',
    '## Order in which problems are answered',
    'One problem at a time; fixing one may reveal the next. Nothing before the key needs or counts it.',
    `${gateOrder(ticketApiGates, GATE_LINES)}\n${ticketApiGates.length + 1}. The route: field 422s in the order of the ticket request table (with \`param\`), 503 \`misconfigured_system\`, then 201/200 (501 on the lead route).`,
    '## Errors',
    'Every refusal of this API is `application/problem+json` with `type`, `title`, `status`, `detail`, `code` (plus `param` on field 422s and `required_scope` on `forbidden_scope`). Logic uses `code`, never `detail`; codes are open text: a code not known to the client is handled by status. The one refusal without `code` is the webhook’s 400. Every response carries `X-Request-Id`, the 404 of a path of this API in another or no version too (not the HTML 404 of a path outside the prefix).',
    '## Limits',
    limits,
    'Rate-limit headers `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` come on every response issued after the system’s limit check; without them the limit was not measured on that call (never read as zero). 429 `rate_limited` has two causes with the same response: the system’s limit (with `X-RateLimit-*`) or an IP block (without). `Retry-After` is the real wait in seconds: wait, then resend with the same `external_id`; do not loop.',
    '## Versioning',
    'v1, in the path. Changes within v1 are additive only: new fields, warnings and codes can appear; ignore what is unknown. The documentation is served outside the API, under `/docs`; the API’s former documentation routes answer 404.',
  ].join('\n\n');
}

/** Statuses answered before the system's rate check only: they never carry `X-RateLimit-*`. */
const BEFORE_RATE_CHECK = new Set([401, 404, 405, 413, 415]);

function refusalHeaders(refusal: RefusalContext): ResponseHeaders {
  const headers: ResponseHeaders = { 'X-Request-Id': true };
  // The webhook's 400 without code comes after the rate check; conflicting_credentials long before it.
  const rated =
    !BEFORE_RATE_CHECK.has(refusal.status) && (refusal.uncoded || !onlyBeforeRateCheck(refusal.codes));
  if (rated) {
    headers['X-RateLimit-Limit'] = false;
    headers['X-RateLimit-Remaining'] = false;
    headers['X-RateLimit-Reset'] = false;
  }
  if (refusal.status === 401) headers['WWW-Authenticate'] = true;
  if (refusal.status === 405) headers.Allow = true;
  if (refusal.status === 429 || refusal.status === 503) headers['Retry-After'] = true;
  return headers;
}

/** Codes answered before the rate check whatever the route: 400 conflicting_credentials alone, say. */
function onlyBeforeRateCheck(codes: readonly ProblemCode[]): boolean {
  return codes.length > 0 && codes.every((code) => code === 'conflicting_credentials');
}

/** When each code is answered (docs/ticket-api.md, Errors: the Condition column). */
const CONDITIONS: Partial<Record<ProblemCode, string>> = {
  conflicting_credentials:
    'A header of another system’s authentication was sent. Before the key, not counted in the limit.',
  unauthorized:
    'Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.',
  system_inactive: 'System deactivated. No `X-RateLimit-*` headers.',
  forbidden_scope:
    'Key lacks the route’s scope; the body has `required_scope`. `X-RateLimit-*` headers present.',
  not_found:
    'The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.',
  method_not_allowed: 'Wrong method; header `Allow`. Before the key, not counted in the limit.',
  payload_too_large: `Body above ${BODY_LIMIT_BYTES.toLocaleString('en')} bytes counted as sent (bytes, not characters). Before the key.`,
  unsupported_media_type:
    'Body sent without `Content-Type` or with one other than lowercase JSON. Before the key.',
  invalid_body:
    'Body is not a JSON object (broken JSON or invalid UTF-8 included). Before the key on the JSON routes (no `X-RateLimit-*`), after it on the webhook (with them). No `param`.',
  invalid_field:
    'A text field contains NUL, or a field has a JSON type it cannot have; `param` names the field.',
  missing_external_id: 'Required field absent, empty or null (`param`).',
  missing_description: 'Required field absent, empty or null (`param`).',
  missing_company: 'Required field absent, empty or null (`param`).',
  field_too_long: `\`external_id\` above ${TICKET_LIMITS.externalId} or \`description\` above ${TICKET_LIMITS.description} characters (only these two fields).`,
  invalid_company: 'Company not in the list; `detail` lists the valid ones.',
  invalid_nature: 'Nature not in the list.',
  rate_limited:
    'The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.',
  internal_error: 'Unexpected failure; nothing was applied.',
  not_implemented: 'The lead route is planned.',
  temporarily_unavailable:
    'The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.',
  misconfigured_system:
    'The system cannot open tickets because of its own configuration (no usable default category); `Retry-After` 300. Keep the ticket and resend, as for any 503.',
};

const refusalStyle: RefusalStyle = {
  codeMeaning: (code) => CONDITIONS[code] ?? problemCatalogue[code].detail,
  uncodedMeaning: () =>
    'a body that is not a JSON object or list under a JSON `Content-Type` (server-level, after the key and the rate check).',
  headers: refusalHeaders,
  headerNotes: (refusal) =>
    refusal.status === 503
      ? {
          'Retry-After':
            'Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300.',
        }
      : refusal.status === 429
        ? { 'X-RateLimit-Limit': 'Present on the system-limit 429, absent on the IP-block 429.' }
        : {},
};

const successStyle: SuccessStyle = {
  headers: () => ({
    'X-Request-Id': true,
    'X-RateLimit-Limit': false,
    'X-RateLimit-Remaining': false,
    'X-RateLimit-Reset': false,
  }),
};

function ticketOperation(route: TicketRoute, components: SchemaComponents): Json {
  const operation = routeOperation(route, components, {
    success: successStyle,
    refusal: refusalStyle,
    preamble: `Scope \`${route.scope}\`.`,
    tag: TAGS.tickets.name,
  });
  const pattern = route.pathParams?.system;
  if (pattern !== undefined) {
    operation.parameters = [
      {
        name: 'system',
        in: 'path',
        required: true,
        description: 'The system identifier given by support (lowercase letters, digits, `-`, `_`).',
        schema: { type: 'string', pattern: `^${pattern}$`, maxLength: 40 },
      },
    ];
  }
  if (route.requestBody !== undefined) {
    const schema = components.convert(route.requestBody, 'input');
    const json = { schema, example: exampleOfRequest(route, components) };
    operation.requestBody = {
      required: true,
      content:
        route.body === 'webhook'
          ? {
              'application/json': json,
              '*/*': { schema: { type: 'string' }, example: JSON.stringify(json.example) },
            }
          : { 'application/json': json },
    };
  }
  return operation;
}

function exampleOfRequest(route: TicketRoute, components: SchemaComponents): unknown {
  const schema = route.requestBody === undefined ? undefined : components.convert(route.requestBody, 'input');
  const ref = typeof schema?.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : '';
  const examples = components.get(ref)?.examples;
  return Array.isArray(examples) ? examples[0] : undefined;
}

/** OPTIONS on a route: 200 with `Allow`, no body; needs the key and counts (Method handling). */
function optionsOperation(route: TicketRoute): Json {
  return {
    tags: [TAGS.methods.name],
    operationId: `${route.operationId}Options`,
    summary: `The methods ${route.path} accepts.`,
    description:
      'Needs the key and counts toward the rate limit, but needs no scope; returns 200 with no body and an `Allow` header listing the route’s method and `OPTIONS`.',
    responses: {
      '200': {
        description: 'No body; `Allow` lists the route’s method and `OPTIONS`.',
        headers: headersObject({ ...successStyle.headers(200), Allow: true }),
      },
      ...refusalResponses(TICKET_OPTIONS_PROBLEMS, [], refusalStyle),
    },
  };
}

/** The document of the ticket API; `baseUrl` is `{base_url}` (config PUBLIC_BASE_URL). */
export function helpDeskDocument(baseUrl: string): Json {
  const components = new SchemaComponents();
  const paths = new Map<string, Json>();
  for (const route of ticketRoutes) {
    const operation = ticketOperation(route, components);
    addOperation(paths, route.path, openApiMethod(route), operation);
    const options = optionsOperation(route);
    if (operation.parameters !== undefined) options.parameters = operation.parameters;
    addOperation(paths, route.path, 'options', options);
  }
  return openApiDocument(
    {
      title: 'Partner Help Desk Ticket API',
      version: 'v1',
      description: description(),
      servers: [{ url: baseUrl, description: '{base_url}: the deployment’s own address.' }],
      security: {
        name: SECURITY,
        description:
          '`Authorization: Bearer <API_KEY>`: `gtes_` followed by 43 characters, issued by support with the granted scopes and the system identifier.',
      },
      problem: {
        intro: 'Every refusal of this API (`application/problem+json`). Logic uses `code`, never `detail`.',
        extras: {
          param:
            'Only on 422 about one body field: `external_id`, `description`, `company`, `nature`, `requester.name`, `requester.contact`. Absent on `invalid_body`.',
          required_scope: 'Only on 403 `forbidden_scope`: `help-desk-ticket.create` or `lead.create`.',
        },
      },
      tags: [TAGS.tickets, TAGS.methods, PLANNED_TAG],
    },
    paths,
    components,
  );
}
