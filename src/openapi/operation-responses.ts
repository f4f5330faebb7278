import { STATUS_CODES } from 'node:http';
import { problemCatalogue, type ProblemCode } from '../errors/problem-catalogue.js';
import type { Json } from './schema-components.js';

// What the three documents share about answers: the headers the contract names, the problem+json body,
// and the refusals of an operation grouped by status, each with its known codes (open text: listed in
// the description and in the `x-problem-codes` extension) and an example per code from the catalogue.

/** The response headers the documents describe (docs/ticket-api.md and docs/pos-api.md, Limits). */
export const DOCUMENTED_HEADERS = {
  'X-Request-Id': {
    description: 'Made by the server for every response of the API (a client’s own header is not trusted).',
    schema: { type: 'string', format: 'uuid' },
  },
  'X-RateLimit-Limit': {
    description: 'Calls per window. Absent: the limit was not measured on this call (never read as zero).',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Calls left in the sliding window; 0 on 429.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Unix seconds by which the balance has grown by at least one call (an upper bound).',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before sending the same request again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'WWW-Authenticate': {
    description: 'The scheme to authenticate with: Bearer.',
    schema: { type: 'string', pattern: '^Bearer' },
  },
  Allow: { description: 'The methods the route accepts.', schema: { type: 'string' } },
  Deprecation: {
    description: '`true`: the call was authenticated by the previous key of a rotation.',
    schema: { type: 'string', const: 'true' },
  },
  Sunset: {
    description: 'When the previous key of the rotation stops working (an HTTP date).',
    schema: { type: 'string' },
  },
} as const satisfies Record<string, { description: string; schema: Json }>;

export type DocumentedHeader = keyof typeof DOCUMENTED_HEADERS;

/** Which headers a response carries: `true` always, `false` on some answers only (the description says when). */
export type ResponseHeaders = Partial<Record<DocumentedHeader, boolean>>;

/** The `headers` member of a response object; undefined when it has none. */
export function headersObject(
  headers: ResponseHeaders,
  notes: Partial<Record<DocumentedHeader, string>> = {},
): Json | undefined {
  const names = (Object.keys(DOCUMENTED_HEADERS) as DocumentedHeader[]).filter(
    (name) => headers[name] !== undefined,
  );
  if (names.length === 0) return undefined;
  return Object.fromEntries(
    names.map((name) => {
      const { description, schema } = DOCUMENTED_HEADERS[name];
      const note = notes[name];
      return [
        name,
        {
          description: note === undefined ? description : `${description} ${note}`,
          required: headers[name] === true,
          schema,
        },
      ];
    }),
  );
}

/**
 * The members a problem+json body may carry beyond the five common ones: the meaning of a text member,
 * or the whole schema of another.
 */
export type ProblemExtraMembers = Readonly<Record<string, string | Json>>;

/** `components.schemas.Problem` of a document: the error body of the API. */
export function problemSchema(intro: string, extras: ProblemExtraMembers): Json {
  return {
    type: 'object',
    description: intro,
    properties: {
      type: { type: 'string', const: 'about:blank', description: 'Always `about:blank`.' },
      title: { type: 'string', description: 'HTTP status name in English.' },
      status: { type: 'integer', description: 'HTTP status.' },
      detail: { type: 'string', description: 'English, human-readable, may change. Logic uses `code`.' },
      code: {
        type: 'string',
        description: 'Open text: a code not known to the client is handled by status.',
      },
      ...Object.fromEntries(
        Object.entries(extras).map(([name, extra]) => [
          name,
          typeof extra === 'string' ? { type: 'string', description: extra } : extra,
        ]),
      ),
    },
    required: ['type', 'title', 'status', 'detail'],
    additionalProperties: false,
  };
}

/** What a document says of one refusal status of an operation. */
export interface RefusalContext {
  readonly status: number;
  /** The known codes of this status, in the order of the table. */
  readonly codes: readonly ProblemCode[];
  /** The status is also answered without `code` (documented server-level refusals). */
  readonly uncoded: boolean;
}

/** How a document words and heads the refusals of one operation. */
export interface RefusalStyle {
  /** What a code means on this API; default: the catalogue's default detail. */
  readonly codeMeaning?: (code: ProblemCode) => string;
  /** What an answer without `code` means on this status of the operation. */
  readonly uncodedMeaning?: (status: number) => string;
  /** The headers of a refusal. */
  headers(refusal: RefusalContext): ResponseHeaders;
  /** Words on those headers (when they come), by status. */
  headerNotes?(refusal: RefusalContext): Partial<Record<DocumentedHeader, string>>;
}

/** The name of the problem schema of one status: `Problem422`, or `Problem400CodeOptional`. */
function statusProblemName(status: number, uncoded: boolean): string {
  return `Problem${status}${uncoded ? 'CodeOptional' : ''}`;
}

const STATUS_PROBLEM_REF = /^#\/components\/schemas\/Problem(\d{3})(CodeOptional)?$/;

/**
 * The problem schemas the refusals of a document's operations refer to: the status fixed, and `code`
 * required unless the status is also answered without one.
 */
export function statusProblemSchemas(operations: Iterable<Json>): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  for (const operation of operations) {
    for (const response of Object.values(operation.responses as Record<string, Json>)) {
      const content = (response.content ?? {}) as Record<string, { schema?: { $ref?: string } }>;
      const match = STATUS_PROBLEM_REF.exec(content['application/problem+json']?.schema?.$ref ?? '');
      if (match === null) continue;
      const status = Number(match[1]);
      const uncoded = match[2] !== undefined;
      schemas[statusProblemName(status, uncoded)] = {
        allOf: [
          { $ref: '#/components/schemas/Problem' },
          { properties: { status: { const: status } }, ...(uncoded ? {} : { required: ['code'] }) },
        ],
      };
    }
  }
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * `components.examples`: one refusal per code the document's operations list, its detail the
 * catalogue's (each operation refers to the examples of its codes).
 */
export function refusalExamples(codes: Iterable<ProblemCode>): Record<string, Json> {
  const known = new Set(codes);
  const examples: Record<string, Json> = {};
  for (const code of Object.keys(problemCatalogue) as ProblemCode[]) {
    if (!known.has(code)) continue;
    const { status, detail } = problemCatalogue[code];
    const title = STATUS_CODES[status] ?? 'Unknown Status';
    examples[code] = { summary: code, value: { type: 'about:blank', title, status, detail, code } };
  }
  return examples;
}

/**
 * The refusals of an operation, keyed by status: `application/problem+json` with the status fixed and
 * `code` required unless the status is also answered without one; the known codes in the description
 * and in `x-problem-codes`; one example per code, its detail the catalogue's.
 */
export function refusalResponses(
  problems: readonly ProblemCode[],
  uncodedStatuses: readonly number[],
  style: RefusalStyle,
): Record<string, Json> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of problems) {
    const { status } = problemCatalogue[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const status of uncodedStatuses) if (!byStatus.has(status)) byStatus.set(status, []);
  const meaning = style.codeMeaning ?? ((code: ProblemCode) => problemCatalogue[code].detail);
  const responses: Record<string, Json> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const codes = byStatus.get(status) ?? [];
    const refusal: RefusalContext = { status, codes, uncoded: uncodedStatuses.includes(status) };
    const title = STATUS_CODES[status] ?? 'Unknown Status';
    const lines = codes.map((code) => `- \`${code}\`: ${meaning(code)}`);
    if (refusal.uncoded) {
      lines.push(`- (no \`code\`): ${style.uncodedMeaning?.(status) ?? 'a server-level refusal.'}`);
    }
    const examples: Record<string, Json> = Object.fromEntries(
      codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]),
    );
    if (refusal.uncoded) {
      examples.without_code = {
        summary: 'without code',
        value: { type: 'about:blank', title, status, detail: style.uncodedMeaning?.(status) ?? title },
      };
    }
    const headers = headersObject(style.headers(refusal), style.headerNotes?.(refusal));
    responses[String(status)] = {
      description: `${title}.\n\n${lines.join('\n')}`,
      ...(headers === undefined ? {} : { headers }),
      content: {
        'application/problem+json': {
          schema: { $ref: `#/components/schemas/${statusProblemName(status, refusal.uncoded)}` },
          examples,
        },
      },
      'x-problem-codes': codes,
    };
  }
  return responses;
}
