import type { Readable } from 'node:stream';

/** The largest request body the public APIs accept, in bytes as sent (both documents, Limits). */
export const BODY_LIMIT_BYTES = 65_536;

export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' };

/**
 * Reads a request body up to `limit` bytes. A declared `Content-Length` above the limit is refused
 * without reading; a chunked body is refused as soon as it passes the limit.
 */
export async function readBody(
  stream: Readable,
  declaredLength: string | undefined,
  limit: number,
): Promise<BodyRead> {
  if (declaredLength !== undefined && /^\d+$/.test(declaredLength) && Number(declaredLength) > limit) {
    return { ok: false, reason: 'too_large' };
  }
  if (stream.readableEnded) return { ok: true, bytes: Buffer.alloc(0) };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > limit) return { ok: false, reason: 'too_large' };
    chunks.push(buffer);
  }
  return { ok: true, bytes: Buffer.concat(chunks, size) };
}
