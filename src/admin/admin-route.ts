import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../audit/actor.js';
import type { ProblemCode } from '../errors/problem-catalogue.js';
import type { RouteSpec } from '../http/route-spec.js';
import type { Services } from '../services.js';

// What a route of the back office is, as data (docs/admin-rules.md): the operation, who may call it, the
// schemas of its path, query and body, and the handler that answers it from the services. The registrar
// (register-admin-routes.ts) reads nothing else.

/**
 * Who may call a route: the operator's token only, the support token too (docs/admin-rules.md, intro: list
 * systems, keys and tickets; revoke keys), or no token at all (health checks).
 */
export type AdminAccess = 'operator' | 'support' | 'open';

/** How a route reads its body. */
export type AdminBodySpec<S extends z.ZodType = z.ZodType> =
  /** JSON checked by `schema`; `absent` is what a missing (or `null`) body stands for. */
  | { readonly kind: 'json'; readonly schema: S; readonly absent?: unknown }
  /**
   * An upload: JSON of the shape `schema` documents, or NDJSON (`application/x-ndjson`), both handed over
   * unread as a stream for the handler to read as it arrives (no body held in memory), within the
   * upload deadlines (UPLOAD_IDLE_TIMEOUT_MS, UPLOAD_TIMEOUT_MS).
   */
  | { readonly kind: 'json-or-ndjson'; readonly schema: S };

/** An upload's body: which of the two forms it is, the stream, and its declared `Content-Length`. */
export interface UploadBody {
  readonly kind: 'json' | 'ndjson';
  readonly stream: Readable;
  readonly declaredLength: string | undefined;
}

/** The body a handler is given: the checked JSON, or an upload's stream. */
type AdminBody<B extends AdminBodySpec | undefined> = B extends { kind: 'json'; schema: infer S }
  ? z.output<S & z.ZodType>
  : B extends { kind: 'json-or-ndjson' }
    ? UploadBody
    : undefined;

type Parsed<S extends z.ZodType | undefined> = S extends z.ZodType ? z.output<S> : undefined;

/** The parts of a call a handler is given, parsed by the route's schemas. */
export interface AdminInput<P = unknown, Q = unknown, B = unknown> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /** The admin listener's logger. */
  readonly log: FastifyBaseLogger;
  /** Who calls: the services record it with every key change (docs/back-office.md, Audit trail). */
  readonly actor: Actor;
}

/** What a handler answers: the status, the body (JSON unless `type` says otherwise), none for 204. */
export interface AdminAnswer {
  readonly status: number;
  readonly body?: unknown;
  /** The Content-Type of a body that is not JSON (the Prometheus text of /metrics). */
  readonly type?: string;
}

/** One operation of the back office. */
export interface AdminRoute extends RouteSpec {
  readonly access: AdminAccess;
  /** The path parameters, checked first (422 `validation_failed` naming `path.<param>`). */
  readonly params?: z.ZodType;
  /** The body, checked after the path. */
  readonly body?: AdminBodySpec;
  /** The query, checked after the body. */
  readonly query?: z.ZodType;
  /**
   * Who writes a successful call of a route that changes something (any method but GET) to the
   * back-office log: the registrar, after the answer (the default), or the service itself, in the
   * change's own transaction, as it does when the console makes the same change (staff users).
   */
  readonly loggedBy?: 'registrar' | 'service';
  /** Answers a call whose parts passed their schemas; throws a Problem for what it refuses. */
  handle(input: AdminInput, services: Services): Promise<AdminAnswer>;
}

/** The declaration of a route, its handler typed by its schemas. */
export interface AdminRouteDef<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends AdminBodySpec | undefined,
> extends Omit<AdminRoute, 'params' | 'query' | 'body' | 'handle'> {
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  handle(input: AdminInput<Parsed<P>, Parsed<Q>, AdminBody<B>>, services: Services): Promise<AdminAnswer>;
}

/** Problems every route of an access level can answer before its handler runs. */
const ACCESS_PROBLEMS: Readonly<Record<AdminAccess, readonly ProblemCode[]>> = {
  operator: ['unauthorized', 'forbidden'],
  support: ['unauthorized'],
  open: [],
};

/**
 * The largest JSON body the admin listener reads whole: every route's body is a few kilobytes. Uploads
 * (receipts) read their own bodies as streams, with limits of their own (register-admin-routes.ts).
 */
export const ADMIN_BODY_LIMIT_BYTES = 1024 * 1024;

/** Fastify reads the body of these methods: malformed JSON, too large, or of another type. */
const BODY_PROBLEMS: readonly ProblemCode[] = [
  'malformed_json',
  'payload_too_large',
  'unsupported_media_type',
];

/**
 * Declares a route: types its handler's input by its schemas, and completes its problems with those of
 * its access level, of a body Fastify reads, `internal_error`, and (but for the open health checks) the
 * 503 `temporarily_unavailable` of a process that is shutting down.
 */
export function adminRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends AdminBodySpec | undefined = undefined,
>(def: AdminRouteDef<P, Q, B>): AdminRoute {
  const problems = new Set<ProblemCode>([
    ...ACCESS_PROBLEMS[def.access],
    ...(def.method === 'GET' ? [] : BODY_PROBLEMS),
    ...def.problems,
    'internal_error',
    ...(def.access === 'open' ? [] : (['temporarily_unavailable'] as const)),
  ]);
  return { ...def, problems: [...problems] };
}

/** 200 for a replaced resource, 201 for a created one (docs/admin-rules.md, intro: PUT). */
export const putStatus = (created: boolean): number => (created ? 201 : 200);
