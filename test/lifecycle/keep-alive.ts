import { Agent, request } from 'node:http';
import type { HttpResponse } from '../support/server-process.js';

// Requests on kept-alive connections (an http.Agent with keepAlive), as a load balancer or a partner's
// pooled client sends them: what a shutdown must answer on connections it did not open itself.

/** A response read to its end, or the error with which the connection failed (no answer). */
export type Outcome = { ok: true; response: HttpResponse } | { ok: false; error: NodeJS.ErrnoException };

/** An agent that keeps up to `sockets` connections open between requests. */
export function keepAliveAgent(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
}

/** One request through `agent`; a body that is not a string is sent as JSON. Never rejects. */
export function send(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<Outcome> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (typeof options.body === 'string') payload = options.body;
  else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => {
        resolve({ ok: false, error });
      });
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json: unknown;
        if (/^application\/(?:[\w.-]+\+)?json\b/.test(res.headers['content-type'] ?? '')) {
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
        }
        resolve({ ok: true, response: { status: res.statusCode ?? 0, headers: res.headers, text, json } });
      });
    });
    req.setTimeout(options.timeoutMs ?? 30_000, () => {
      req.destroy(Object.assign(new Error(`${method} ${path}: no answer in time`), { code: 'ETIMEDOUT' }));
    });
    req.on('error', (error) => {
      resolve({ ok: false, error });
    });
    req.end(payload);
  });
}
