/** The rate-limit headers of an answer (`X-RateLimit-Limit`, `-Remaining`, `-Reset`). */
export interface RateLimit {
  /** Calls allowed per window. */
  limit: number;
  /** Calls left (the lower of the key's and the account's balance on the POS API). */
  remaining: number;
  /** Unix seconds when the oldest call in the window stops counting (an upper bound). */
  reset: number;
}
