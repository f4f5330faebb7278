import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Passwords of the web faces' users (issue 13, Who signs in: "hashed with a memory-hard function"):
// Node's own scrypt, so no native package to build. The stored text carries its parameters, so that a
// later, costlier setting still verifies the hashes made before it.

/** scrypt cost: N = 2^15, r = 8 (32 MiB a hash, about 0.1 s on one core); p = 1. */
export interface PasswordHashCost {
  logN: number;
  r: number;
  p: number;
}

/** What the service uses (OWASP's scrypt minimum is N = 2^17 with r = 8 at p = 1 — see docs/back-office.md, Merchant panel). */
const DEFAULT_PASSWORD_COST: PasswordHashCost = { logN: 15, r: 8, p: 1 };

const KEY_LENGTH = 32;

// One derivation at a time in a process. Each takes about 0.1 s of a core and 32 MiB; run side by side
// (a flood of wrong passwords: 8 at once), they would take every core and Node's four worker threads, and
// the APIs beside the faces would wait for a core. In a queue they hold one core at most, and a sign-in
// waits its turn instead (the sign-in limits keep the queue short: bench/sign-in-flood.ts).
let derivations: Promise<unknown> = Promise.resolve();

function derive(password: string, salt: Buffer, cost: PasswordHashCost): Promise<Buffer> {
  const turn = derivations.then(() => deriveNow(password, salt, cost));
  derivations = turn.catch(() => undefined);
  return turn;
}

function deriveNow(password: string, salt: Buffer, cost: PasswordHashCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** cost.logN,
    r: cost.r,
    p: cost.p,
    maxmem: 256 * 2 ** cost.logN * cost.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => {
      if (error === null) resolve(key);
      else reject(error);
    });
  });
}

/** `scrypt$<logN>$<r>$<p>$<salt>$<hash>` (base64url) of a password, with a fresh 16-byte salt. */
export async function hashPassword(
  password: string,
  cost: PasswordHashCost = DEFAULT_PASSWORD_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.logN, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

/** True when `password` is the one hashed in `stored`; false for any other text, or a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, logN, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const cost = { logN: Number(logN), r: Number(r), p: Number(p) };
  if (![cost.logN, cost.r, cost.p].every((n) => Number.isInteger(n) && n > 0) || cost.logN > 20) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), cost);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash no password matches, verified against when an e-mail is unknown so both take the same time. */
export const UNUSABLE_PASSWORD_HASH =
  'scrypt$15$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
