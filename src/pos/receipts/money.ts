// Money is text with a dot and two decimals on the wire ("1234.50", may be negative) and integer cents
// everywhere else: never a float between the database and the JSON text (docs/pos-api.md, Conventions).

/** Largest amount in cents that stays exact in a JS number and in a bigint column. */
const MAX_CENTS = Number.MAX_SAFE_INTEGER;

/**
 * Parses a money text into integer cents: an optional minus, digits, and optionally a dot with one or two
 * decimals ("12", "12.5", "12.50", "-0.99"). Returns null for anything else (exponents, commas, spaces,
 * three decimals, JSON numbers): amounts are never guessed.
 */
export function parseMoney(text: string): number | null {
  const match = /^(-?)(\d{1,16})(?:\.(\d{1,2}))?$/.exec(text);
  if (match === null) return null;
  const [, sign = '', units = '0', decimals = ''] = match;
  const cents = Number(units) * 100 + Number(decimals.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return null;
  return sign === '-' && cents !== 0 ? -cents : cents;
}

/** Formats integer cents as money text: "1234.50", "-0.99", "0.00". */
export function formatMoney(cents: number | bigint): string {
  const value = BigInt(cents);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const units = magnitude / 100n;
  const rest = magnitude % 100n;
  return `${negative ? '-' : ''}${units}.${rest.toString().padStart(2, '0')}`;
}
