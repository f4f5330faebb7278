import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

// The proxy the fault tests put between one server process and PostgreSQL or Redis, checked against a
// tiny echo server.

interface Echo {
  server: Server;
  port: number;
  /** Connections the echo server holds now. */
  open: Set<Socket>;
}

async function startEcho(): Promise<Echo> {
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('no port');
  return { server, port: address.port, open };
}

/** A connected client socket, or the connection error's code. */
function dial(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => socket.destroy());
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Writes the text and resolves with the first answer, or 'no answer' after `ms`. */
function exchange(socket: Socket, text: string, ms = 2000): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.off('data', onData);
      resolve('no answer');
    }, ms);
    const onData = (chunk: Buffer) => {
      clearTimeout(timer);
      resolve(chunk.toString());
    };
    socket.once('data', onData);
    socket.write(text);
  });
}

/** Everything the socket receives from now on, gathered as it arrives. */
function received(socket: Socket): { readonly text: string } {
  const got = { text: '' };
  socket.on('data', (chunk: Buffer) => {
    got.text += chunk.toString();
  });
  return got;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    else
      socket.once('close', () => {
        resolve();
      });
  });
}

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('tcp proxy (fault injection for one process)', () => {
  let echo: Echo;
  let proxy: TcpProxy;
  const clients: Socket[] = [];
  const client = async (port = proxy.port) => {
    const socket = await dial(port);
    clients.push(socket);
    return socket;
  };

  beforeEach(async () => {
    echo = await startEcho();
    proxy = await startTcpProxy({ targetHost: '127.0.0.1', targetPort: echo.port });
  });
  afterEach(async () => {
    for (const socket of clients.splice(0)) socket.destroy();
    await proxy.close();
    await new Promise((resolve) => echo.server.close(resolve));
  });

  it('forwards both ways', async () => {
    const socket = await client();
    expect(await exchange(socket, 'hello')).toBe('hello');
    expect(echo.open.size).toBe(1);
  });

  it('url() points a URL at the proxy and keeps everything else', () => {
    expect(proxy.url('postgres://postgres:pw@db.internal:5432/test?sslmode=disable')).toBe(
      `postgres://postgres:pw@127.0.0.1:${proxy.port}/test?sslmode=disable`,
    );
    expect(proxy.url('redis://localhost:6379/2')).toBe(`redis://127.0.0.1:${proxy.port}/2`);
  });

  it('refuse: open connections are closed on both sides, new ones get ECONNREFUSED', async () => {
    const socket = await client();
    expect(await exchange(socket, 'before')).toBe('before');

    await proxy.refuse();
    await closed(socket);
    await until(() => echo.open.size === 0);
    await expect(dial(proxy.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('blackhole: open connections are closed, new ones connect and get no answer', async () => {
    const before = await client();
    proxy.blackhole();
    await closed(before);

    const socket = await client();
    expect(await exchange(socket, 'anyone?', 300)).toBe('no answer');
    expect(echo.open.size).toBe(0);
    expect(socket.destroyed).toBe(false);
  });

  it('restore after refuse: the same port forwards again', async () => {
    await proxy.refuse();
    await proxy.restore();
    expect(await exchange(await client(), 'again')).toBe('again');
  });

  it('restore after blackhole: held connections are dropped, new ones forward', async () => {
    proxy.blackhole();
    const held = await client();
    await proxy.restore();
    await closed(held);
    expect(await exchange(await client(), 'again')).toBe('again');
  });

  it('freeze: open connections stay open and pass nothing either way; restore passes what was held, in order', async () => {
    const socket = await client();
    expect(await exchange(socket, 'before')).toBe('before');
    const got = received(socket);

    proxy.freeze();
    socket.write('one,');
    socket.write('two,');
    for (const serverSide of echo.open) serverSide.write('server,');
    await sleep(200);
    expect(got.text).toBe('');
    expect(socket.destroyed).toBe(false);
    expect(echo.open.size).toBe(1);

    await proxy.restore();
    // The server's own bytes were held first; the client's reach the echo only now.
    await until(() => got.text === 'server,one,two,');
    expect(await exchange(socket, 'after')).toBe('after');
    expect(echo.open.size).toBe(1);
  });

  it('freeze: new connections are accepted and held, and answered once restored', async () => {
    proxy.freeze();
    const socket = await client();
    const got = received(socket);
    socket.write('early');
    await sleep(200);
    expect(got.text).toBe('');
    expect(socket.destroyed).toBe(false);

    await proxy.restore();
    await until(() => got.text === 'early');
  });

  it('freeze after refuse is refused until restore', async () => {
    await proxy.refuse();
    expect(() => {
      proxy.freeze();
    }).toThrow(/refused/);
    await proxy.restore();
    proxy.freeze();
    await proxy.restore();
    expect(await exchange(await client(), 'again')).toBe('again');
  });

  it('close: nothing stays open and the port refuses', async () => {
    const socket = await client();
    expect(await exchange(socket, 'x')).toBe('x');
    await proxy.close();
    await closed(socket);
    await until(() => echo.open.size === 0);
    await expect(dial(proxy.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(proxy.restore()).rejects.toThrow(/closed/);
  });
});
