import { addMonths, formatDay } from '../../../lib/calendar.js';
import { merchantKeyProblem } from '../../../pos/keys/merchant-key-problem.js';
import type { KeyRefusal } from '../../../pos/keys/merchant-key-refusal.js';
import { MAX_VALIDITY_MONTHS, today } from '../../../pos/keys/merchant-key-validity.js';
import { formList, formText } from '../../../web/form.js';
import type { SafeHtml } from '../../../web/html.js';
import type { PanelContext, PanelServices } from '../../panel-kit.js';
import { keyFormView, type KeyForm } from './key-form-view.js';

export type { KeyForm } from './key-form-view.js';

// The key form's values as typed, the errors of a refused one, and the form's model: the account's
// places and the days a key may be valid until.

/** The form's values: a single checkbox arrives as text, several as a list. */
export function keyFormOf(body: Record<string, unknown>): KeyForm {
  return {
    name: formText(body.name),
    permissions: formList(body.permission),
    places: body.places === 'chosen' ? formList(body.place) : 'all',
    expires_on: formText(body.expires_on),
  };
}

/**
 * The field errors of the service's refusal of a key form, in the panel's words: bad input is its field's
 * (`places.2` is the places'), a state that does not allow the change is shown on the name. A missing
 * account or key is not the form's: its 404 is thrown, as the page answers it.
 */
export function keyRefusalErrors(refusal: KeyRefusal, ctx: Pick<PanelContext, 't'>): Record<string, string> {
  const { t } = ctx;
  switch (refusal.reason) {
    case 'unknown_account':
    case 'unknown_key':
      throw merchantKeyProblem(refusal);
    case 'unknown_place':
      return { places: t('keyUnknownPlace', { place: refusal.place, account: refusal.accountId }) };
    case 'expiry_not_a_day':
      return { expires_on: t('keyExpiryNotADay') };
    case 'expiry_past':
      return { expires_on: t('keyExpiryPast', { today: refusal.today }) };
    case 'expiry_too_far':
      return { expires_on: t('keyExpiryTooFar', { months: refusal.months, last: refusal.last }) };
    case 'too_many_active_keys':
      return { name: t('keyTooManyActive', { account: refusal.accountId, max: refusal.max }) };
    case 'revoked':
      return { name: t('keyRevokedForEver', { id: refusal.id, action: refusal.action }) };
    case 'expired':
      return { name: t('keyExpiredNoRotate', { id: refusal.id }) };
    case 'rotated_meanwhile':
      return { name: t('keyRotatedMeanwhile', { id: refusal.id }) };
  }
}

/** Field errors of zod's issues: a field's last issue is the one shown. */
export function keyZodErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  return Object.fromEntries(issues.map((issue) => [String(issue.path[0] ?? 'name'), issue.message]));
}

/** The last day a new key is valid until unless the merchant changes it: a year from today. */
export function defaultExpiry(services: Pick<PanelServices, 'clock'>): string {
  return formatDay(addMonths(today(services.clock.now()), 12));
}

/** The key form for the signed-in user's account, with its places and the days a key may last. */
export async function keyFormPage(
  services: Pick<PanelServices, 'posData' | 'clock'>,
  ctx: PanelContext,
  options: {
    action: string;
    values: KeyForm;
    errors: Record<string, string>;
    submit: string;
    title: string;
    notice?: SafeHtml;
  },
): Promise<SafeHtml> {
  const places = await services.posData.listPlaces(ctx.user.accountId);
  const first = today(services.clock.now());
  const max = formatDay(addMonths(first, MAX_VALIDITY_MONTHS));
  return keyFormView(ctx, { ...options, places, min: formatDay(first), max });
}
