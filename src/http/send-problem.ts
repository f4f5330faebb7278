import type { FastifyReply } from 'fastify';
import type { Problem } from '../errors/problem.js';

/** Writes a problem as `application/problem+json`, with the headers that belong to it. */
export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .type('application/problem+json; charset=utf-8')
    .send(JSON.stringify(problem.toJSON()));
}
