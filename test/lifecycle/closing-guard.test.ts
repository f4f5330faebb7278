import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { Problem } from '../../src/errors/problem.js';
import { guardClosing } from '../../src/lifecycle/closing-guard.js';
import { createLifecycle } from '../../src/lifecycle/lifecycle.js';

// The guard on a bare listener: what counts as work in progress (the shutdown closes the stores only
// after it), and the refusal that replaces Fastify's own 503 once closing.

function guardedApp() {
  const lifecycle = createLifecycle({ clock: systemClock });
  const app = Fastify({ return503OnClosing: false });
  const guard = guardClosing(app, {
    lifecycle,
    refusal: () => Problem.of('temporarily_unavailable', {}, { 'retry-after': '5' }),
  });
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Answers at once, then goes on working: as a handler whose client left while it wrote a ticket.
  app.post('/answers-then-works', async (_request, reply) => {
    await reply.send({ ok: true });
    await released;
    return reply;
  });
  app.get('/waits', async () => {
    await released;
    return { ok: true };
  });
  app.setNotFoundHandler(
    guard.track(async (_request, reply) => {
      await released;
      return reply.code(404).send();
    }),
  );
  return { app, lifecycle, release };
}

const whats = (lifecycle: ReturnType<typeof createLifecycle>) =>
  lifecycle
    .inProgress()
    .map((work) => work.what)
    .sort();

describe('closing guard', () => {
  it('a route handler counts as work until it returns, even after its answer went out', async () => {
    const { app, lifecycle, release } = guardedApp();
    const response = await app.inject({ method: 'POST', url: '/answers-then-works' });
    expect(response.statusCode).toBe(200);
    expect(whats(lifecycle)).toEqual(['POST /answers-then-works (handler)']);
    let idle = false;
    void lifecycle.idle().then(() => {
      idle = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toBe(false);
    release();
    await lifecycle.idle();
    expect(lifecycle.inProgress()).toEqual([]);
    await app.close();
  });

  it('an admitted request counts until it is answered, the not-found handler too; once closing, a new one is refused without being counted', async () => {
    const { app, lifecycle, release } = guardedApp();
    const waiting = app.inject({ url: '/waits' });
    const notFound = app.inject({ url: '/nowhere' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(whats(lifecycle)).toEqual([
      'GET /nowhere (handler)',
      'GET /nowhere (request)',
      'GET /waits (handler)',
      'GET /waits (request)',
    ]);

    lifecycle.startDraining();
    lifecycle.startClosing();
    const refused = await app.inject({ url: '/waits' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers).toMatchObject({ connection: 'close', 'retry-after': '5' });
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'temporarily_unavailable' });
    expect(lifecycle.inProgress()).toHaveLength(4);

    release();
    expect((await waiting).statusCode).toBe(200);
    expect((await waiting).headers.connection).toBe('close');
    expect((await notFound).statusCode).toBe(404);
    await lifecycle.idle();
    await app.close();
  });
});
