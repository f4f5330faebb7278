import { z } from 'zod';
import { codePointLength } from '../lib/unicode-text.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './password-policy.js';

// What the people of the web faces type, checked the same way for merchant users (the panel) and staff
// users (the back-office console), by the faces' forms, the admin API and the services.

/** An e-mail address as stored: trimmed, lower-cased, a plain shape (the mail server judges the rest). */
export const emailAddress = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address');

/** A password a person chooses: PASSWORD_MIN to PASSWORD_MAX characters (code points), kept as typed. */
export const newPassword = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .refine((value) => codePointLength(value) >= PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .refine((value) => codePointLength(value) <= PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);
