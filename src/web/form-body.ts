import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { faceRefusal, FORM_BODY_LIMIT_BYTES } from './face-refusals.js';

// The only body a face's pages read: an HTML form, url-encoded in UTF-8 as a browser sends it
// (WHATWG URL, application/x-www-form-urlencoded). Anything else is refused with the face's page
// (face-refusals.ts): over the limit 413, another type (JSON, multipart, text, none), another charset or
// a content coding 415, bytes or percent-escapes that are not UTF-8 400. The lenient readers (a
// querystring parser, Buffer#toString) would turn undecodable bytes into U+FFFD or keep `%ff` as text,
// and store that in place of what was sent.

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A form's fields: a field sent once is a string, sent more than once (checkboxes) a list. */
type FormBody = Record<string, string | string[]>;

/** The charset parameter of the request's Content-Type, lower-cased; undefined when none is given. */
function charsetOf(request: FastifyRequest): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(request.headers['content-type'] ?? '');
  return match?.[1]?.toLowerCase();
}

/** A coding other than identity: the face decodes none (RFC 9110, 8.4). */
function hasContentCoding(request: FastifyRequest): boolean {
  const coding = request.headers['content-encoding'];
  return (
    coding?.split(',').some((one) => one.trim() !== '' && one.trim().toLowerCase() !== 'identity') === true
  );
}

/** Reads a url-encoded body strictly: undefined when a byte or an escape is not UTF-8, or is U+0000. */
function parseFormBody(bytes: Buffer): FormBody | undefined {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
    // Throws on an escape that is not two hex digits or whose bytes are not UTF-8 (`%ff`, `%E2%82`).
    decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
  const fields: FormBody = Object.create(null) as FormBody;
  for (const [name, value] of new URLSearchParams(text)) {
    // U+0000 is typed by nobody, and PostgreSQL refuses it in text.
    if (name.includes('\0') || value.includes('\0')) return undefined;
    const earlier = fields[name];
    fields[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return fields;
}

/**
 * Registers the face's form reader on its scope, after removing every other (the public listener hands
 * the APIs their bodies unread): a face reads forms and nothing else.
 */
export function registerFormBody(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT_BYTES },
    (request, body, done) => {
      const charset = charsetOf(request);
      if (hasContentCoding(request) || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
        done(faceRefusal('unsupportedType'), undefined);
        return;
      }
      const fields = parseFormBody(typeof body === 'string' ? Buffer.from(body) : body);
      if (fields === undefined) done(faceRefusal('badRequest'), undefined);
      else done(null, fields);
    },
  );
}

/**
 * A `preValidation` hook of a face: a POST without any body (no Content-Type, nothing sent) is not a
 * form either, and is refused 415 before a page reads its fields; a browser always sends a form's type,
 * even for an empty form. A scope that takes every type itself (the console's upload) judges its own.
 */
export function requireFormBody(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  if (request.method === 'POST' && request.body === undefined && !request.server.hasContentTypeParser('*')) {
    done(faceRefusal('unsupportedType'));
  } else {
    done();
  }
}
