import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, dialects, testApp, type TestApp } from '../helper.js';
import { seedHelpdesk, ticket, TICKET_URL } from '../helpdesk/fixtures.js';
import { PROBLEM_TYPE, UUID } from '../expect-http.js';
import { openConnection, portOf, type RawConnection } from './raw-connection.js';

// One address cannot hold the public listener (MAX_CONNECTIONS_PER_IP; docs/operations.md, Connections and time
// limits). Measured before: 1,100 connections that each sent a POST's head and one body byte, with no key,
// left a partner with a valid key no answer in 27 s; the IP block never triggered, since no request
// completed. The attacker's connections come from 127.0.0.2 (`localAddress`), the partner's from
// 127.0.0.1: another address, which the limit must leave alone.

const ATTACKER = '127.0.0.2';
const LIMIT = 50;
const ATTACKERS = 1100;

/** A connection from the attacker's address that sends a POST's head and one body byte, then nothing. */
async function hold(port: number): Promise<RawConnection> {
  const connection = await openConnection(port, ATTACKER);
  connection.socket.write(
    `POST ${TICKET_URL} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
  );
  return connection;
}

/** One ticket of the partner on a new connection; its status and how long it took. */
async function partnerTicket(port: number, key: string, id: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}${TICKET_URL}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(ticket({ external_id: id })),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe('open connections per client address on the public listener [sqlite]', () => {
  let t: TestApp | undefined;
  const connections: RawConnection[] = [];

  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.socket.destroy();
    await t?.app.close();
    await t?.db.destroy();
  });

  async function listening(config: Record<string, string>): Promise<{ port: number; key: string }> {
    t = testApp({ db: (await dialects[0]!.open()).db, config });
    const { alpha } = await seedHelpdesk(t);
    await t.app.public.listen({ port: 0, host: '127.0.0.1' });
    return { port: portOf(t.app.public), key: alpha };
  }

  it(`${ATTACKERS} held connections from one address: the first ${LIMIT} are held, every other is refused at once with 429 rate_limited, and a partner from another address keeps getting its 201s promptly`, async () => {
    const { port, key } = await listening({ MAX_CONNECTIONS_PER_IP: String(LIMIT) });
    const before: number[] = [];
    for (let i = 0; i < 5; i += 1) before.push((await partnerTicket(port, key, `before-${i}`)).ms);

    for (let i = 0; i < ATTACKERS; i += 10) {
      connections.push(...(await Promise.all(Array.from({ length: 10 }, () => hold(port)))));
    }
    const during: { status: number; ms: number }[] = [];
    for (let i = 0; i < 5; i += 1) during.push(await partnerTicket(port, key, `during-${i}`));

    expect(during.map((call) => call.status)).toEqual([201, 201, 201, 201, 201]);
    // Promptly: the partner's median is within ten times its own median before the flood (plus 100 ms
    // of slack for a loaded machine); without the limit it got no answer at all.
    expect(median(during.map((call) => call.ms))).toBeLessThan(median(before) * 10 + 100);

    // Every connection over the limit was answered and closed by the server, without waiting for a limit.
    const refused = connections.slice(LIMIT);
    const answers = await Promise.all(refused.map((connection) => connection.answer));
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(answer.closedAfterMs).toBeLessThan(5000);
    }
    const [first] = answers;
    expect(first?.headers).toMatchObject({
      'content-type': PROBLEM_TYPE,
      'retry-after': '1',
      connection: 'close',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(first?.headers['x-request-id']).toMatch(UUID);
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({ status: 429, code: 'rate_limited' });
    // The first LIMIT are still open: held, not refused.
    expect(connections.slice(0, LIMIT).every((connection) => !connection.socket.destroyed)).toBe(true);

    const metrics = await t!.app.admin.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(metrics.body).toContain(`connections_over_ip_limit_total ${ATTACKERS - LIMIT}`);
  });

  it('a closed connection frees its place: once the address is under the limit again, its next connection is served', async () => {
    const { port } = await listening({ MAX_CONNECTIONS_PER_IP: '3' });
    for (let i = 0; i < 3; i += 1) connections.push(await hold(port));
    const over = await hold(port);
    expect((await over.answer).status).toBe(429);

    connections.shift()?.socket.destroy();
    await sleep(100);
    const next = await openConnection(port, ATTACKER);
    connections.push(next);
    next.socket.end(`GET /v1/api-public/ping HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
    const answer = await next.answer;
    expect(answer.status).toBe(401);
  });

  it('connections from a trusted proxy (TRUST_PROXY) are not counted: every client comes through it', async () => {
    const { port } = await listening({ MAX_CONNECTIONS_PER_IP: '3', TRUST_PROXY: `10.0.0.0/8, ${ATTACKER}` });
    for (let i = 0; i < 6; i += 1) connections.push(await hold(port));
    await sleep(200);
    expect(connections.every((connection) => !connection.socket.destroyed)).toBe(true);
    const metrics = await t!.app.admin.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(metrics.body).toContain('connections_over_ip_limit_total 0');
  });
});
