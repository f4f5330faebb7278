import type { Clock } from '../clock.js';
import { ipBlockKey } from '../lib/ip-key.js';
import { attempt, type RateLimitStore } from '../rate-limit/rate-limit-store.js';

// Sign-in attempts of a web face (issue 13, Who signs in): limited per e-mail address and per client IP
// in the shared rate-limit store, so that every process of a fleet counts the same attempts. A refusal
// says how long to wait and nothing about whether the address exists.

/** How many attempts a window admits. */
export interface SignInLimits {
  /** Attempts for one e-mail address, from anywhere, in `windowMs` (guessing one password). */
  perEmail: number;
  /** Attempts from one IP (IPv6: its /64), whatever the address, in `windowMs` (trying many accounts). */
  perIp: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perEmail: 10, perIp: 30, windowMs: 15 * 60_000 };

/** The outcome of asking to try a password: allowed, or refused with the seconds to wait. */
export type SignInAdmission = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * The sign-in limit of one face (`panel`, `console`): every attempt counts, successful or not, in both
 * windows at once. When the store is unreachable the attempt goes on unmeasured, as the APIs' limits do.
 */
export function createSignInLimit(deps: {
  store: RateLimitStore;
  clock: Clock;
  face: string;
  limits?: SignInLimits;
}) {
  const { store, clock, face } = deps;
  const limits = deps.limits ?? DEFAULT_SIGN_IN_LIMITS;
  return {
    async admit(email: string, ip: string): Promise<SignInAdmission> {
      const now = clock.now();
      // One hash tag for both windows: a Redis cluster runs a script only over keys of one slot.
      const emailKey = `{signin:${face}}:email:${email.trim().toLowerCase()}`;
      const addressKey = `{signin:${face}}:ip:${ipBlockKey(ip)}`;
      const taken = await attempt(() =>
        store.takeAll(
          [
            { key: emailKey, limit: limits.perEmail },
            { key: addressKey, limit: limits.perIp },
          ],
          limits.windowMs,
          now,
        ),
      );
      if (taken === undefined || taken.allowed) return { ok: true };
      const waits = taken.windows
        .filter((window) => !window.allowed)
        .map((window) => window.oldestAt + limits.windowMs - now);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...waits) / 1000)) };
    },
  };
}

export type SignInLimit = ReturnType<typeof createSignInLimit>;
