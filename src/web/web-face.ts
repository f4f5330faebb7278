import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import fastifySession from '@fastify/session';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { createHmac, randomBytes } from 'node:crypto';
import { flashCookie, type FlashCookie } from './flash-cookie.js';
import { registerFormBody } from './form-body.js';
import type { DbSessionStore } from '../identity/session-store.js';

// What every web face (the merchant panel, the back-office console) stands on, registered inside the
// face's own plugin so that nothing of it reaches the APIs beside it: cookies, a session kept in the
// database behind an HttpOnly, SameSite=Lax cookie (Secure in production), CSRF protection of every form
// post, one-time messages, and url-encoded form bodies. The CSP lets the page load scripts, styles and
// images from the service only.
//
// A session is stored only when there is someone in it: the signed-in user. Nothing a visitor does
// before signing in writes one (a cookie-less page load, a failed sign-in, a reset request): the CSRF
// secret lives in a signed cookie of its own (signed double submit) and the one-time message in another
// (flash-cookie.ts). A form's token is bound to the signed-in session's id as well, so that a token
// from before the sign-in, from another session, or a CSRF cookie planted from elsewhere with its token,
// does not pass for the session.

declare module 'fastify' {
  interface Session {
    /** The signed-in user of the face; absent before sign-in. */
    userId?: string;
  }
}

/** A page's Content-Security-Policy: nothing from elsewhere, no inline script or style, no frames. */
const WEB_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** How one face's sessions are kept. */
export interface WebFaceOptions {
  /** The session cookie's name (one per face, so a browser can hold both). */
  cookieName: string;
  /** The CSRF secret's cookie (one per face). */
  csrfCookieName: string;
  /** The one-time message's cookie (one per face). */
  flashCookieName: string;
  /** The face's path prefix, where its cookies are sent (`/panel`). */
  path: string;
  /** Signs the session cookie (config SESSION_SECRET); the face's other keys are derived from it. */
  secret: string;
  /** Secure cookies (config NODE_ENV=production). */
  secure: boolean;
  store: DbSessionStore;
  /** How long a session lasts without use. */
  idleMs: number;
}

/** What a face's pages use of its footing. */
export interface WebFace {
  /** The CSRF check every form post passes first (a preHandler: the token may be in the form's body). */
  csrf: preHandlerHookHandler;
  /** The CSRF token of this request's page, for its forms (the secret's cookie is set when missing). */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string;
  /** The face's one-time messages. */
  flash: FlashCookie;
}

/** A key for one use, derived from the face's secret, so that no two uses share a key. */
function derivedKey(secret: string, use: string): string {
  return createHmac('sha256', secret).update(`web face: ${use}`).digest('base64url');
}

/**
 * What a form's CSRF token is bound to besides the browser's CSRF cookie: the signed-in session (its id
 * is new at sign-in and gone at sign-out), or nothing more for a visitor who has not signed in.
 */
function csrfBinding(request: FastifyRequest): string {
  // Null once the session is destroyed (sign-out); a plain object outside the face's path.
  const session = request.session as Partial<FastifyRequest['session']> | null;
  const userId = session?.userId;
  return userId === undefined ? 'visitor' : `session:${String(session?.sessionId)}`;
}

/** Registers the session, CSRF, one-time message and form plugins on the face's scope, and its page headers. */
export async function registerWebFace(scope: FastifyInstance, options: WebFaceOptions): Promise<WebFace> {
  const cookie = { path: options.path, httpOnly: true, sameSite: 'lax', secure: options.secure } as const;
  // Signs the CSRF and message cookies (the session's cookie is signed by the session plugin).
  await scope.register(fastifyCookie, { secret: derivedKey(options.secret, 'signed cookies') });
  await scope.register(fastifySession, {
    secret: options.secret,
    cookieName: options.cookieName,
    store: options.store,
    // Nothing is stored, and no cookie set, for a session nobody signed in to.
    saveUninitialized: false,
    // The session lives `idleMs` after its last page: each page renews the cookie.
    rolling: true,
    idGenerator: () => randomBytes(32).toString('base64url'),
    cookie: { ...cookie, maxAge: options.idleMs },
  });
  await scope.register(fastifyCsrfProtection, {
    // Signed double submit: the secret in a signed cookie of the browser's, the token in the form.
    sessionPlugin: '@fastify/cookie',
    cookieKey: options.csrfCookieName,
    cookieOpts: { ...cookie, signed: true },
    getUserInfo: csrfBinding,
    csrfOpts: { hmacKey: derivedKey(options.secret, 'csrf tokens') },
    getToken: (request) => {
      const body = request.body as Record<string, unknown> | undefined;
      const token = body?._csrf ?? request.headers['x-csrf-token'];
      return typeof token === 'string' ? token : undefined;
    },
  });
  const flash = flashCookie(scope, {
    name: options.flashCookieName,
    path: options.path,
    secure: options.secure,
  });
  // The public listener reads every body as a stream for the APIs' own gates; a face reads forms only,
  // and refuses any other body with its page (form-body.ts).
  registerFormBody(scope);
  scope.addHook('onSend', (_request, reply, payload, done) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) setPageHeaders(reply);
    done(null, payload);
  });

  // One token a request: a page asks for its context more than once (an error page after its handler),
  // and the secret's cookie set with the first token must be the one every form of the page carries.
  const issued = new WeakMap<FastifyRequest, { binding: string; token: string }>();
  return {
    csrf: (request, reply, done) => {
      scope.csrfProtection(request, reply, done);
    },
    csrfToken(request, reply) {
      const binding = csrfBinding(request);
      const known = issued.get(request);
      if (known?.binding === binding) return known.token;
      const token = reply.generateCsrf({ userInfo: binding });
      issued.set(request, { binding, token });
      return token;
    },
    flash,
  };
}

/** The headers of a face's page: its CSP, no Referer sent on, never in a frame. */
export function setPageHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', WEB_CSP);
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
}
