// Card brands of the receipts-by-payment-method response (docs/pos-api.md, "Brand rules"; docs/pos-api.md,
// Settled details). The brand is free text recorded by the terminal; it is folded into the line it is
// reported under. "Spaces" are Unicode White_Space (docs/api-conventions.md).

/** The line that sums every brand recorded outside the format. */
const OTHER_BRAND = 'OTHER';

const spaceRun = /\p{White_Space}+/gu;
const brandFormat = /^[A-Za-z0-9 .&+/_-]{1,40}$/;

/**
 * The brand line a stored brand is reported under (docs/pos-api.md, Settled details): runs of spaces become
 * one space and spaces at both ends go, so spellings differing only in extra spaces merge; the result is
 * passed through, case kept, when it is 1 to 40 letters, digits, spaces and `. & + / _ -`, and is
 * `OTHER` otherwise. Only a missing brand is `null`; a recorded text that is empty, or only spaces, fails
 * the 1-to-40 format and is summed into `OTHER`, as docs/pos-api.md (Brand rules) reads.
 * A terminal that recorded the text `OTHER` lands in the same line as the brands outside the format.
 */
export function foldBrand(stored: string | null | undefined): string | null {
  if (stored === null || stored === undefined) return null;
  // One replacement (linear) and then at most one space at each end: no regex anchored at the end,
  // which backtracks quadratically over long runs of spaces.
  let folded = stored.replace(spaceRun, ' ');
  if (folded.startsWith(' ')) folded = folded.slice(1);
  if (folded.endsWith(' ')) folded = folded.slice(0, -1);
  return brandFormat.test(folded) ? folded : OTHER_BRAND;
}
