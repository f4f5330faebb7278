import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedHelpdesk, ticket, TICKET_URL } from '../test/helpdesk/fixtures.js';
import type { AdminClient } from '../test/helper.js';
import { startServer, type ServerProcess } from '../test/support/server-process.js';

// `npx tsx bench/edge.ts`: what slow and greedy clients hold on a real server process with the default
// settings (docs/operations.md, Connections and time limits). Not part of `npm run bench` (about two minutes, mostly
// waiting) nor of the tests' pass/fail.
// 1. How long each kind of slow client keeps its connection: a head sent one line a second, a body sent
//    one byte every 5 s, a connection that sends nothing, a kept-alive connection left idle.
// 2. 1,100 connections from 127.0.0.2 that each send a POST's head and one body byte, against a server
//    whose open-file limit is the common default of 1,024 (set with util-linux's prlimit; skipped
//    without it): how many of a partner's tickets from 127.0.0.1 are answered, per-IP limit off and on.

const ADMIN_TOKEN = 'bench-admin-token-0123456789';
/** A probe gives up after this: "still open". */
const GIVE_UP_MS = 100_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function server(env: Record<string, string> = {}): Promise<{ process: ServerProcess; key: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-edge-'));
  const process = await startServer({
    DATABASE_URL: `file:${join(dir, 'service.sqlite')}`,
    DEMO: 'false',
    ADMIN_TOKEN,
    CURSOR_SECRET: 'bench-cursor-secret-0123456789',
    LOG_LEVEL: 'warn',
    ...env,
  });
  void process.exited.then(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  await process.waitUntilListening();
  const client: AdminClient = {
    async admin(method, url, body) {
      const response = await fetch(`http://127.0.0.1:${process.adminPort}${url}`, {
        method: String(method),
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${String(method)} ${url}: ${response.status} ${text}`);
      return { statusCode: response.status, body: text };
    },
  };
  return { process, key: (await seedHelpdesk(client)).alpha };
}

/** Opens a connection, runs `act` on it, and resolves with the seconds until the server closed it. */
function heldFor(port: number, act: (socket: Socket) => void): Promise<string> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1' });
    let first = '';
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve(`still open after ${GIVE_UP_MS / 1000} s`);
    }, GIVE_UP_MS);
    socket.on('data', (chunk: Buffer) => {
      first ||= chunk.toString('latin1').split('\r\n')[0] ?? '';
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(`closed after ${((Date.now() - started) / 1000).toFixed(1)} s (${first || 'no answer'})`);
    });
    socket.on('connect', () => {
      act(socket);
    });
  });
}

/** Writes one piece every `everyMs` while the socket is open. */
function dripEvery(socket: Socket, everyMs: number, piece: string): void {
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write(piece);
  }, everyMs);
}

async function slowClients(): Promise<void> {
  const { process } = await server();
  const port = process.port;
  const head = `POST ${TICKET_URL} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n`;
  const results = await Promise.all([
    heldFor(port, (socket) => {
      socket.write(head);
      dripEvery(socket, 1000, 'X-Slow: 1\r\n');
    }),
    heldFor(port, (socket) => {
      socket.write(`${head}Content-Length: 1000\r\n\r\n{`);
      dripEvery(socket, 5000, ' ');
    }),
    heldFor(port, () => undefined),
    heldFor(port, (socket) => {
      socket.write('GET /v1/api-public/ping HTTP/1.1\r\nHost: a\r\n\r\n');
    }),
  ]);
  const names = [
    'a head sent one line a second',
    'a POST body sent one byte every 5 s',
    'a connection that sends nothing',
    'a kept-alive connection left idle',
  ];
  for (const [index, result] of results.entries()) console.log(`${names[index]?.padEnd(40)} ${result}`);
  await process.stop();
}

async function flood(limit: string | undefined): Promise<void> {
  const { process, key } = await server(limit === undefined ? {} : { MAX_CONNECTIONS_PER_IP: limit });
  const port = process.port;
  try {
    execFileSync('prlimit', ['--pid', String(process.child.pid), '--nofile=1024:1024']);
  } catch {
    console.log('flood: skipped (no prlimit to lower the server process open-file limit)');
    await process.stop();
    return;
  }
  const sockets: Socket[] = [];
  for (let i = 0; i < 1100; i += 1) {
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(
        `POST ${TICKET_URL} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
    });
    sockets.push(socket);
  }
  await pause(1500);
  const started = Date.now();
  const answered: number[] = [];
  let failed = '';
  for (let i = 0; i < 20 && Date.now() - started < 20_000; i += 1) {
    const callStarted = performance.now();
    try {
      const response = await fetch(`http://127.0.0.1:${port}${TICKET_URL}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify(ticket({ external_id: `flood-${i}` })),
        signal: AbortSignal.timeout(20_000),
      });
      await response.arrayBuffer();
      if (response.status === 201) answered.push(performance.now() - callStarted);
    } catch (error) {
      failed = ` (then: ${(error as Error).message})`;
      break;
    }
  }
  answered.sort((a, b) => a - b);
  const median = answered[Math.floor(answered.length / 2)];
  console.log(
    `MAX_CONNECTIONS_PER_IP=${limit ?? 'default'}: partner tickets answered 201: ${answered.length} of 20` +
      (median === undefined
        ? ''
        : `, median ${median.toFixed(1)} ms, max ${answered.at(-1)?.toFixed(1)} ms`) +
      failed,
  );
  for (const socket of sockets) socket.destroy();
  await process.stop();
}

console.log('Slow clients, default settings (each probe gives up after 100 s):');
await slowClients();
console.log('\n1,100 held connections from one address, server open-file limit 1,024:');
await flood('1000000');
await flood(undefined);
