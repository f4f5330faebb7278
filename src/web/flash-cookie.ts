import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// The one-time message a face shows on the next page after a form's redirect ("Senha definida", "Chave
// revogada"). It travels in a signed cookie of the face that lives a minute, not in the session: a visitor
// who set a password or asked for a reset link has nothing else worth a session row, and a message is
// not worth a write of its own. The face's cookie signer (@fastify/cookie) signs it, so nobody can put
// words of their own on the face's pages; it is HttpOnly, SameSite=Lax, scoped to the face's path and
// Secure in production, like the session's cookie.

/** How long a message waits for its page: the redirect after a form is followed at once. */
const FLASH_MAX_AGE_SECONDS = 60;

/**
 * The longest message kept, in characters: base64url of its UTF-8 stays far below the 4 KB a browser
 * keeps of a cookie, names put in a message included.
 */
const FLASH_MAX_CHARACTERS = 500;

/** A face's one-time messages. */
export interface FlashCookie {
  /** Keeps a message for the next page this browser opens on the face. */
  set(request: FastifyRequest, text: string): void;
  /** The message to show on this page, if there is one; it is not shown again. */
  take(request: FastifyRequest, reply: FastifyReply): string | null;
}

/** The face's one-time messages in the cookie `name`; registers the hook that writes the cookie. */
export function flashCookie(
  scope: FastifyInstance,
  options: { name: string; path: string; secure: boolean },
): FlashCookie {
  const { name, path, secure } = options;
  // Set during a request, written with its answer (the handlers that flash have the request at hand).
  const pending = new WeakMap<FastifyRequest, string>();

  scope.addHook('onSend', (request, reply, payload, done) => {
    const text = pending.get(request);
    if (text !== undefined) {
      void reply.setCookie(name, Buffer.from(text, 'utf8').toString('base64url'), {
        path,
        httpOnly: true,
        sameSite: 'lax',
        secure,
        signed: true,
        maxAge: FLASH_MAX_AGE_SECONDS,
      });
    }
    done(null, payload);
  });

  return {
    set(request, text) {
      pending.set(request, Array.from(text).slice(0, FLASH_MAX_CHARACTERS).join(''));
    },
    take(request, reply) {
      let text: string | null = null;
      // No cookies on a request refused before the face's cookie plugin ran (face-refusals.ts).
      const cookies = request.cookies as Partial<Record<string, string>> | undefined;
      const cookie = cookies?.[name];
      if (cookie !== undefined) {
        void reply.clearCookie(name, { path, httpOnly: true, sameSite: 'lax', secure });
        const unsigned = request.unsignCookie(cookie);
        if (unsigned.valid) text = Buffer.from(unsigned.value, 'base64url').toString('utf8') || null;
      }
      // A message set during this very request is shown on its own page, as the session's was.
      const now = pending.get(request);
      pending.delete(request);
      return now ?? text;
    },
  };
}
