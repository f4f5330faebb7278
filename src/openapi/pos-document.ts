import { problemCatalogue, type ProblemCode } from '../errors/problem-catalogue.js';
import { posApiGates } from '../pos/api/pos-api.js';
import {
  POS_ABSOLUTE_CEILING,
  POS_ACCOUNT_CEILING,
  POS_ACCOUNT_SALES_IN_PROGRESS,
  POS_DOCS_PER_IP,
  POS_IP_BLOCK_THRESHOLD,
  POS_KEY_QUOTA,
  POS_LIMITS_DEFAULTS,
  POS_UNAUTHENTICATED_PER_IP,
} from '../pos/api/pos-limits.js';
import { POS_API_PREFIX, posRoutes } from '../pos/api/pos-routes.js';
import type { PosRouteDef } from '../pos/api/pos-call.js';
import { PAYMENT_METHODS } from '../pos/receipts/payment-methods.js';
import {
  POS_QUERY_ROUTES,
  QUERY_LIMITS,
  type ParamSpec,
  type RouteQuerySpec,
} from '../pos/api/query-routes.js';
import { addOperation, gateOrder, markdownTable, openApiDocument } from './document-frame.js';
import type { RefusalContext, RefusalStyle, ResponseHeaders } from './operation-responses.js';
import { openApiMethod, PLANNED_TAG, routeOperation, type SuccessStyle } from './route-operation.js';
import { SchemaComponents, type Json } from './schema-components.js';

// The OpenAPI document of the point-of-sale data API (docs/pos-api.md), generated from its route table
// (pos-routes.ts), the parameter tables of query-params.ts, its order of problems (posApiGates) and
// its limits (pos-limits.ts).

const SECURITY = 'merchantKey';

/** The groups of the reference, in the order it lists them: the planned routes last. */
const TAGS = {
  key: {
    name: 'Key and places',
    description: 'Check the key, its account and its limits (`ping`), and list the places it reaches.',
  },
  events: { name: 'Events', description: 'The events of a place, searchable by name, in cursor pages.' },
  sales: {
    name: 'Sales',
    description: 'Receipts of a place in a period, by payment method and card brand.',
  },
} as const;

/** The group of a route in service, by its path under the prefix. */
function tagOf(route: PosRouteDef): string {
  if (route.route === 'events') return TAGS.events.name;
  if (route.route.startsWith('sales/')) return TAGS.sales.name;
  return TAGS.key.name;
}

const IDENTIFIER = `^[A-Za-z0-9]{1,${QUERY_LIMITS.identifierLength}}$`;

/** One line per gate of `posApiGates`, in the contract's words (Authentication, Errors, Limits). */
const GATE_LINES: Readonly<Record<string, string>> = {
  rejectConflictingCredentials:
    '400 `conflicting_credentials`: an identity header of another system (`Account-Token`, `Api-Token`, `Producer-Token`, `EventOrganizer-Token`, `EventOrganizer-Host`, `Online-Catalog-Identifier`), any value; not counted.',
  findRoute:
    '404 `not_found` without `param`: a nonexistent address (typo, trailing slash, missing `/v1`); neither counted nor blocked.',
  requireGet:
    '405 `method_not_allowed` with `Allow: GET`: any method other than GET, HEAD and OPTIONS included, with or without key; not counted.',
  rejectOtherVersionAccept:
    '404 `not_found`: an `Accept` with a versioned media type of another version (`application/vnd.<name>.v<number>+json`); any other `Accept` gets JSON.',
  rejectBlockedIp: `429 \`rate_limited\`: the IP is blocked after ${POS_IP_BLOCK_THRESHOLD} wrong keys in 60 seconds (\`Retry-After\` the real wait, 1 to 60).`,
  limitAbsoluteCeiling:
    '429 `rate_limited`: the absolute ceiling per presented key text and class, checked before the key is read (refused calls count too).',
  guardUnauthenticatedCalls: `429 \`rate_limited\`: too many unauthenticated calls from one IP at once (in progress plus wrong-key failures of the last minute, above ${POS_UNAUTHENTICATED_PER_IP}).`,
  authenticateKey:
    '401 `invalid_token` with `WWW-Authenticate: Bearer realm=…`: key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. From here on, a previous key of a rotation gets `Deprecation` and `Sunset`.',
  limitKeyRate:
    '429 `rate_limited`: the key’s quota in the route’s class, or the account ceiling. From here on every response carries `X-RateLimit-*`, and counts.',
  rejectNonJsonBody: '415 without `code`: a GET with a body whose `Content-Type` is not JSON.',
  rejectEncodedBody:
    '415 without `code`, with `Accept-Encoding: identity`: a GET with a body sent with a `Content-Encoding` other than `identity`.',
  requirePermission:
    '403 `forbidden_permission` with `required_permission`: the key lacks the route’s permission.',
  readQueryParameters:
    '422 `invalid_parameter` with `param`: unknown parameters first, then repeated, missing, invalid values, then periods.',
};

function description(): string {
  const limits = markdownTable(
    ['What', 'Limit'],
    [
      [
        'Default class (ping, places, events, other routes)',
        `${POS_KEY_QUOTA.default} calls per minute per key`,
      ],
      [
        'Heavy class (receipts by payment method and other sales routes)',
        `${POS_KEY_QUOTA.heavy} calls per minute per key`,
      ],
      [
        'Sum of all keys of an account',
        `${POS_ACCOUNT_CEILING.heavy} per minute on sales routes, ${POS_ACCOUNT_CEILING.default} on the others`,
      ],
      ['Sales queries in progress at once', `${POS_ACCOUNT_SALES_IN_PROGRESS} per account`],
      ['Maximum period per query', '120 days (none with `event`)'],
      ['Maximum query time', '15 seconds for receipts, 3 seconds for the events list; beyond that 503'],
      ['Active keys per account', '20'],
      ['Key validity', '12 months by default, up to 24 months'],
      [
        '`limit` (page size)',
        `${QUERY_LIMITS.pageSizeMin} to ${QUERY_LIMITS.pageSizeMax}, default ${QUERY_LIMITS.pageSizeDefault}`,
      ],
      ['`search` length', `1 to ${QUERY_LIMITS.searchLength} characters`],
      ['Identifier length', `up to ${QUERY_LIMITS.identifierLength} characters`],
    ],
  );
  const refusals = markdownTable(
    ['Refused by', 'Retry-After', 'X-RateLimit-Limit / Remaining'],
    [
      ['the key’s quota in the route’s class', '60', 'the key’s limit; 0'],
      ['the account ceiling (sum of keys)', '60', 'the key’s limit (not the account’s); 0'],
      [
        `concurrent sales queries (the account already has ${POS_ACCOUNT_SALES_IN_PROGRESS} running, or the whole API's ${POS_LIMITS_DEFAULTS.salesInProgressCeiling} are)`,
        '5',
        'the key’s limit; the real remaining balance, already discounting this call',
      ],
      [
        `IP blocked for wrong keys (${POS_IP_BLOCK_THRESHOLD} in 60 seconds)`,
        'real wait, 1 to 60',
        `${POS_IP_BLOCK_THRESHOLD}; 0`,
      ],
      [
        `too many unauthenticated calls from one IP at once (above ${POS_UNAUTHENTICATED_PER_IP})`,
        '60',
        `${POS_UNAUTHENTICATED_PER_IP}; 0`,
      ],
      [
        `absolute ceiling per key text and class (${POS_ABSOLUTE_CEILING.default} default, ${POS_ABSOLUTE_CEILING.heavy} heavy; refused calls count)`,
        '60',
        'that ceiling’s value; 0',
      ],
      [`per-IP limit of the documentation pages (${POS_DOCS_PER_IP} per minute)`, '60', 'absent'],
    ],
  );
  const methods = markdownTable(
    ['payment_method', 'label'],
    PAYMENT_METHODS.map((method) => [`\`${method.code}\``, method.label]),
  );
  return [
    `The read-only data of one account that its owner released: places, events of a place, receipts by payment method, and planned routes that answer 501. Path prefix: \`${POS_API_PREFIX}\`. HTTPS only; there is no test environment and no test key: calls go to production. Meant for servers and apps, not for a web page’s JavaScript. Every route accepts only GET, with no body and no \`Content-Type\`.`,
    '## Conventions',
    'Input dates: ISO 8601 with a time zone offset or `Z`, mandatory; a `+` in an offset must be sent as `%2B`. Periods include the start and exclude the end. Output dates: always UTC with `Z`. Money: text with a dot and two decimals (may be negative); convert to a decimal type. Identifiers: letters and digits, up to 64 characters; store and return as text. Unknown query parameters are always refused (422), never ignored; a parameter sent more than once (`place[]=A&place[]=B` too) gives 422 with that `param`.',
    '## Authentication',
    '`Authorization: Bearer <API_KEY>` on every call (`gtpk_`, 48 characters in total; `bearer` in lowercase and extra spaces accepted); no other way. `ping` and `places` need no permission; `/events` needs `event.view`, `/sales/by-payment-method` needs `sale-by-payment-method.view`; planned routes need none. A key reaches only the places chosen for it (or all). Responses authenticated by the previous key of a rotation (success or error) carry `Deprecation: true` and `Sunset` (the instant of `superseded_until`); they are absent with the current key and on responses issued before the key is checked.',
    '## Order in which problems are answered',
    `${gateOrder(posApiGates, GATE_LINES)}\n${posApiGates.length + 1}. The route: 404 place or event (with \`param\`), 422 cursor, 429 concurrent sales queries, 503 time limit, 501 planned.`,
    '## Errors',
    'Every error is JSON with a stable `code`; decide by status, then `code`; `detail` is English text for humans and may change. Two responses come without `code`: a GET with a body and a non-JSON `Content-Type` (415, only with a valid key, counted), and an unexpected 5xx from the server in front of the API. Every API response has `X-Request-Id`. `param` choice for 422: the first unknown parameter (the detail names at most 5, each cut to 40 characters); an invalid or repeated parameter: that one; `from` without `to` or the reverse: the missing one; `from` after `to`: `from`; period too long: `to`. 503 `temporarily_unavailable` (`Retry-After` 60): the query did not finish in time, or (receipts only) the concurrency control was unavailable.',
    '## Limits',
    limits,
    'Every authenticated response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` (the lower of the key’s and the account’s balance) and `X-RateLimit-Reset` (Unix seconds, an upper bound; the window is sliding). Errors count once the key is recognized. 429 cases (code always `rate_limited`):',
    refusals,
    '## Payment methods',
    `Codes may be added; treat an unknown one as \`other\`.\n\n${methods}`,
    '## Versioning',
    'v1 in the path (`/v1` is mandatory). Within v1 only non-breaking changes: ignore unknown fields and do not fail on a new code. Planned routes (501) are outside the promise. The documentation is served outside the API, under `/docs`; its former paths under `/v1/api-public/docs` answer 404.',
  ].join('\n\n');
}

/** A query parameter of a route's table as an OpenAPI parameter (docs/pos-api.md, the route's table). */
function queryParameter(param: ParamSpec, spec: RouteQuerySpec): Json {
  const period = spec.periods.find((p) => p.from === param.name || p.to === param.name);
  const partner = period === undefined ? undefined : period.from === param.name ? period.to : period.from;
  const notes: string[] = [];
  let schema: Json;
  switch (param.kind) {
    case 'place':
      schema = { type: 'string', pattern: IDENTIFIER };
      notes.push(
        'Exactly one place id from `/places`; absent, empty or a list (`a,b`, `place[]`) gives 422; a place outside the key or nonexistent gives 404 with `param` `place` (nothing is queried).',
      );
      break;
    case 'event':
      schema = { type: 'string', pattern: IDENTIFIER };
      notes.push(
        'One event id of that place; a list gives 422; nonexistent or of another place: 404 with `param` `event`; with both place and event wrong, `place` is reported.',
      );
      break;
    case 'placeList':
      schema = {
        type: 'string',
        pattern: `^[A-Za-z0-9]{1,${QUERY_LIMITS.identifierLength}}(,[A-Za-z0-9]{1,${QUERY_LIMITS.identifierLength}}){0,${QUERY_LIMITS.placeListLength - 1}}$`,
      };
      notes.push(
        `Comma-separated place ids, at most ${QUERY_LIMITS.placeListLength}, none repeated; default all places of the key; outside the key gives 404 with \`param\` \`place\`.`,
      );
      break;
    case 'instant':
      schema = { type: 'string', format: 'date-time' };
      notes.push(
        'ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up.',
      );
      break;
    case 'limit':
      schema = {
        type: 'integer',
        minimum: QUERY_LIMITS.pageSizeMin,
        maximum: QUERY_LIMITS.pageSizeMax,
        default: QUERY_LIMITS.pageSizeDefault,
      };
      notes.push('Page size; outside the range: 422. May change between pages without repeats or gaps.');
      break;
    case 'search':
      schema = { type: 'string', minLength: 1, maxLength: QUERY_LIMITS.searchLength };
      notes.push(
        'Part of the event name, case- and accent-insensitive; `%`, `_` and backslash are plain text, not wildcards; a control or invisible character anywhere, or an empty value, gives 422. Keep it unchanged while paging.',
      );
      break;
    case 'cursor':
      schema = { type: 'string', minLength: 1 };
      notes.push(
        '`next_cursor` of the previous page; opaque and bound to the query. Used with another place: 422 `"cursor" does not belong to this query.`; not issued by the API, or its event deleted meanwhile: 422 `"cursor" is not valid.` (restart from the first page). It does not expire by time.',
      );
      break;
  }
  if (period !== undefined && partner !== undefined) {
    notes.push(
      param.name === period.from
        ? `Start of the period, included; sent without \`${partner}\`: 422 naming \`${partner}\`; after \`${partner}\`: 422 with \`param\` \`${param.name}\`.`
        : `End of the period, excluded; sent without \`${partner}\`: 422 naming \`${partner}\`; at most ${period.maxDays} days after \`${partner}\` (422 with \`param\` \`${param.name}\`)${period.unlimitedWith === undefined ? '' : `, no limit with \`${period.unlimitedWith}\``}.`,
    );
  }
  if (spec.onePeriodRequired && period !== undefined) {
    notes.push('At least one pair of dates is required.');
  }
  return { name: param.name, in: 'query', required: param.required, description: notes.join(' '), schema };
}

/** Statuses answered before the key: no X-RateLimit-*, no Deprecation or Sunset. */
const BEFORE_KEY = new Set([400, 401, 405]);

function refusalHeaders(refusal: RefusalContext): ResponseHeaders {
  const headers: ResponseHeaders = { 'X-Request-Id': true };
  if (!BEFORE_KEY.has(refusal.status)) {
    headers['X-RateLimit-Limit'] = false;
    headers['X-RateLimit-Remaining'] = false;
    headers['X-RateLimit-Reset'] = false;
    headers.Deprecation = false;
    headers.Sunset = false;
  }
  if (refusal.status === 401) headers['WWW-Authenticate'] = true;
  if (refusal.status === 405) headers.Allow = true;
  if (refusal.status === 429 || refusal.status === 503) headers['Retry-After'] = true;
  return headers;
}

/** When each code is answered (docs/pos-api.md, Errors: the Condition column). */
const CONDITIONS: Partial<Record<ProblemCode, string>> = {
  conflicting_credentials: 'An identity header of another system was sent; before the key, not counted.',
  invalid_token:
    'Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.',
  forbidden_permission: 'The key lacks the route’s permission; the body has `required_permission`.',
  not_found:
    '`place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).',
  method_not_allowed:
    'Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.',
  invalid_parameter:
    'A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.',
  rate_limited: 'A limit was reached (see the 429 table of the API’s description); header `Retry-After`.',
  internal_error: 'Unexpected failure.',
  not_implemented: 'The route is planned.',
  temporarily_unavailable:
    'The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.',
};

const refusalStyle: RefusalStyle = {
  codeMeaning: (code) => CONDITIONS[code] ?? problemCatalogue[code].detail,
  uncodedMeaning: () =>
    'a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).',
  headers: refusalHeaders,
  headerNotes: (refusal) =>
    refusal.status === 429
      ? {
          'X-RateLimit-Limit':
            'On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit.',
        }
      : {},
};

const successStyle: SuccessStyle = {
  headers: () => ({
    'X-Request-Id': true,
    'X-RateLimit-Limit': false,
    'X-RateLimit-Remaining': false,
    'X-RateLimit-Reset': false,
    Deprecation: false,
    Sunset: false,
  }),
  headerNotes: {
    'X-RateLimit-Limit': 'Present on every authenticated response while the limits are measured.',
    Deprecation: 'Only on calls authenticated by the previous key of a rotation.',
  },
};

function posOperation(route: PosRouteDef, components: SchemaComponents): Json {
  const access =
    route.permission === null
      ? route.planned === true
        ? 'Any valid key; no permission is required (planned route).'
        : 'Any valid key, no permission.'
      : `Permission \`${route.permission}\`.`;
  const limitClass = `Limit class ${route.routeClass}.`;
  const operation = routeOperation(route, components, {
    success: successStyle,
    refusal: refusalStyle,
    preamble: `${access} ${limitClass}`,
    tag: tagOf(route),
  });
  const spec: RouteQuerySpec = POS_QUERY_ROUTES[route.route];
  const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const parameters = [...pathParams, ...spec.params.map((param) => queryParameter(param, spec))];
  if (parameters.length > 0) operation.parameters = parameters;
  return operation;
}

/** The document of the POS data API; `baseUrl` is `{base_url}` (config PUBLIC_BASE_URL). */
export function posDocument(baseUrl: string): Json {
  const components = new SchemaComponents();
  const paths = new Map<string, Json>();
  for (const route of posRoutes) {
    addOperation(paths, route.path, openApiMethod(route), posOperation(route, components));
  }
  return openApiDocument(
    {
      title: 'Point-of-Sale Data API',
      version: 'v1',
      description: description(),
      servers: [{ url: baseUrl, description: '{base_url}: the deployment’s own address.' }],
      security: {
        name: SECURITY,
        description:
          '`Authorization: Bearer <API_KEY>`: a key created by the account owner in the panel (Account options, Integrations, API keys), `gtpk_` and 48 characters in total.',
      },
      problem: {
        intro: 'Every error of this API: decide by status, then `code`.',
        extras: {
          param:
            'The parameter to fix: on 422, and on 404 of a place (`place`) or event (`event`); absent when no parameter is at fault and on the 404 of a nonexistent address.',
          reason:
            'Only on 401 of a key that worked before: `revoked`, `expired`, `paused`, `replaced` (unknown values: treat as the key is invalid, contact the merchant).',
          required_permission:
            'Only on 403 `forbidden_permission`: the single missing permission of the route.',
        },
      },
      tags: [TAGS.key, TAGS.events, TAGS.sales, PLANNED_TAG],
    },
    paths,
    components,
  );
}
