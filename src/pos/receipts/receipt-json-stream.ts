import type { Readable } from 'node:stream';
import { JSONParser, TokenType, type ParsedElementInfo, type ParsedTokenInfo } from '@streamparser/json';
import { Problem } from '../../errors/problem.js';
import { RECEIPTS_PER_CALL, receiptBatchInput } from './receipt-input.js';

// The JSON form of POST receipts (`{receipts: [...]}`, docs/admin-rules.md, Point of sale) read as a stream:
// each receipt is handed over as soon as it is parsed and dropped, so four 36 MB uploads no longer hold
// four parsed bodies. What the whole body decides is answered as before, after the last byte: not JSON
// (400 `malformed_json`), then its shape (422 `body…`: not an object, an unknown field, `receipts`
// missing, not an array, or more than 10,000 receipts).

/** The largest JSON body of the route: 10,000 receipts with their text written as \u escapes fit. */
export const RECEIPTS_JSON_MAX_BYTES = 50 * 1024 * 1024;

/** What the body yields, in order. */
export type ReceiptBatchEvent =
  /** The receipt at `index` (0-based) of `receipts`, as JSON.parse would give it. */
  | { kind: 'receipt'; index: number; value: unknown }
  /**
   * `receipts` came again: JSON.parse keeps the last of a repeated key, so the receipts before are to
   * be forgotten.
   */
  | { kind: 'restart' };

/** The top level of the body, as far as its shape check needs it (never the receipts themselves). */
interface TopLevel {
  root: 'object' | 'array' | 'other' | undefined;
  rootValue: unknown;
  /** The top-level keys in their first order, and whether each one's last value was an array. */
  keys: Map<string, boolean>;
  receipts: number;
}

const tooLarge = () =>
  Problem.of('payload_too_large', {
    detail: `The request body is larger than ${RECEIPTS_JSON_MAX_BYTES / 1024 / 1024} MiB; send more receipts as NDJSON (Content-Type: application/x-ndjson).`,
  });

const malformed = (reason: string) =>
  Problem.of('malformed_json', { detail: `The request body is not valid JSON: ${reason}` });

const NOT_UTF8 = 'it is not valid UTF-8 (JSON is UTF-8 text, RFC 8259, 8.1).';

/** The parser's error in the words of the admin API's other JSON errors (no parser states). */
function parseError(error: unknown): Problem {
  const message = error instanceof Error ? error.message : String(error);
  const unexpected = /^Unexpected "(.*)" at chunk position "\d+" \(absolute position "(\d+)"\)/s.exec(
    message,
  );
  if (unexpected !== null) return malformed(`unexpected "${unexpected[1]}" at byte offset ${unexpected[2]}.`);
  if (/ended in (the middle|mid-parsing)/.test(message))
    return malformed('it ends before its JSON value does.');
  return malformed(`${message.replace(/ in state \w+$/, '')}.`);
}

/** UTF-8's byte-order mark: JSON.parse refuses it, and so did this route before it was streamed. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The body's shape problem, if any: the route's schema run on a stand-in of the body with every value
 * but the length of `receipts` left out, answered as the admin API answers a body that fails its schema
 * (`body.receipts: must be an array`, `param` `body.receipts`).
 */
function shapeProblem(top: TopLevel): Problem | undefined {
  let standIn: unknown;
  if (top.root === 'array') standIn = [];
  else if (top.root === 'other') standIn = top.rootValue ?? undefined;
  else if (top.root === 'object') {
    standIn = Object.fromEntries(
      [...top.keys].map(([key, isArray]) => [
        key,
        key === 'receipts' && isArray
          ? new Array<null>(Math.min(top.receipts, RECEIPTS_PER_CALL + 1)).fill(null)
          : null,
      ]),
    );
  }
  const parsed = receiptBatchInput.safeParse(standIn);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = ['body', ...(issue?.path ?? []).map(String)].join('.');
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown field(s) ${issue.keys.join(', ')}`
      : (issue?.message ?? 'invalid');
  return Problem.of('validation_failed', { detail: `${where}: ${message}`, param: where });
}

/**
 * Reads `{receipts: [...]}` from `stream`, yielding each receipt (at most RECEIPTS_PER_CALL; past that
 * the body is only read to its end). Throws, in this order: 413 `payload_too_large` past
 * RECEIPTS_JSON_MAX_BYTES (at once when `Content-Length` says so), 400 `malformed_json` when the body is
 * not valid UTF-8 or not JSON, and after the last byte the 422 of a body of the wrong shape.
 */
export async function* receiptBatchEvents(
  stream: Readable,
  declaredLength: string | undefined,
): AsyncGenerator<ReceiptBatchEvent> {
  if (declaredLength !== undefined && /^\d+$/.test(declaredLength)) {
    if (Number(declaredLength) > RECEIPTS_JSON_MAX_BYTES) throw tooLarge();
  }
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const parser = new JSONParser({ paths: ['$.receipts.*'], keepStack: false });
  const top: TopLevel = { root: undefined, rootValue: undefined, keys: new Map(), receipts: 0 };
  const queue: ReceiptBatchEvent[] = [];
  let depth = 0;
  let expectKey = false;
  let key = '';

  // The tokens tell the top level: the root's type, its keys in order and what each one holds.
  parser.onToken = ({ token, value }: ParsedTokenInfo) => {
    const opens = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
    if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth -= 1;
    else if (depth === 0 && opens) {
      top.root = token === TokenType.LEFT_BRACE ? 'object' : 'array';
      expectKey = top.root === 'object';
    } else if (depth === 0 && token !== TokenType.SEPARATOR) {
      top.root = 'other';
      top.rootValue = value;
    } else if (depth === 1 && top.root === 'object') {
      if (token === TokenType.COMMA) expectKey = true;
      else if (expectKey && token === TokenType.STRING) {
        key = String(value);
        expectKey = false;
      } else if (token !== TokenType.COLON) {
        const isArray = token === TokenType.LEFT_BRACKET;
        if (key === 'receipts' && isArray && top.keys.get('receipts') !== undefined) {
          queue.push({ kind: 'restart' });
        }
        if (key === 'receipts' && isArray) top.receipts = 0;
        top.keys.set(key, isArray);
      }
    }
    if (opens) depth += 1;
  };
  parser.onValue = ({ value, key: index, stack }: ParsedElementInfo) => {
    if (stack.length !== 2 || typeof index !== 'number') return; // `receipts` is not an array
    top.receipts = index + 1;
    if (index < RECEIPTS_PER_CALL) queue.push({ kind: 'receipt', index, value });
  };

  let bytes = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string>) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    bytes += data.length;
    if (bytes > RECEIPTS_JSON_MAX_BYTES) throw tooLarge();
    if (head.length < BOM.length) {
      head = Buffer.concat([head, data.subarray(0, BOM.length - head.length)]);
      if (head.length === BOM.length && head.equals(BOM))
        throw malformed('it starts with a byte-order mark.');
    }
    try {
      utf8.decode(data, { stream: true });
    } catch {
      throw malformed(NOT_UTF8);
    }
    try {
      parser.write(data);
    } catch (error) {
      throw parseError(error);
    }
    yield* queue.splice(0);
  }
  try {
    utf8.decode();
  } catch {
    throw malformed(NOT_UTF8);
  }
  if (!parser.isEnded) {
    try {
      parser.end();
    } catch (error) {
      throw parseError(error);
    }
  }
  const problem = shapeProblem(top);
  if (problem !== undefined) throw problem;
}
