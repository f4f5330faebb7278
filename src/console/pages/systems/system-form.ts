import type { z } from 'zod';
import { codePointLength } from '../../../lib/unicode-text.js';
import type { PartnerSystem } from '../../../helpdesk/system-repository.js';
import { systemInput, systemPath, type SystemInput } from '../../../helpdesk/system-input.js';
import { systemProblem, type SystemRefusal } from '../../../helpdesk/system-refusal.js';
import { formText } from '../../../web/face.js';
import { formatCount } from '../../../web/format.js';
import { formList, type FormErrors } from '../../../web/form.js';
import type { Locale } from '../../../web/i18n.js';
import type { StaffContext } from '../../console-kit.js';
import type { T } from './system-views.js';

// The form of a system's settings, for a new system and an existing one: its values as typed, and their
// check by the admin API's own schemas, refusals said in the page's words.

/** The limits of the form's numbers, read from the admin API's schema so that the hints say its rules. */
const RATE = systemInput.shape.rate_limit_per_minute.unwrap();
const GRACE = systemInput.shape.key_grace_seconds.unwrap();
const NAME_MAX = Number(systemInput.shape.name.meta()?.maxLength);

/** The form's values as typed, so that a refused form comes back as it was sent. */
export interface SystemForm {
  identifier: string;
  name: string;
  active: boolean;
  scopes: string[];
  rate_limit_per_minute: string;
  key_grace_seconds: string;
  default_category_id: string;
  released_category_ids: string[];
}

export function formOf(body: Record<string, unknown>, identifier?: string): SystemForm {
  return {
    identifier: identifier ?? formText(body.identifier).trim(),
    name: formText(body.name),
    active: body.active === 'true',
    scopes: formList(body.scopes),
    rate_limit_per_minute: formText(body.rate_limit_per_minute).trim(),
    key_grace_seconds: formText(body.key_grace_seconds).trim(),
    default_category_id: formText(body.default_category_id),
    released_category_ids: formList(body.released_category_ids),
  };
}

export function formFromSystem(system: PartnerSystem): SystemForm {
  return {
    identifier: system.identifier,
    name: system.name,
    active: system.active,
    scopes: system.scopes,
    rate_limit_per_minute: String(system.rateLimitPerMinute),
    key_grace_seconds: String(system.keyGraceSeconds),
    default_category_id: system.defaultCategoryId === null ? '' : String(system.defaultCategoryId),
    released_category_ids: system.releasedCategoryIds.map(String),
  };
}

/** A whole number typed in a field, or the text itself for the schema to refuse as not a number. */
function wholeNumber(text: string): number | string {
  return /^-?\d{1,16}$/.test(text) ? Number(text) : text;
}

/** The form as the body of PUT systems/{identifier}, for the admin API's own schema to check. */
function bodyOf(form: SystemForm): Record<string, unknown> {
  return {
    name: form.name,
    active: form.active,
    scopes: form.scopes,
    rate_limit_per_minute: wholeNumber(form.rate_limit_per_minute),
    key_grace_seconds: wholeNumber(form.key_grace_seconds),
    default_category_id: form.default_category_id === '' ? null : wholeNumber(form.default_category_id),
    released_category_ids: form.released_category_ids.map(wholeNumber),
  };
}

/** The hints of the form's fields: the rules of the admin API's schema, in the page's language. */
export function fieldHints(t: T, locale: Locale): Record<string, string> {
  return {
    identifier: t('sysIdentifierRule'),
    name: t('sysNameRule', { max: NAME_MAX }),
    rate_limit_per_minute: t('sysRateRule', {
      min: formatCount(RATE.minValue ?? 1, locale),
      max: formatCount(RATE.maxValue ?? 0, locale),
    }),
    key_grace_seconds: t('sysGraceRule', {
      min: formatCount(GRACE.minValue ?? 0, locale),
      max: formatCount(GRACE.maxValue ?? 0, locale),
      days: formatCount(Math.floor((GRACE.maxValue ?? 0) / 86400), locale),
    }),
  };
}

/** Fields whose values are chosen from a list the page offers: only a forged or stale post misses it. */
const CHOSEN = new Set(['scopes', 'default_category_id', 'released_category_ids']);

/**
 * What is wrong with a field the admin API's schema refused, in the page's language: the schema decides,
 * the page says it in words a person reads (the hint beside the field says the rule).
 */
function issueText(t: T, locale: Locale, issue: z.core.$ZodIssue, form: SystemForm): string {
  const field = String(issue.path[0] ?? '');
  if (field === 'rate_limit_per_minute' || field === 'key_grace_seconds') {
    if (issue.code === 'too_small')
      return t('sysAtLeast', { min: formatCount(Number(issue.minimum), locale) });
    if (issue.code === 'too_big') return t('sysAtMost', { max: formatCount(Number(issue.maximum), locale) });
    return t('sysWholeNumber');
  }
  if (field === 'name') {
    if (issue.code === 'too_small' || issue.code === 'invalid_type') return t('sysRequired');
    return codePointLength(form.name.trim()) > NAME_MAX ? t('sysTooLong', { max: NAME_MAX }) : t('sysNoNul');
  }
  if (field === 'identifier') return form.identifier === '' ? t('sysRequired') : t('sysIdentifierWrong');
  if (CHOSEN.has(field)) return t('sysChooseListed');
  return issue.message;
}

/** The first refusal of each field, in words. */
function issueErrors(t: T, locale: Locale, error: z.ZodError, form: SystemForm): FormErrors {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') continue;
    errors[String(issue.path[0] ?? '_form')] ??= issueText(t, locale, issue, form);
  }
  return errors;
}

/**
 * The service's refusal of the form, in words: a category the catalog no longer has is the field's that
 * names it. A system gone meanwhile is not the form's: its 404 is thrown, as the page answers it.
 */
export function refusalErrors(t: T, refusal: SystemRefusal): FormErrors {
  if (refusal.reason === 'unknown_system') throw systemProblem(refusal);
  return { [refusal.param]: t('sysChooseListed') };
}

/**
 * Checks a form with the admin API's schemas: the identifier's (a new system's) and the body's. The
 * checked body, or the errors of every refused field.
 */
export const checked = (
  ctx: Pick<StaffContext, 't' | 'locale'>,
  form: SystemForm,
  creating: boolean,
): { ok: true; identifier: string; input: SystemInput } | { ok: false; errors: FormErrors } => {
  const path = creating ? systemPath.safeParse({ identifier: form.identifier }) : null;
  const parsed = systemInput.safeParse(bodyOf(form));
  const errors = {
    ...(path?.success === false ? issueErrors(ctx.t, ctx.locale, path.error, form) : {}),
    ...(parsed.success ? {} : issueErrors(ctx.t, ctx.locale, parsed.error, form)),
  };
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, identifier: form.identifier, input: parsed.data };
};

/** The settings a system has, as the body of a PUT that keeps them (a deactivation changes one). */
export const inputOf = (system: PartnerSystem, active: boolean): SystemInput =>
  systemInput.parse({ ...bodyOf(formFromSystem(system)), active });
