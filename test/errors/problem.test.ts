import { describe, expect, it } from 'vitest';
import { Problem } from '../../src/errors/problem.js';

// A Problem is a refusal, an answer the APIs give by design: it can be thrown, but it captures no stack
// trace, which was a sixth of a refused call's CPU.

describe('Problem', () => {
  it('is an Error a service can throw, and captures no stack trace', () => {
    const problem = Problem.of('rate_limited');
    expect(problem).toBeInstanceOf(Error);
    expect(problem.message).toBe('rate_limited');
    expect(problem.stack).toBe('Problem: rate_limited');
    expect(() => {
      throw problem;
    }).toThrow(problem);
  });

  it('leaves the stack traces of other errors as they were', () => {
    const before = Error.stackTraceLimit;
    Problem.withoutCode(503, 'Closing.');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('fault').stack).toMatch(/\n\s+at /);
  });

  it('writes its problem+json document from the catalogue', () => {
    expect(Problem.of('rate_limited', {}, { 'retry-after': '3' }).toJSON()).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: expect.any(String) as string,
      code: 'rate_limited',
    });
  });
});
