import type { Readable } from 'node:stream';

/** The largest request body the public APIs accept, in bytes as sent (both documents, Limits). */
export const BODY_LIMIT_BYTES = 65_536;

export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' };

/** The error of a body whose stream closed before its end without one of its own. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * Reads a request body up to `limit` bytes. A declared `Content-Length` above the limit is refused
 * without reading; a chunked body is refused as soon as it passes the limit. A refused body is left
 * flowing, never destroyed: its rest is dropped as it arrives, and the connection's staged close reads
 * it (lingering-close.ts). A request destroyed here would stop its connection's reading, and the close
 * would then reset a client still sending before it read its 413.
 */
export function readBody(
  stream: Readable,
  declaredLength: string | undefined,
  limit: number,
): Promise<BodyRead> {
  if (declaredLength !== undefined && /^\d+$/.test(declaredLength) && Number(declaredLength) > limit) {
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  if (stream.readableEnded) return Promise.resolve({ ok: true, bytes: Buffer.alloc(0) });
  if (stream.destroyed) return Promise.reject(stream.errored ?? prematureClose());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    function stop(): void {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    }
    function onData(chunk: Buffer | string): void {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > limit) {
        stop();
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(buffer);
    }
    function onEnd(): void {
      stop();
      resolve({ ok: true, bytes: Buffer.concat(chunks, size) });
    }
    // A client that goes away mid-body: the request fails with Node's error (`aborted`, ECONNRESET),
    // which client-gone.ts recognises, as it did when the body was read by iteration.
    function onError(error: Error): void {
      stop();
      reject(error);
    }
    function onClose(): void {
      stop();
      reject(prematureClose());
    }
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('close', onClose);
  });
}
