import { z } from 'zod';
import { displayName } from '../lib/input-text.js';
import { emailAddress, newPassword } from '../identity/user-input.js';

// What the operator sends about staff users (issue 14), checked the same way by the admin API, the
// console's forms and the staff user service itself.

/** The two kinds of staff, as the two admin tokens: the operator (everything) and support (read-mostly). */
export const STAFF_ROLES = ['operator', 'support'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

const staffRole = z.enum(STAFF_ROLES, {
  error: (issue) => (issue.input === undefined ? 'is required' : 'must be operator or support'),
});

/** A new staff user: the address they sign in with, their name, their role. */
export const staffUserInput = z.strictObject({ email: emailAddress, name: displayName, role: staffRole });
export type StaffUserInput = z.input<typeof staffUserInput>;

/** The first operator, created with a password at once on the console's first-start page. */
export const firstOperatorInput = z.strictObject({
  email: emailAddress,
  name: displayName,
  password: newPassword,
});
export type FirstOperatorInput = z.input<typeof firstOperatorInput>;

/** A staff user's id in a path. */
export const staffUserPath = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be a staff user id: 1 to 64 letters or digits'),
});
