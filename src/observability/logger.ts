import { pino, type Logger } from 'pino';
import type { Config } from '../config.js';
import { logSerializers } from './logger-options.js';

// The process's logger (docs/operations.md, Logs): JSON lines on stdout, one per request and one per event of note;
// in development on a terminal, the same lines made readable by pino-pretty.

/** Whether pino-pretty is installed: a development dependency, absent from a production install. */
function prettyInstalled(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** The logger of the service: pretty in development on a TTY (when pino-pretty is installed), else JSON. */
export function createLogger(
  config: Pick<Config, 'env' | 'logLevel'>,
  terminal: boolean = process.stdout.isTTY,
): Logger {
  const options = { level: config.logLevel, serializers: logSerializers };
  if (config.env !== 'development' || !terminal || !prettyInstalled()) return pino(options);
  return pino({
    ...options,
    transport: {
      target: 'pino-pretty',
      options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
    },
  });
}
