import type { FastifyReply } from 'fastify';
import type { Problem } from '../errors/problem.js';
import { noteRequest } from '../observability/request-facts.js';

/** Writes a problem as `application/problem+json`, with the headers that belong to it. */
export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  const { param } = problem.extras;
  noteRequest(reply.request, {
    code: problem.code,
    detail: problem.detail,
    ...(typeof param === 'string' ? { param } : {}),
  });
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .type('application/problem+json; charset=utf-8')
    .send(JSON.stringify(problem.toJSON()));
}
