import { Problem } from '../../../errors/problem.js';
import { addMonths, formatDay } from '../../../lib/calendar.js';
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
 * Field errors of the service's refusal: its Problem naming its param (a 409, a name already taken, is
 * the name's); null for any other error, which the page does not catch.
 */
export function keyProblemErrors(error: unknown): Record<string, string> | null {
  if (error instanceof Problem && (error.status === 422 || error.status === 409)) {
    const param =
      (typeof error.extras.param === 'string' ? error.extras.param : 'name').split('.')[0] ?? 'name';
    const detail = error.detail.replace(/^[\w.]+: /, '');
    return { [error.status === 409 ? 'name' : param]: detail };
  }
  return null;
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
