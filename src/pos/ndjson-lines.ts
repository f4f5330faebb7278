import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

// Newline-delimited JSON read line by line from a stream of any length: only the line being assembled is
// held in memory, never the body.

/** One non-blank line of the body, numbered from 1 as an editor numbers it (blank lines counted). */
export type NdjsonLine = { number: number; text: string } | { number: number; tooLong: true };

/**
 * The non-blank lines of `stream` (LF or CRLF; a leading byte-order mark is dropped; invalid UTF-8 becomes
 * U+FFFD). A line longer than `maxChars` is reported as `tooLong` and reading stops after it. The stream
 * is not destroyed when the caller stops early, so that the response can still be written to its socket.
 */
export async function* ndjsonLines(stream: Readable, maxChars: number): AsyncGenerator<NdjsonLine> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let number = 0;
  let first = true;

  function* complete(text: string): Generator<NdjsonLine> {
    number += 1;
    let line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (first) {
      first = false;
      if (line.startsWith('\uFEFF')) line = line.slice(1);
    }
    if (line.length > maxChars) yield { number, tooLong: true };
    else if (line.trim() !== '') yield { number, text: line };
  }

  for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string>) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let start = 0;
    let newline = pending.indexOf('\n', start);
    while (newline !== -1) {
      for (const line of complete(pending.slice(start, newline))) {
        yield line;
        if ('tooLong' in line) return;
      }
      start = newline + 1;
      newline = pending.indexOf('\n', start);
    }
    pending = pending.slice(start);
    if (pending.length > maxChars + 1) {
      yield { number: number + 1, tooLong: true };
      return;
    }
  }
  pending += decoder.end();
  if (pending !== '') yield* complete(pending);
}
