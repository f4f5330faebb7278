import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
// A CommonJS module: its plugin is the `default` member of what the default import gives.
import ajvFormats from 'ajv-formats';
import { TICKET_API_PREFIX } from '../src/helpdesk/ticket-routes.js';
import { adminRoutes } from '../src/admin/admin-routes.js';
import { adminDocument } from '../src/admin/admin-document.js';
import { helpDeskDocument } from '../src/openapi/help-desk-document.js';
import { DOCUMENTED_HEADERS, type DocumentedHeader } from '../src/openapi/operation-responses.js';
import { posDocument } from '../src/openapi/pos-document.js';
import type { Json } from '../src/openapi/schema-components.js';
import { POS_API_PREFIX } from '../src/pos/api/pos-routes.js';

// Keeps the OpenAPI documents true: every answer the HTTP suites receive from an app built by the
// harness is held to its operation in the document generated from the route tables: a status the
// operation lists, the body's schema, a problem `code` listed for that status, and the headers (each
// required one present, each one the documents name present only where documented, every value of its
// schema). A response the document does not describe fails the test that received it.

type Method = NonNullable<InjectOptions['method']>;

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

/** Checks answers against one document. */
export class DocumentConformance {
  // Not strict: the document is an OpenAPI document, whose members around the schemas (paths,
  // responses, x-problem-codes) are no JSON Schema keywords. The schemas themselves are checked by the
  // OpenAPI linter (npm run lint:openapi), so they are not checked against the meta-schema again here.
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly paths: { regex: RegExp; path: string }[];

  constructor(
    private readonly id: string,
    private readonly document: Json,
  ) {
    ajvFormats.default(this.ajv);
    // The whole document is one schema resource: references into components resolve inside it.
    this.ajv.addSchema(document, id);
    const items = document.paths as Record<string, Json>;
    this.paths = Object.keys(items).map((path) => ({ path, regex: pathRegex(path, items[path] ?? {}) }));
  }

  /** The problems of one answer; empty when the document describes it. Unmatched paths are not checked. */
  check(method: string, url: string, response: LightMyRequestResponse): string[] {
    const path = pathOf(url);
    const found = this.paths.find((entry) => entry.regex.test(path));
    if (found === undefined) return [];
    const item = (this.document.paths as Record<string, Json>)[found.path] ?? {};
    const status = String(response.statusCode);
    const lower = method.toLowerCase();
    const own = item[lower] as Json | undefined;
    // A method the path has no operation for (405, OPTIONS on a GET-only API): any operation of the
    // path that documents the status describes it.
    const candidates =
      own !== undefined
        ? [[lower, own] as const]
        : Object.entries(item).map(([m, op]) => [m, op as Json] as const);
    const match = candidates.find(([, op]) => (op.responses as Record<string, Json>)[status] !== undefined);
    if (match === undefined) {
      const listed = candidates.flatMap(([m, op]) =>
        Object.keys(op.responses as Json).map((s) => `${m} ${s}`),
      );
      return [
        `status ${status} is not documented for ${method} ${found.path} (documented: ${listed.join(', ')})`,
      ];
    }
    const [opMethod, operation] = match;
    const pointer = `/paths/${escape(found.path)}/${opMethod}/responses/${status}`;
    const described = (operation.responses as Record<string, Json>)[status] ?? {};
    return [
      ...this.checkHeaders(described, response),
      // The answer to HEAD has the headers of the GET answer and never a body (RFC 9110, 9.3.2).
      ...(lower === 'head' ? [] : this.checkBody(described, pointer, response)),
    ].map((problem) => `${String(operation.operationId)} ${status}: ${problem}`);
  }

  private checkHeaders(described: Json, response: LightMyRequestResponse): string[] {
    const problems: string[] = [];
    const headers = (described.headers ?? {}) as Record<string, Json>;
    for (const name of Object.keys(DOCUMENTED_HEADERS) as DocumentedHeader[]) {
      const value = response.headers[name.toLowerCase()];
      const header = headers[name];
      if (header === undefined) {
        if (value !== undefined) problems.push(`header ${name} is sent but not documented on this response`);
        continue;
      }
      if (value === undefined) {
        if (header.required === true) problems.push(`required header ${name} is missing`);
        continue;
      }
      const schema = header.schema as Json;
      const text = Array.isArray(value) ? value.join(', ') : String(value);
      const typed = schema.type === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text;
      const validate = this.ajv.compile(schema);
      if (!validate(typed))
        problems.push(`header ${name}: ${JSON.stringify(text)} ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  private checkBody(described: Json, pointer: string, response: LightMyRequestResponse): string[] {
    const content = described.content as Record<string, Json> | undefined;
    if (content === undefined) {
      return response.body === ''
        ? []
        : [`a body is sent but none is documented: ${response.body.slice(0, 200)}`];
    }
    const contentType = response.headers['content-type'];
    const type = (typeof contentType === 'string' ? (contentType.split(';')[0] ?? '') : '')
      .trim()
      .toLowerCase();
    const media = content[type] !== undefined ? type : undefined;
    if (media === undefined)
      return [`Content-Type ${type || '(none)'} is not documented (${Object.keys(content).join(', ')})`];
    if (!JSON_MEDIA.test(media)) return [];
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return [`the ${media} body is not JSON: ${response.body.slice(0, 200)}`];
    }
    const validate = this.validator(`${pointer}/content/${escape(media)}/schema`);
    const problems = validate(body)
      ? []
      : [`body does not match the schema: ${this.ajv.errorsText(validate.errors)}`];
    const codes = described['x-problem-codes'] as string[] | undefined;
    const code = (body as { code?: unknown }).code;
    if (codes !== undefined && typeof code === 'string' && !codes.includes(code)) {
      problems.push(`problem code ${code} is not listed for this status (${codes.join(', ')})`);
    }
    return problems;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${this.id}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}

/** A JSON pointer segment. */
function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The path of a request target as the server routes it: origin form, no query. */
function pathOf(url: string): string {
  const origin = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return origin.split('?')[0] ?? '';
}

/** A document path as a regular expression: a parameter matches its schema's pattern, else one segment. */
function pathRegex(path: string, item: Json): RegExp {
  const parameters = Object.values(item).flatMap((op) => ((op as Json).parameters ?? []) as Json[]);
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const schema = parameters.find((p) => p.name === name && p.in === 'path')?.schema as Json | undefined;
      const pattern = typeof schema?.pattern === 'string' ? schema.pattern.replace(/^\^|\$$/g, '') : '[^/]+';
      return `(?:${pattern})`;
    })
    .join('');
  return new RegExp(`^${source}$`);
}

let publicDocuments:
  { helpDesk: DocumentConformance; pos: DocumentConformance; admin: DocumentConformance } | undefined;

/** The three documents of the route tables, generated once per test worker. */
function documents() {
  publicDocuments ??= {
    helpDesk: new DocumentConformance('help-desk', helpDeskDocument('https://api.example.test')),
    pos: new DocumentConformance('pos', posDocument('https://api.example.test')),
    admin: new DocumentConformance('admin', adminDocument(adminRoutes)),
  };
  return publicDocuments;
}

/** Which document describes an answer of a listener, by the request's path. */
function documentFor(listener: 'public' | 'admin', url: string): DocumentConformance | undefined {
  const docs = documents();
  if (listener === 'admin') return docs.admin;
  const path = pathOf(url);
  if (path.startsWith(TICKET_API_PREFIX)) return docs.helpDesk;
  if (path.startsWith(POS_API_PREFIX)) return docs.pos;
  return undefined;
}

/**
 * Makes `inject` of a listener hold every answer to the documents: an answer they do not describe
 * rejects the call, and so fails the test that made it.
 */
export function holdToDocuments(instance: FastifyInstance, listener: 'public' | 'admin'): void {
  const inject = instance.inject.bind(instance);
  const checked = async (options: InjectOptions | string): Promise<LightMyRequestResponse> => {
    const request = typeof options === 'string' ? { url: options } : options;
    const response = await inject(options);
    const method: Method = request.method ?? 'GET';
    // The suites send every request by `url`; a request given by its parts is not checked.
    const url = typeof request.url === 'string' ? request.url : '';
    const problems = documentFor(listener, url)?.check(method, url, response) ?? [];
    if (problems.length > 0) {
      throw new Error(
        `The OpenAPI document does not describe the answer to ${method} ${url}:\n- ${problems.join('\n- ')}\nbody: ${response.body.slice(0, 500)}`,
      );
    }
    return response;
  };
  instance.inject = checked as FastifyInstance['inject'];
}
