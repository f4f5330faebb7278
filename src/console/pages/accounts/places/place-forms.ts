import { Problem } from '../../../../errors/problem.js';
import { placeInput } from '../../../../pos/places/pos-data-input.js';
import { formText } from '../../../../web/face.js';
import { zodFormErrors, type FormErrors } from '../../../../web/form.js';

// The place and event forms of an account's places: their values as typed, and the admin API's PUT bodies
// they stand for (src/pos/places/pos-data-input.ts), checked by its own schemas.

export interface PlaceParams {
  Params: { account: string; place: string };
}
export interface EventParams {
  Params: { account: string; place: string; id: string };
}
export interface FormBody {
  Body: Record<string, unknown>;
}

/** The place form as typed; `active` is '' (not stated), 'true' or 'false'. */
export interface PlaceForm {
  id: string;
  name: string;
  timezone: string;
  active: string;
}

/** The event form as typed: instants as the admin API takes them, empty for none. */
export interface EventForm {
  id: string;
  name: string;
  starts_at: string;
  ends_at: string;
  active: boolean;
}

/** The admin API's place body of the form: an empty name is none; a state not stated is null. */
export function placeBody(form: PlaceForm) {
  return {
    name: form.name.trim() === '' ? null : form.name,
    timezone: form.timezone.trim(),
    active: form.active === '' ? null : form.active === 'true',
  };
}

/** The admin API's event body of the form; a new event is registered now, an edited one keeps its instant. */
export function eventBody(form: EventForm) {
  const instant = (text: string) => (text.trim() === '' ? null : text.trim());
  return {
    name: form.name,
    starts_at: instant(form.starts_at),
    ends_at: instant(form.ends_at),
    active: form.active,
  };
}

/** Whether a lookup found its thing (a 404 Problem is "no"; any other failure is thrown). */
export async function exists(lookup: Promise<unknown>): Promise<boolean> {
  try {
    await lookup;
    return true;
  } catch (error) {
    if (error instanceof Problem && error.status === 404) return false;
    throw error;
  }
}

/** The place form as posted, with this id. */
export const placeForm = (body: Record<string, unknown>, id: string): PlaceForm => ({
  id,
  name: formText(body.name),
  timezone: formText(body.timezone),
  active: ['true', 'false'].includes(formText(body.active)) ? formText(body.active) : '',
});

/** The event form as posted, with this id. */
export const eventForm = (body: Record<string, unknown>, id: string): EventForm => ({
  id,
  name: formText(body.name),
  starts_at: formText(body.starts_at),
  ends_at: formText(body.ends_at),
  active: body.active === 'true',
});

/** The place fields' own errors, shown with the id's so that one post names every field at fault. */
export const checkPlace = (values: PlaceForm): FormErrors => {
  const parsed = placeInput.safeParse(placeBody(values));
  return parsed.success ? {} : zodFormErrors(parsed.error);
};
