import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import type { Translate } from './i18n.js';
import type { WebMessage } from './web-messages.js';

// Every refusal of a web face (the merchant panel, the back-office console) is a page in the face's
// frame and language, with the status that says what was wrong and a sentence a person can read: a
// body the face does not read, too large or undecodable, a path with a method it does not take, a path
// that cannot be decoded. None of them is the service's fault: logged at info, counted as 4xx, never a
// 500 with a stack. This module maps the framework's errors and codes to those refusals; the face's
// error and not-found handlers (face.ts) and the listeners' router errors (app.ts, admin-api.ts) send them.

/** Why a face refused a request; each reason has its title and sentence in the shared texts. */
export type RefusalReason =
  'badRequest' | 'badPath' | 'forbidden' | 'notFound' | 'methodNotAllowed' | 'tooLarge' | 'unsupportedType';

/** A refusal of a face: the status of its page, why, and for a 405 the methods the path takes. */
export interface FaceRefusal {
  readonly status: 400 | 403 | 404 | 405 | 413 | 415;
  readonly reason: RefusalReason;
  /** 405: the methods the path takes (the `Allow` header and the page's sentence). */
  readonly allow?: readonly string[];
}

/** The largest form body a face reads, in bytes (a page's forms are a few fields of text). */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;

const REFUSALS = {
  badRequest: { status: 400, reason: 'badRequest' },
  badPath: { status: 400, reason: 'badPath' },
  forbidden: { status: 403, reason: 'forbidden' },
  notFound: { status: 404, reason: 'notFound' },
  tooLarge: { status: 413, reason: 'tooLarge' },
  unsupportedType: { status: 415, reason: 'unsupportedType' },
} as const satisfies Record<Exclude<RefusalReason, 'methodNotAllowed'>, FaceRefusal>;

/** An error that carries a face's refusal (thrown by the face's form parser). */
export class FaceRefusalError extends Error {
  override name = 'FaceRefusalError';
  /** Read by Fastify, which sets it as the reply's status before the error handler runs. */
  readonly statusCode: number;

  constructor(readonly refusal: FaceRefusal) {
    super(refusal.reason);
    this.statusCode = refusal.status;
  }
}

/** The refusal of one of the reasons that need nothing more than their name. */
export function faceRefusal(reason: Exclude<RefusalReason, 'methodNotAllowed'>): FaceRefusalError {
  return new FaceRefusalError(REFUSALS[reason]);
}

/** Fastify's codes of a request the client got wrong, read before any handler of the face ran. */
const FRAMEWORK_CODES: Readonly<Record<string, FaceRefusal>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: REFUSALS.tooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: REFUSALS.unsupportedType,
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: REFUSALS.unsupportedType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: REFUSALS.badRequest,
  FST_ERR_CTP_EMPTY_JSON_BODY: REFUSALS.badRequest,
  FST_ERR_CTP_INVALID_JSON_BODY: REFUSALS.badRequest,
  FST_ERR_BAD_URL: REFUSALS.badPath,
  FST_ERR_ASYNC_CONSTRAINT: REFUSALS.badRequest,
};

/**
 * The refusal an error of a face's request stands for, or null when it is the service's own failure
 * (a 500). A Problem of the listener's own gates (the admin listener's refusal of a content coding, say)
 * keeps its status where a face has a page for it.
 */
export function refusalOf(error: unknown): FaceRefusal | null {
  if (error instanceof FaceRefusalError) return error.refusal;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('FST_CSRF')) return REFUSALS.forbidden;
  if (typeof code === 'string' && code in FRAMEWORK_CODES) return FRAMEWORK_CODES[code] ?? null;
  const status =
    error instanceof Problem ? error.status : (error as { statusCode?: unknown } | null)?.statusCode;
  switch (status) {
    case 404:
      return REFUSALS.notFound;
    case 413:
      return REFUSALS.tooLarge;
    case 415:
      return REFUSALS.unsupportedType;
    default:
      // Any other 4xx the framework raised about the request (a status it set, never a handler's bug).
      return typeof status === 'number' && status >= 400 && status < 500 && !(error instanceof Problem)
        ? REFUSALS.badRequest
        : null;
  }
}

/** True when a value of a request's path or query (a string, or a list of them) holds U+0000. */
function holdsNul(values: unknown): boolean {
  if (typeof values !== 'object' || values === null) return false;
  return Object.values(values).some((value: unknown) =>
    Array.isArray(value)
      ? value.some((one) => typeof one === 'string' && one.includes('\0'))
      : typeof value === 'string' && value.includes('\0'),
  );
}

/**
 * A `preValidation` hook of a face: a path parameter or a query value with U+0000 (`%00`) is refused
 * before any page reads it. No id has one, nothing a person types has one, and PostgreSQL refuses it in
 * text ("invalid byte sequence"), which would otherwise be a 500.
 */
export function refuseNulCharacters(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  if (holdsNul(request.params)) done(faceRefusal('notFound'));
  else if (holdsNul(request.query)) done(faceRefusal('badRequest'));
  else done();
}

/** The refusal of a path the face does not route: 405 with `Allow` when it takes other methods. */
export function notFoundRefusal(request: FastifyRequest, instance: FastifyInstance): FaceRefusal {
  const path = request.url.split('?')[0] ?? '';
  const allow = allowedMethods(instance, path);
  if (allow.length > 0 && !allow.includes(request.method)) {
    return { status: 405, reason: 'methodNotAllowed', allow };
  }
  return REFUSALS.notFound;
}

/** The methods a face's pages are asked with (RFC 9110, 9.3, and PATCH). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The methods the router has a route for at this path (its parameters filled in). */
function allowedMethods(instance: FastifyInstance, path: string): string[] {
  return METHODS.filter((method) => (instance.findRoute({ method, url: path }) as object | null) !== null);
}

/** The page's title and sentence of a refusal, in the reader's language. */
export function refusalWords(
  t: Translate<WebMessage>,
  refusal: FaceRefusal,
): { title: string; text: string } {
  switch (refusal.reason) {
    case 'badRequest':
      return { title: t('badRequestTitle'), text: t('badRequestText') };
    case 'badPath':
      return { title: t('badRequestTitle'), text: t('badPathText') };
    case 'forbidden':
      return { title: t('forbiddenTitle'), text: t('forbiddenText') };
    case 'notFound':
      return { title: t('notFoundTitle'), text: t('notFoundText') };
    case 'methodNotAllowed':
      return {
        title: t('methodNotAllowedTitle'),
        text: t('methodNotAllowedText', { methods: (refusal.allow ?? []).join(', ') }),
      };
    case 'tooLarge':
      return { title: t('tooLargeTitle'), text: t('tooLargeText', { kb: FORM_BODY_LIMIT_BYTES / 1024 }) };
    case 'unsupportedType':
      return { title: t('unsupportedTypeTitle'), text: t('unsupportedTypeText') };
  }
}

/** Sets a refusal's status and headers on the reply, and logs it at info (the client's doing). */
export function prepareRefusal(
  face: string,
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: FaceRefusal,
  error?: unknown,
): FastifyReply {
  if (refusal.allow !== undefined) void reply.header('allow', refusal.allow.join(', '));
  // A body left unread (too large, a type the face does not read) is not waited for.
  if (refusal.status === 413 || refusal.status === 415) void reply.header('connection', 'close');
  const code = (error as { code?: unknown } | undefined)?.code;
  request.log.info(
    { status: refusal.status, reason: refusal.reason, ...(typeof code === 'string' ? { code } : {}) },
    `${face}: request refused`,
  );
  return reply.code(refusal.status);
}

/** How a face answers a refusal raised before its scope was reached (the router's own errors). */
export type FaceRefusalAnswer = (request: FastifyRequest, reply: FastifyReply, refusal: FaceRefusal) => void;

const facesOf = new WeakMap<FastifyInstance, { prefix: string; answer: FaceRefusalAnswer }[]>();

/** Registers a face's answer to the router's errors of its paths, on the listener it is served by. */
export function addFaceRefusalAnswer(
  listener: FastifyInstance,
  prefix: string,
  answer: FaceRefusalAnswer,
): void {
  const faces = facesOf.get(listener) ?? [];
  faces.push({ prefix, answer });
  facesOf.set(listener, faces);
}

/**
 * The listener's `frameworkErrors`, for a face's paths: a path the router cannot decode (`%ff`) under a
 * face's prefix gets the face's 400 page; true when it answered, false for a path of no face (the APIs
 * keep their own answer).
 */
export function answerFrameworkErrorOnFace(
  listener: FastifyInstance,
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  const path = request.url.split('?')[0] ?? '';
  const face = facesOf.get(listener)?.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
  if (face === undefined) return false;
  face.answer(request, reply, refusalOf(error) ?? REFUSALS.badRequest);
  return true;
}
