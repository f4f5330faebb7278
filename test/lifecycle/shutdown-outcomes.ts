import type { HttpResponse } from '../support/server-process.js';
import type { Outcome } from './keep-alive.js';

// How the shutdown tests read what a load got back: the contract's 503, the acknowledged tickets, the
// error lines of the process's log.

/** The process's log lines at error level or above (pino: 50 error, 60 fatal). */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
    } catch {
      return false;
    }
  });
}

/**
 * How a 503 differs from the one an API's document gives (docs/ticket-api.md and docs/pos-api.md,
 * Errors: problem+json with type, title, status, detail, code `temporarily_unavailable`; Retry-After;
 * X-Request-Id), closing its connection: empty when it does not.
 */
export function unavailableDeviations(
  response: HttpResponse,
  expected: { retryAfter?: string; requestId?: boolean } = {},
): string[] {
  const deviations: string[] = [];
  const { headers } = response;
  if (response.status !== 503) deviations.push(`status ${response.status}`);
  if (headers['content-type'] !== 'application/problem+json; charset=utf-8') {
    deviations.push(`content-type ${headers['content-type']}`);
  }
  const body = response.json as Record<string, unknown> | undefined;
  const keys = Object.keys(body ?? {})
    .sort()
    .join(',');
  if (keys !== 'code,detail,status,title,type') deviations.push(`members ${keys}`);
  if (
    body?.type !== 'about:blank' ||
    body.title !== 'Service Unavailable' ||
    body.status !== 503 ||
    body.code !== 'temporarily_unavailable' ||
    typeof body.detail !== 'string' ||
    body.detail === ''
  ) {
    deviations.push(`body ${response.text}`);
  }
  const retryAfter = headers['retry-after'];
  if (retryAfter === undefined || !/^[1-9]\d*$/.test(retryAfter))
    deviations.push(`retry-after ${retryAfter}`);
  if (expected.retryAfter !== undefined && retryAfter !== expected.retryAfter) {
    deviations.push(`retry-after ${retryAfter}, not ${expected.retryAfter}`);
  }
  const requestId = headers['x-request-id'];
  if ((expected.requestId ?? true) && (typeof requestId !== 'string' || requestId === '')) {
    deviations.push('no x-request-id');
  }
  if (headers.connection !== 'close') deviations.push(`connection ${headers.connection}`);
  return deviations;
}

/**
 * Reads the answers to ticket POSTs (the i-th sent with external_id `externalIdOf(i)`): the tickets
 * acknowledged (201, or 200 for a resend) with their ids, and every answer that is neither that nor the
 * ticket API's 503, nor one of the connection errors named (no answer at all), nor the timeout of a
 * client that gave up on purpose (`gaveUp`).
 */
export function ticketAnswerProblems(
  outcomes: readonly Outcome[],
  externalIdOf: (i: number) => string,
  options: { connectionErrors: readonly string[]; gaveUp?: (i: number) => boolean },
): { acknowledged: Map<string, string>; problems: string[] } {
  const acknowledged = new Map<string, string>();
  const problems: string[] = [];
  outcomes.forEach((outcome, i) => {
    const externalId = externalIdOf(i);
    if (!outcome.ok) {
      const code = outcome.error.code ?? outcome.error.message;
      const expected =
        options.connectionErrors.includes(code) || (code === 'ETIMEDOUT' && options.gaveUp?.(i) === true);
      if (!expected) problems.push(`${externalId}: ${code}`);
      return;
    }
    const { response } = outcome;
    if (response.status === 201 || response.status === 200) {
      const body = response.json as { id?: unknown; duplicate?: unknown } | undefined;
      if (typeof body?.id !== 'string' || body.duplicate !== (response.status === 200)) {
        problems.push(`${externalId}: ${response.status} ${response.text}`);
        return;
      }
      acknowledged.set(externalId, body.id);
      return;
    }
    const deviations = unavailableDeviations(response);
    if (deviations.length > 0) problems.push(`${externalId}: ${deviations.join('; ')}`);
  });
  return { acknowledged, problems };
}

/** The outcomes counted by status or error code, for the test's notes: `201×231, 503×1, ECONNRESET×68`. */
export function tally(outcomes: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) {
    const what = outcome.ok ? String(outcome.response.status) : (outcome.error.code ?? outcome.error.message);
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([what, count]) => `${what}×${count}`)
    .join(', ');
}
