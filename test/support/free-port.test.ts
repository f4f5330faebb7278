import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from './server-process.js';

// The ports the tests start servers on: free, and below the kernel's ephemeral ports, which an outgoing
// connection of another test could take meanwhile.

describe('freePort', () => {
  it('gives a port below the ephemeral range that a server can listen on', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const port = await freePort();
    expect(port).toBeLessThan(Number(low));
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('passes over a port that is taken', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const taken = await freePort();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(taken, '127.0.0.1', resolve));
    // The first pick lands on the taken port.
    const random = vi
      .spyOn(Math, 'random')
      .mockReturnValueOnce((taken + 0.5 - 20000) / (Number(low) - 20000));
    try {
      const port = await freePort();
      expect(random).toHaveBeenCalledTimes(2);
      expect(port).not.toBe(taken);
    } finally {
      random.mockRestore();
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
