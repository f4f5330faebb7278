import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ndjsonLineBatches, ndjsonLines, type NdjsonLine } from '../../src/pos/receipts/ndjson-lines.js';

// The NDJSON reader of uploads (docs/back-office.md, receipts upload): the lines read from one chunk of
// the body come together, numbered as an editor numbers them, and reading stops at the first line it
// cannot take. The admin API's tests hold the answers built on it; these hold the batches themselves.

const chunks = (...parts: (string | Buffer)[]) =>
  Readable.from(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));

async function batchesOf(stream: Readable, maxChars = 100): Promise<NdjsonLine[][]> {
  const batches: NdjsonLine[][] = [];
  for await (const batch of ndjsonLineBatches(stream, maxChars)) batches.push(batch);
  return batches;
}

describe('ndjsonLineBatches', () => {
  it('gives the lines of each chunk together, a line cut between chunks with the chunk that ends it', async () => {
    const batches = await batchesOf(
      chunks('\uFEFF{"a":1}\r\n\n{"b"', ':2}\n{"c":3}\n  \n{"d":4}', '\n{"e":5}'),
    );
    expect(batches).toEqual([
      [{ number: 1, text: '{"a":1}' }],
      [
        { number: 3, text: '{"b":2}' },
        { number: 4, text: '{"c":3}' },
      ],
      [{ number: 6, text: '{"d":4}' }],
      // The body's last line, without a newline, once the body has ended.
      [{ number: 7, text: '{"e":5}' }],
    ]);
  });

  it('ends its batch, and the reading, at a line that is not UTF-8', async () => {
    const bad = Buffer.from([0x7b, 0xc3, 0x28, 0x7d]);
    const batches = await batchesOf(
      chunks(Buffer.concat([Buffer.from('{"a":1}\n'), bad, Buffer.from('\n{"b":2}\n')])),
    );
    expect(batches).toEqual([
      [
        { number: 1, text: '{"a":1}' },
        { number: 2, notUtf8: true },
      ],
    ]);
  });

  it('ends its batch, and the reading, at a line too long, whole or still arriving', async () => {
    const long = 'x'.repeat(101);
    expect(await batchesOf(chunks(`{"a":1}\n${long}\n{"b":2}\n`))).toEqual([
      [
        { number: 1, text: '{"a":1}' },
        { number: 2, tooLong: true },
      ],
    ]);
    // Never ended by a newline: reported once more bytes wait than any line of 100 characters can have.
    expect(await batchesOf(chunks('{"a":1}\n', 'y'.repeat(200), 'y'.repeat(200)))).toEqual([
      [{ number: 1, text: '{"a":1}' }],
      [{ number: 2, tooLong: true }],
    ]);
  });

  it('reads the last line without a newline; ndjsonLines gives the same lines one at a time', async () => {
    const body = () => chunks('{"a":1}\n{"b"', ':2}');
    expect(await batchesOf(body())).toEqual([
      [{ number: 1, text: '{"a":1}' }],
      [{ number: 2, text: '{"b":2}' }],
    ]);
    const lines: NdjsonLine[] = [];
    for await (const line of ndjsonLines(body(), 100)) lines.push(line);
    expect(lines).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '{"b":2}' },
    ]);
  });
});
