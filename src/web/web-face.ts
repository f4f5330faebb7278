import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import fastifySession from '@fastify/session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { registerFormBody } from './form-body.js';
import type { DbSessionStore } from './session-store.js';

// What every web face (the merchant panel, the back-office console) stands on, registered inside the
// face's own plugin so that nothing of it reaches the APIs beside it: cookies, a session in an HttpOnly,
// SameSite=Lax cookie (Secure in production) kept in the database, CSRF protection of every form post,
// and url-encoded form bodies. The CSP lets the page load scripts, styles and images from the service only.

declare module 'fastify' {
  interface Session {
    /** The signed-in user of the face; absent before sign-in. */
    userId?: string;
    /** A message to show once on the next page (after a redirect). */
    flash?: string;
  }
}

/** A page's Content-Security-Policy: nothing from elsewhere, no inline script or style, no frames. */
export const WEB_CSP = [
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
  /** The face's path prefix, where its cookies are sent (`/panel`). */
  path: string;
  /** Signs the session cookie (config SESSION_SECRET). */
  secret: string;
  /** Secure cookies (config NODE_ENV=production). */
  secure: boolean;
  store: DbSessionStore;
  /** How long a session lasts without use. */
  idleMs: number;
}

/** Registers the session, CSRF and form plugins on the face's scope, and its page headers. */
export async function registerWebFace(scope: FastifyInstance, options: WebFaceOptions): Promise<void> {
  await scope.register(fastifyCookie);
  await scope.register(fastifySession, {
    secret: options.secret,
    cookieName: options.cookieName,
    store: options.store,
    saveUninitialized: false,
    // The session lives `idleMs` after its last page: each page renews the cookie.
    rolling: true,
    idGenerator: () => randomBytes(32).toString('base64url'),
    cookie: {
      path: options.path,
      httpOnly: true,
      sameSite: 'lax',
      secure: options.secure,
      maxAge: options.idleMs,
    },
  });
  await scope.register(fastifyCsrfProtection, {
    sessionPlugin: '@fastify/session',
    getToken: (request) => {
      const body = request.body as Record<string, unknown> | undefined;
      const token = body?._csrf ?? request.headers['x-csrf-token'];
      return typeof token === 'string' ? token : undefined;
    },
  });
  // The public listener reads every body as a stream for the APIs' own gates; a face reads forms only,
  // and refuses any other body with its page (form-body.ts).
  registerFormBody(scope);
  scope.addHook('onSend', (_request, reply, payload, done) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) setPageHeaders(reply);
    done(null, payload);
  });
}

/** The headers of a face's page: its CSP, no Referer sent on, never in a frame. */
export function setPageHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', WEB_CSP);
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
}

/** Every form post of a face passes the CSRF check first (`onRequest` would run before the body). */
export function requireCsrf(scope: FastifyInstance) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    scope.csrfProtection(request, reply, done);
  };
}
