import { once } from 'node:events';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { FLEET_ADMIN_TOKEN, fleetEnv } from '../test/fleet/fleet-fixtures.js';
import { adminCall, startServer, type ServerProcess } from '../test/support/server-process.js';
import { BENCH_ACCOUNT, BENCH_PLACE, benchEvents, benchReceipts, receiptBody } from './sales-data.js';
import { statCpuMs } from './ticket-path.js';

// The NDJSON upload as production serves it, for bench/ingest.ts (`npm run bench`) and
// bench/upload-year.ts: the built service (`node dist/server.js`, NODE_ENV=production, built beforehand
// with buildService) in a process of its own on a database of its own, the benchmark's account, place
// and events put through the admin API, then the receipts streamed from a file to
// POST /admin/v1/pos/accounts/{account}/receipts. What an upload measures is the server's: its wall
// time, the server process's CPU, and the server's peak resident memory (VmHWM), which is what issue
// 23's memory target holds (the load generator's own memory, the body's file being read, is not in it).

/**
 * The benchmark's first `size` receipts as an NDJSON file at `path` (one receipt a line, as POST receipts
 * takes them), written before an upload so that building the body is not timed; returns its size in bytes.
 */
export async function writeReceiptsFile(path: string, size: number): Promise<number> {
  const out = createWriteStream(path);
  let lines: string[] = [];
  const flush = async () => {
    if (!out.write(lines.join(''))) await once(out, 'drain');
    lines = [];
  };
  for (const receipt of benchReceipts(size, benchEvents())) {
    lines.push(`${JSON.stringify(receiptBody(receipt))}\n`);
    if (lines.length >= 10_000) await flush();
  }
  await flush();
  out.end();
  await once(out, 'finish');
  return out.bytesWritten;
}

/** A figure of /proc/<pid>/status in KiB (VmRSS: now; VmHWM: the peak so far). */
function statusKib(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? Number.NaN);
}

/** CPU seconds the whole process (every thread) spent so far. */
function processCpuSeconds(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8')) / 1000;
}

/** One upload: the server's answer, and what it cost the server. */
export interface Upload {
  status: number;
  text: string;
  seconds: number;
  /** CPU seconds of the server process (all its threads) during the upload. */
  cpuSeconds: number;
  /** The server's resident memory before the upload (KiB). */
  atRestKib: number;
  /** The server's peak resident memory since it started (VmHWM, KiB), read after the upload. */
  peakKib: number;
}

export interface UploadServer {
  readonly server: ServerProcess;
  /** Streams the NDJSON file at `path` as one upload of the benchmark's account. */
  upload(path: string): Promise<Upload>;
  /** SIGTERM, and waits for the process to end. */
  stop(): Promise<void>;
}

/** Streams `path` to the receipts route of the admin listener; resolves with the status and the answer. */
function post(adminPort: number, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const call = request(
      {
        port: adminPort,
        host: '127.0.0.1',
        method: 'POST',
        path: `/admin/v1/pos/accounts/${BENCH_ACCOUNT}/receipts`,
        headers: { authorization: `Bearer ${FLEET_ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', reject);
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, text });
        });
      },
    );
    call.on('error', reject);
    createReadStream(path).on('error', reject).pipe(call);
  });
}

/**
 * Starts the built service on `databaseUrl` (a fresh, migrated database; `env` adds variables, REDIS_URL
 * say) and puts the benchmark's account, place and events into it.
 */
export async function startUploadServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<UploadServer> {
  const server = await startServer(fleetEnv(databaseUrl, { NODE_ENV: 'production', ...env }), {
    built: true,
  });
  const stop = () => server.stop(30_000);
  try {
    await server.waitUntilListening();
    const put = async (path: string, body: unknown) => {
      const answer = await adminCall(
        server.adminPort,
        FLEET_ADMIN_TOKEN,
        'PUT',
        `/admin/v1/pos/accounts/${BENCH_ACCOUNT}${path}`,
        body,
      );
      if (answer.status >= 300) throw new Error(`PUT ${path} answered ${answer.status} ${answer.text}`);
    };
    await put('', { name: 'Bench' });
    await put(`/places/${BENCH_PLACE}`, { name: 'Bar', timezone: 'America/Sao_Paulo' });
    for (const event of benchEvents()) {
      await put(`/places/${BENCH_PLACE}/events/${event.id}`, {
        name: event.name,
        starts_at: new Date(event.startsAt).toISOString(),
        ends_at: new Date(event.endsAt).toISOString(),
        registered_at: new Date(event.startsAt).toISOString(),
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const pid = server.child.pid ?? 0;
  return {
    server,
    stop,
    async upload(path) {
      const atRestKib = statusKib(pid, 'VmRSS');
      const cpu = processCpuSeconds(pid);
      const started = performance.now();
      const answer = await post(server.adminPort, path);
      const seconds = (performance.now() - started) / 1000;
      return {
        ...answer,
        seconds,
        cpuSeconds: processCpuSeconds(pid) - cpu,
        atRestKib,
        peakKib: statusKib(pid, 'VmHWM'),
      };
    },
  };
}
