import { STATUS_CODES } from 'node:http';
import { problemCatalogue, type ProblemCode } from './problem-catalogue.js';

// A refusal as a value: a catalogue code with its extras, and the problem+json document it becomes. No
// HTTP framework here: services throw or return these; src/http/send-problem.ts writes them.

export type { ProblemCode };

/** Extra members of a problem body beyond type, title, status, detail and code. */
export interface ProblemExtras {
  detail?: string;
  param?: string;
  required_scope?: string;
  [member: string]: unknown;
}

/**
 * A refusal: a catalogue code with its extras, or a server-level status without `code`. It is an Error so
 * that a service can throw it, but it is an answer, not a fault: it carries no stack trace. Capturing one
 * (`new Error()` walks the async frames) was a sixth of a refused call's CPU: a POS ping answered 429
 * cost the event loop 119 µs with it, 99 without. A flood of 401s or 429s is where that counts most.
 */
export class Problem extends Error {
  override name = 'Problem';
  readonly status: number;
  readonly detail: string;

  constructor(
    readonly code: ProblemCode | null,
    readonly extras: ProblemExtras = {},
    status?: number,
    /** Response headers that belong to this refusal (Retry-After, Allow, WWW-Authenticate). */
    readonly headers: Record<string, string> = {},
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(code ?? 'problem');
    Error.stackTraceLimit = stackTraceLimit;
    const entry = code === null ? undefined : problemCatalogue[code];
    this.status = entry?.status ?? status ?? 500;
    this.detail = extras.detail ?? entry?.detail ?? statusTitle(this.status);
  }

  /** A refusal with a catalogue code. */
  static of(code: ProblemCode, extras: ProblemExtras = {}, headers: Record<string, string> = {}): Problem {
    return new Problem(code, extras, undefined, headers);
  }

  /** A server-level refusal: a status and detail, no `code` (documented exceptions only). */
  static withoutCode(status: number, detail: string): Problem {
    return new Problem(null, { detail }, status);
  }

  /** The `application/problem+json` document. */
  toJSON(): Record<string, unknown> {
    const { detail: _detail, ...extras } = this.extras;
    return {
      type: 'about:blank',
      title: statusTitle(this.status),
      status: this.status,
      detail: this.detail,
      ...(this.code === null ? {} : { code: this.code }),
      ...extras,
    };
  }
}

/** The English name of an HTTP status, as `title` carries it (Node's reason phrases). */
export function statusTitle(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown Status';
}
