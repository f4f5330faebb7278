import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

/** Fastify's logger options for an instance to share or a plain setting. */
export function loggerOptions(logger: FastifyBaseLogger | boolean | { level: string }): LoggerOptions {
  return typeof logger === 'boolean' || !('child' in logger) ? { logger } : { loggerInstance: logger };
}

/** The part of Fastify's options that sets its logger. */
export type LoggerOptions = Pick<FastifyServerOptions, 'logger' | 'loggerInstance'>;
