import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import { sendProblem } from './send-problem.js';

/** A successful (or planned-route) answer of a public API. */
export interface Answer {
  status: number;
  /** JSON body; undefined sends no body. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** What every call through a public API carries: the request, its reply and the time it arrived. */
export interface ApiCall {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Arrival time (ms), read once from the injected clock. */
  readonly now: number;
}

/**
 * One rule of an API's "order in which problems are answered": it lets the call through (undefined),
 * refuses it (a Problem) or answers it early (an Answer, as OPTIONS does).
 */
export type Gate<C extends ApiCall> = (
  call: C,
) => Promise<Problem | Answer | undefined> | Problem | Answer | undefined;

/**
 * Runs the gates in order and sends the first refusal or early answer; returns true when all passed. A
 * gate that answers synchronously is not awaited: most gates are plain checks, and awaiting each cost a
 * turn of the microtask queue and a promise per gate on every call.
 */
export async function passGates<C extends ApiCall>(call: C, gates: readonly Gate<C>[]): Promise<boolean> {
  for (const gate of gates) {
    const pending = gate(call);
    const outcome = pending instanceof Promise ? await pending : pending;
    if (outcome !== undefined) {
      send(call.reply, outcome);
      return false;
    }
  }
  return true;
}

/** Sends a Problem as problem+json, or an Answer as JSON. */
export function send(reply: FastifyReply, outcome: Problem | Answer): FastifyReply {
  if (outcome instanceof Problem) return sendProblem(reply, outcome);
  reply.code(outcome.status).headers(outcome.headers ?? {});
  if (outcome.body === undefined) return reply.send();
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(outcome.body));
}
