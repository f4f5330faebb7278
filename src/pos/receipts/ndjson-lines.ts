import type { Readable } from 'node:stream';

// Newline-delimited JSON read line by line from a stream of any length: only the lines of the chunk being
// read, and the line being assembled, are held in memory, never the body.

/** One non-blank line of the body, numbered from 1 as an editor numbers it (blank lines counted). */
export type NdjsonLine =
  { number: number; text: string } | { number: number; tooLong: true } | { number: number; notUtf8: true };

/**
 * The longest line an upload takes, in characters: a receipt is at most a few hundred, so a longer line
 * cannot be one (the admin API and the command line's receipt files alike).
 */
export const NDJSON_LINE_MAX = 65_536;

/** Longest UTF-8 encoding of one UTF-16 code unit: a line of `maxChars` units never has more bytes. */
const BYTES_PER_UNIT = 3;
const LF = 0x0a;

/**
 * The non-blank lines of `stream` (LF or CRLF; a leading byte-order mark is dropped), those read from
 * one chunk of it together, in order: a line at a time cost a million-line upload about 0.6 s in the
 * async iteration alone, per layer that passed it on. Lines are cut on bytes (a LF byte is never part of
 * a longer UTF-8 sequence) and each is decoded on its own, so a line that is not valid UTF-8 is named
 * exactly (`notUtf8`) instead of being stored with U+FFFD. A line longer than `maxChars` is reported as
 * `tooLong`; either ends its batch, and reading stops there. The stream is not destroyed when the caller
 * stops early, so that the response can still be written to its socket.
 */
export async function* ndjsonLineBatches(stream: Readable, maxChars: number): AsyncGenerator<NdjsonLine[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  let first = true;

  function complete(bytes: Buffer): NdjsonLine | undefined {
    number += 1;
    let line: string;
    try {
      line = decoder.decode(bytes);
    } catch {
      return { number, notUtf8: true };
    }
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (first) {
      first = false;
      if (line.startsWith('\uFEFF')) line = line.slice(1);
    }
    if (line.length > maxChars) return { number, tooLong: true };
    return line.trim() === '' ? undefined : { number, text: line };
  }

  function take(end: Buffer): Buffer {
    const bytes = pending.length === 0 ? end : Buffer.concat([...pending, end], pendingBytes + end.length);
    pending = [];
    pendingBytes = 0;
    return bytes;
  }

  for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const lines: NdjsonLine[] = [];
    let start = 0;
    let newline = bytes.indexOf(LF, start);
    while (newline !== -1) {
      const line = complete(take(bytes.subarray(start, newline)));
      if (line !== undefined) {
        lines.push(line);
        if (!('text' in line)) {
          yield lines;
          return;
        }
      }
      start = newline + 1;
      newline = bytes.indexOf(LF, start);
    }
    if (start < bytes.length) {
      pending.push(bytes.subarray(start));
      pendingBytes += bytes.length - start;
    }
    if (pendingBytes > maxChars * BYTES_PER_UNIT + 1) {
      lines.push({ number: number + 1, tooLong: true });
      yield lines;
      return;
    }
    if (lines.length > 0) yield lines;
  }
  if (pendingBytes > 0) {
    const line = complete(take(Buffer.alloc(0)));
    if (line !== undefined) yield [line];
  }
}

/** The lines of `ndjsonLineBatches`, one at a time. */
export async function* ndjsonLines(stream: Readable, maxChars: number): AsyncGenerator<NdjsonLine> {
  for await (const lines of ndjsonLineBatches(stream, maxChars)) yield* lines;
}
