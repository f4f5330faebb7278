import { z } from 'zod';
import { codePointLength } from './unicode-text.js';

// Text fields of the back office's inputs, shared by the help-desk and point-of-sale services.

/**
 * Text as stored, at most `max` characters (code points): lone UTF-16 surrogates become U+FFFD (no
 * database stores them), NUL is refused (PostgreSQL cannot store it: a 422, never a failed write).
 */
export function storedText(max: number, what = 'text') {
  return (
    z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) })
      .transform((value) => value.replace(/\p{Cs}/gu, '\uFFFD'))
      .refine((value) => !value.includes('\u0000'), 'must not contain the NUL character')
      .refine((value) => codePointLength(value) <= max, `must be at most ${max} characters`)
      // The refinement is code; the OpenAPI documents read the limit from here (JSON Schema counts code
      // points too).
      .meta({ maxLength: max })
  );
}

/** A display name the operator gives: trimmed, not empty, at most 200 characters. */
export const displayName = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .trim()
  .min(1, 'must not be empty')
  .pipe(storedText(200))
  .meta({ maxLength: 200 });
