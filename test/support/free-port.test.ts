import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, lowestEphemeralPort } from './server-process.js';

// The ports the tests start servers on: free, below the kernel's ephemeral ports (which an outgoing
// connection of another test could take meanwhile), and never the same twice in a row (a harness takes
// two before it listens on either).

/** Listens on `port` at 127.0.0.1; null when it is taken. */
function hold(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      resolve(null);
    });
    server.listen(port, '127.0.0.1', () => {
      resolve(server);
    });
  });
}

function release(server: Server | null): Promise<void> {
  return new Promise((resolve) => {
    if (server === null) resolve();
    else
      server.close(() => {
        resolve();
      });
  });
}

describe('freePort', () => {
  it('gives a port below the ephemeral range that a server can listen on', async () => {
    const port = await freePort();
    expect(port).toBeLessThan(lowestEphemeralPort());
    const server = await hold(port);
    expect(server).not.toBeNull();
    await release(server);
  });

  it('never gives the same port twice, though none was listened on', async () => {
    const ports = [];
    for (let i = 0; i < 50; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('passes over a port that is taken', async () => {
    const given = await freePort();
    // The ports that follow it, held by someone else (or taken already).
    const held = await Promise.all([1, 2, 3].map((step) => hold(given + step)));
    try {
      const next = await freePort();
      expect([given, given + 1, given + 2, given + 3]).not.toContain(next);
    } finally {
      await Promise.all(held.map(release));
    }
  });
});
