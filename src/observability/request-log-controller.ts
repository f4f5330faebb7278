import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's own lines about a request, fitted to one line per request (docs/operations.md, Logs): the request's line
 * is written by request-observer.ts once it is answered, so Fastify's "request completed" is dropped
 * (unless the answer itself failed) and its "incoming request" is kept at debug, for whoever needs to
 * see a request arrive before it is answered (a slow upload, a shutdown).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    _request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) reply.log.error({ err: error, responseTime: reply.elapsedTime }, 'request errored');
  }
}
