import { randomFillSync, randomInt } from 'node:crypto';

// Identifiers the service makes up: ticket ids and credential ids.

/**
 * Random bytes drawn from the system's generator a page at a time: one call per 256 ids instead of one
 * per id (a call per ticket id was a twentieth of the ticket route's time under load). Each byte is
 * handed out once; Node's own `crypto.randomUUID` keeps such a cache too.
 */
const RANDOM_PAGE = Buffer.alloc(4096);
let randomOffset = RANDOM_PAGE.length;

/** 16 fresh random bytes of the page (a view: the caller's to use before it returns), refilled when spent. */
function random16(): Buffer {
  if (randomOffset + 16 > RANDOM_PAGE.length) {
    randomFillSync(RANDOM_PAGE);
    randomOffset = 0;
  }
  randomOffset += 16;
  return RANDOM_PAGE.subarray(randomOffset - 16, randomOffset);
}

/** A UUIDv7 (RFC 9562): 48 bits of milliseconds, then random bits. Sortable by time, unguessable. */
export function uuidv7(nowMs: number): string {
  const bytes = random16();
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random letters and digits (A-Z, a-z, 0-9), each drawn uniformly. */
export function randomAlphanumeric(length: number): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALPHANUMERIC.charAt(randomInt(ALPHANUMERIC.length));
  return id;
}
