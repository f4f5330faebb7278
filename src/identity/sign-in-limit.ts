import { createHmac } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ipBlockKey } from '../lib/ip-key.js';
import { attempt, type RateLimitStore, type WindowLimit } from '../rate-limit/rate-limit-store.js';

// The attempts of a web face's identity pages (issue 13, Who signs in; issue 20): sign-in, reset
// requests, change-password and the console's first start, each kind on counters of its own in the shared
// rate-limit store, so that every process of a fleet counts the same attempts and one kind never spends
// another's balance (a flood of reset requests must not lock the owner's sign-in). A refusal says how long
// to wait and nothing about whether an address exists. Key names never carry an e-mail address: a keyed
// hash of it (HMAC-SHA-256 with the session secret), so a look at the store reveals no address.

/** How many attempts a window admits. */
export interface SignInLimits {
  /** Sign-in attempts for one e-mail address, from anywhere, in `windowMs` (guessing one password). */
  perEmail: number;
  /** Sign-in attempts from one IP (IPv6: its /64), whatever the address (trying many accounts). */
  perIp: number;
  /** Password-reset requests for one address (each sends an e-mail). */
  resetPerEmail: number;
  /** Password-reset requests from one IP, whatever the address. */
  resetPerIp: number;
  /** Change-password attempts of one signed-in user, from all their sessions (guessing the current one). */
  changePerUser: number;
  /** First-operator attempts (the admin token) from one IP. */
  firstOperatorPerIp: number;
  /** First-operator attempts from everywhere: a flood from many IPs still ends. */
  firstOperatorAll: number;
  windowMs: number;
}

const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perEmail: 10,
  perIp: 30,
  resetPerEmail: 5,
  resetPerIp: 20,
  changePerUser: 10,
  firstOperatorPerIp: 10,
  firstOperatorAll: 100,
  windowMs: 15 * 60_000,
};

/** The outcome of asking to try a password: allowed, or refused with the seconds to wait. */
export type SignInAdmission = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The key-name form of an e-mail address: HMAC-SHA-256 with `secret` of the trimmed, lower-case address. */
export function emailKeyHash(secret: string, email: string): string {
  return createHmac('sha256', secret).update(email.trim().toLowerCase()).digest('base64url');
}

/**
 * The identity limits of one face (`panel`, `console`): every attempt counts, successful or not, in all
 * of its windows at once. When the store is unreachable the attempt goes on unmeasured, as the APIs'
 * limits do.
 */
export function createSignInLimit(deps: {
  store: RateLimitStore;
  clock: Clock;
  face: string;
  /** The key of the e-mail addresses' hashes (the session secret). */
  secret: string;
  limits?: Partial<SignInLimits> | undefined;
}) {
  const { store, clock, face, secret } = deps;
  const limits: SignInLimits = { ...DEFAULT_SIGN_IN_LIMITS, ...deps.limits };

  async function admitAll(windows: WindowLimit[]): Promise<SignInAdmission> {
    const now = clock.now();
    const taken = await attempt(() => store.takeAll(windows, limits.windowMs, now));
    if (taken === undefined || taken.allowed) return { ok: true };
    const waits = taken.windows
      .filter((window) => !window.allowed)
      .map((window) => window.oldestAt + limits.windowMs - now);
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...waits) / 1000)) };
  }

  // One hash tag per kind for its windows: a Redis cluster runs a script only over keys of one slot.
  const tag = (kind: string) => `{${kind}:${face}}`;

  return {
    /** A sign-in attempt for `email` from `ip`. */
    admit(email: string, ip: string): Promise<SignInAdmission> {
      return admitAll([
        { key: `${tag('signin')}:email:${emailKeyHash(secret, email)}`, limit: limits.perEmail },
        { key: `${tag('signin')}:ip:${ipBlockKey(ip)}`, limit: limits.perIp },
      ]);
    },
    /** A password-reset request for `email` from `ip`: its own counters, never a sign-in attempt. */
    admitReset(email: string, ip: string): Promise<SignInAdmission> {
      return admitAll([
        { key: `${tag('reset')}:email:${emailKeyHash(secret, email)}`, limit: limits.resetPerEmail },
        { key: `${tag('reset')}:ip:${ipBlockKey(ip)}`, limit: limits.resetPerIp },
      ]);
    },
    /** A change-password attempt of the signed-in user `userId`, from any of their sessions. */
    admitPasswordChange(userId: string): Promise<SignInAdmission> {
      return admitAll([{ key: `${tag('password')}:user:${userId}`, limit: limits.changePerUser }]);
    },
    /** A first-operator attempt from `ip`: per IP, under a ceiling over all IPs. */
    admitFirstOperator(ip: string): Promise<SignInAdmission> {
      return admitAll([
        { key: `${tag('first-operator')}:ip:${ipBlockKey(ip)}`, limit: limits.firstOperatorPerIp },
        { key: `${tag('first-operator')}:all`, limit: limits.firstOperatorAll },
      ]);
    },
  };
}

export type SignInLimit = ReturnType<typeof createSignInLimit>;
