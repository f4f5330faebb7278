import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';

// The app's own log, read back by a test: every line pino writes, parsed, so that a suite can hold the
// app to "no error-level line" (pino's levels: 50 error, 60 fatal) and find the line a refusal left.

/** One line of the app's log. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger at info that keeps what it writes in `lines`. */
export function capturedLog(): { logger: FastifyBaseLogger; lines: LogLine[]; errors(): LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of String(chunk).split('\n')) {
        if (text !== '') lines.push(JSON.parse(text) as LogLine);
      }
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger;
  return { logger, lines, errors: () => lines.filter((line) => line.level >= 50) };
}
