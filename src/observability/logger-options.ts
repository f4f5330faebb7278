import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';
import { redactKeys } from '../lib/redact-keys.js';

/**
 * How a request is logged (the fields of Fastify's own serializer), with any key in its URL redacted.
 * The serializer runs for "incoming request" lines and wherever a request is logged as `req`.
 */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactKeys(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket.remotePort,
    };
  },
};

/**
 * Fastify's logger options for an instance to share (created with `logSerializers`, as server.ts does)
 * or a plain setting.
 */
export function loggerOptions(logger: FastifyBaseLogger | boolean | { level: string }): LoggerOptions {
  if (logger === false) return { logger: false };
  if (logger === true) return { logger: { serializers: logSerializers } };
  return 'child' in logger
    ? { loggerInstance: logger }
    : { logger: { ...logger, serializers: logSerializers } };
}

/** The part of Fastify's options that sets its logger. */
export type LoggerOptions = Pick<FastifyServerOptions, 'logger' | 'loggerInstance'>;
