import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer of a listener carries, whatever answered it (a route, a gate, an error or
 * not-found handler): `X-Content-Type-Options: nosniff`, so that no browser reads a JSON or problem body
 * as anything else, and `Cache-Control: no-store`, since every answer is private to its caller (tickets,
 * sales figures, a newly issued key) and must not be kept by a proxy or a browser.
 */
export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
