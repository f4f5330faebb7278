import { PassThrough, type Readable } from 'node:stream';
import { Problem } from '../errors/problem.js';

// A request body that stops arriving must not hold what it was given (issue "Steady under faults and
// abuse": one NDJSON line and then nothing held a database connection for ever). The body is read
// through a stream that fails with 408 `request_timeout` when the client sends nothing for `idleMs`
// while it is waited for, or when the whole body takes longer than `totalMs`.

/** How long a body may take. */
export interface BodyDeadlines {
  /** Longest wait for the next bytes while the reader is ready for them. */
  idleMs: number;
  /** Longest time from the start of the reading to the body's last byte. */
  totalMs: number;
}

const idleProblem = (ms: number) =>
  Problem.of('request_timeout', {
    detail: `No part of the request body arrived for ${ms / 1000} s; nothing of it was stored. Send it again.`,
  });

const totalProblem = (ms: number) =>
  Problem.of('request_timeout', {
    detail: `The request body took longer than ${ms / 1000} s; nothing of it was stored. Send it in smaller parts.`,
  });

/**
 * `body` as a stream that ends with it, or fails with the 408 Problem when a deadline passes. Time
 * spent while the reader is behind (the client's bytes wait for it) is not idle time. The body itself is
 * only unpiped, never destroyed, so that the answer can still be written to its socket.
 */
export function withDeadlines(body: Readable, deadlines: BodyDeadlines): Readable {
  const guarded = new PassThrough();
  let idleTimer: NodeJS.Timeout | undefined;

  function stop(): void {
    clearTimeout(idleTimer);
    clearTimeout(totalTimer);
    body.off('data', armIdle);
  }
  function fail(problem: Problem): void {
    stop();
    body.unpipe(guarded);
    guarded.destroy(problem);
  }
  function armIdle(): void {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      // Bytes are waiting for the reader, not the reader for bytes: the client is not idle.
      if (guarded.writableNeedDrain || body.readableLength > 0) armIdle();
      else fail(idleProblem(deadlines.idleMs));
    }, deadlines.idleMs);
  }
  const totalTimer = setTimeout(() => {
    fail(totalProblem(deadlines.totalMs));
  }, deadlines.totalMs);

  body.on('data', armIdle);
  body.once('end', stop);
  // A pipe does not carry errors: the client going away must reach the reader as it did before.
  body.once('error', (error) => {
    stop();
    guarded.destroy(error);
  });
  body.once('close', () => {
    if (!body.readableEnded && !guarded.destroyed) {
      stop();
      guarded.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    }
  });
  guarded.once('close', stop);
  armIdle();
  body.pipe(guarded);
  return guarded;
}
