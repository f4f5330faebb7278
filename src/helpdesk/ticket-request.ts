import type { JsonMember } from './json-members.js';
import { jsonObjectMembers } from './json-members.js';
import {
  cleanText,
  codePointLength,
  hasNul,
  removeInvisible,
  trimSpaces,
  truncateCodePoints,
} from '../lib/unicode-text.js';
import { normaliseCnpj } from './cnpj.js';
import {
  TICKET_LIMITS,
  type FieldRefusalReason,
  type Refusal,
  type TicketCatalog,
  type TicketRequestResult,
  type TicketWarning,
} from './ticket-request-terms.js';

// The ticket request of docs/ticket-api.md ("Ticket request"), read from the members of the body
// in the order they were written. Field 422s are answered in the order of the document's table.

// The limits and types are read by the routes, the services and the documents through this module.
export {
  TICKET_LIMITS,
  type Refusal,
  type TicketCatalog,
  type TicketRequestResult,
  type TicketWarning,
} from './ticket-request-terms.js';

const KNOWN_FIELDS = new Set([
  'external_id',
  'company',
  'description',
  'category',
  'priority',
  'support_level',
  'nature',
  'cnpj',
  'requester',
]);

interface FieldValue {
  raw: string;
  value: unknown;
}

/** The last value of each member (as `JSON.parse` keeps it), by name. */
function lastValues(members: readonly JsonMember[]): Map<string, FieldValue> {
  const values = new Map<string, FieldValue>();
  for (const member of members) values.set(member.name, { raw: member.raw, value: JSON.parse(member.raw) });
  return values;
}

const integerToken = /^-?\d+$/;

/** `3` and `3.0` are the id 3; anything else (strings, fractions, below 1) is no id. */
function asId(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : null;
}

function refuseField(reason: FieldRefusalReason, param: string, detail: string): Refusal {
  return { ok: false, reason, param, detail };
}

/**
 * Reads `external_id` by the rules of the ticket request: a string or a JSON integer (its digits as
 * written), NUL refused, cleaned, 1 to 120 characters. Shared with the lead route.
 */
function readExternalId(field: FieldValue | undefined): { ok: true; value: string } | Refusal {
  if (field === undefined || field.value === null) {
    return refuseField('missing_external_id', 'external_id', '"external_id" is required.');
  }
  let text: string;
  if (typeof field.value === 'string') text = field.value;
  else if (typeof field.value === 'number' && integerToken.test(field.raw)) text = field.raw;
  else return invalidField('external_id', '"external_id" must be a string or an integer.');
  if (hasNul(text)) return invalidField('external_id', '"external_id" must not contain the NUL character.');
  const cleaned = cleanText(text);
  if (cleaned === '') {
    return refuseField(
      'missing_external_id',
      'external_id',
      '"external_id" is empty after removing spaces and invisible characters.',
    );
  }
  if (codePointLength(cleaned) > TICKET_LIMITS.externalId) {
    return refuseField(
      'field_too_long',
      'external_id',
      `"external_id" must be at most ${TICKET_LIMITS.externalId} characters.`,
    );
  }
  return { ok: true, value: cleaned };
}

function invalidField(param: string, detail: string): Refusal {
  return refuseField('invalid_field', param, detail);
}

/** Reads the lead route's body: only `external_id` is checked (docs/ticket-api.md, POST lead). */
export function readLeadRequest(text: string): { ok: true; externalId: string } | Refusal {
  const field = lastValues(jsonObjectMembers(text)).get('external_id');
  const externalId = readExternalId(field);
  return externalId.ok ? { ok: true, externalId: externalId.value } : externalId;
}

/**
 * Reads a ticket request from the text of a JSON object: the first field 422 in the order of the
 * document's table, or the draft with its defaults applied and its warnings.
 */
export function readTicketRequest(text: string, catalog: TicketCatalog): TicketRequestResult {
  const members = jsonObjectMembers(text);
  const values = lastValues(members);

  const externalId = readExternalId(values.get('external_id'));
  if (!externalId.ok) return externalId;

  const company = values.get('company')?.value ?? null;
  if (company === null) return refuseField('missing_company', 'company', '"company" is required.');
  if (typeof company !== 'string') return invalidField('company', '"company" must be a string.');
  if (hasNul(company)) return invalidField('company', '"company" must not contain the NUL character.');
  const companyKey = trimSpaces(company).toLowerCase();
  if (companyKey === '') return refuseField('missing_company', 'company', '"company" is empty.');
  const companyId = catalog.companyIds.find((id) => id.toLowerCase() === companyKey);
  if (companyId === undefined) {
    const valid = catalog.companyIds.length === 0 ? 'none is available' : catalog.companyIds.join(', ');
    return refuseField(
      'invalid_company',
      'company',
      `"company" must be the id of one of the companies of the options route: ${valid}.`,
    );
  }

  const description = values.get('description')?.value ?? null;
  if (description === null)
    return refuseField('missing_description', 'description', '"description" is required.');
  if (typeof description !== 'string') return invalidField('description', '"description" must be a string.');
  if (hasNul(description))
    return invalidField('description', '"description" must not contain the NUL character.');
  if (codePointLength(description) > TICKET_LIMITS.description) {
    return refuseField(
      'field_too_long',
      'description',
      `"description" must be at most ${TICKET_LIMITS.description} characters (counted before trimming).`,
    );
  }
  const cleanDescription = trimSpaces(description.toWellFormed());
  if (cleanDescription === '')
    return refuseField('missing_description', 'description', '"description" is empty.');

  const nature = readNature(values.get('nature')?.value ?? null, catalog);
  if (!nature.ok) return nature;

  const requester = readRequester(values.get('requester')?.value ?? null);
  if (!requester.ok) return requester;

  const warnings: TicketWarning[] = [];
  let unknownIds = false;

  const requestedCategory = values.get('category')?.value ?? null;
  let categoryId = catalog.defaultCategoryId;
  if (requestedCategory !== null) {
    const id = asId(requestedCategory);
    if (id !== null && catalog.categories.has(id)) categoryId = id;
    else {
      unknownIds ||= id !== null && !catalog.knownCategoryIds.has(id);
      warnings.push({
        code: 'category_fallback',
        message: 'Unknown or unavailable category; the default category was used.',
      });
    }
  }

  const defaultPriority =
    categoryId === null ? null : (catalog.categories.get(categoryId)?.defaultPriorityId ?? null);
  const requestedPriority = values.get('priority')?.value ?? null;
  let priorityId = defaultPriority;
  if (requestedPriority !== null) {
    const id = asId(requestedPriority);
    if (id !== null && catalog.priorityIds.has(id)) priorityId = id;
    else {
      unknownIds ||= id !== null;
      warnings.push({
        code: 'priority_fallback',
        message: "Unknown priority; the category's default priority was used.",
      });
    }
  }

  const requestedLevel = values.get('support_level')?.value ?? null;
  let supportLevel = 1;
  if (requestedLevel !== null) {
    const id = asId(requestedLevel);
    if (id !== null && catalog.supportLevelIds.has(id)) supportLevel = id;
    else {
      unknownIds ||= id !== null;
      warnings.push({
        code: 'support_level_fallback',
        message: 'Unknown support level; support level 1 was used.',
      });
    }
  }

  const cnpj = readCnpj(values.get('cnpj'));
  if (cnpj.ignored) {
    warnings.push({
      code: 'cnpj_ignored',
      message: 'cnpj is not 14 letters or digits ending in 2 digits; it was ignored.',
    });
  }

  const ignored = ignoredFields(members, values);
  if (ignored.length > 0) {
    warnings.push({
      code: 'ignored_fields',
      message: 'These fields are not part of the ticket request and were ignored.',
      fields: ignored,
    });
  }
  if (requester.truncated.length > 0) {
    warnings.push({
      code: 'requester_truncated',
      message: 'Requester text above its limit was truncated.',
      fields: requester.truncated,
    });
  }

  return {
    ok: true,
    draft: {
      externalId: externalId.value,
      companyId,
      description: cleanDescription,
      categoryId,
      priorityId,
      supportLevel,
      nature: nature.value,
      cnpj: cnpj.cnpj,
      requesterName: requester.name,
      requesterContact: requester.contact,
      warnings,
      unknownIds,
    },
  };
}

function readNature(value: unknown, catalog: TicketCatalog): { ok: true; value: string | null } | Refusal {
  if (value === null) return { ok: true, value: null };
  if (typeof value === 'string' && hasNul(value))
    return invalidField('nature', '"nature" must not contain the NUL character.');
  const key = typeof value === 'string' ? trimSpaces(value).toLowerCase() : '';
  const identifier =
    key === '' ? undefined : catalog.natureIdentifiers.find((id) => id.toLowerCase() === key);
  if (identifier === undefined) {
    return refuseField(
      'invalid_nature',
      'nature',
      '"nature" must be the identifier of one of the natures of the options route, or be left out.',
    );
  }
  return { ok: true, value: identifier };
}

type RequesterResult =
  { ok: true; name: string | null; contact: string | null; truncated: string[] } | Refusal;

function readRequester(value: unknown): RequesterResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    // Not an object: reported in ignored_fields by ignoredFields().
    return { ok: true, name: null, contact: null, truncated: [] };
  }
  const requester = value as Record<string, unknown>;
  const truncated: string[] = [];
  const out: Record<'name' | 'contact', string | null> = { name: null, contact: null };
  for (const [key, max] of [
    ['name', TICKET_LIMITS.requesterName],
    ['contact', TICKET_LIMITS.requesterContact],
  ] as const) {
    const text = Object.hasOwn(requester, key) ? requester[key] : null;
    if (typeof text !== 'string') continue; // a non-text value is ignored without warning
    const param = `requester.${key}`;
    if (hasNul(text)) return invalidField(param, `"${param}" must not contain the NUL character.`);
    let cleaned = cleanText(text);
    if (codePointLength(cleaned) > max) {
      cleaned = trimSpaces(truncateCodePoints(cleaned, max));
      truncated.push(param);
    }
    out[key] = cleaned === '' ? null : cleaned;
  }
  return { ok: true, ...out, truncated };
}

/** The normalised cnpj, null when absent, or `ignored` (as a result object, to keep it apart from text). */
function readCnpj(field: FieldValue | undefined): { cnpj: string | null; ignored: boolean } {
  if (field === undefined || field.value === null) return { cnpj: null, ignored: false };
  const text =
    typeof field.value === 'string'
      ? field.value
      : typeof field.value === 'number' && integerToken.test(field.raw)
        ? field.raw
        : null;
  const cnpj = text === null ? null : normaliseCnpj(text);
  return { cnpj, ignored: cnpj === null };
}

/**
 * Names for the `ignored_fields` warning, in body order: unknown members, `requester` when it is not an
 * object, and `requester.<key>` for its unknown keys; each listed once, without invisible characters,
 * at most 64 characters, at most 20 names.
 */
function ignoredFields(members: readonly JsonMember[], values: ReadonlyMap<string, FieldValue>): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (name: string): void => {
    const shown = truncateCodePoints(removeInvisible(name), TICKET_LIMITS.ignoredFieldNameLength);
    // Every ignored field is reported (Ticket request, general rules), so a name that is empty, or
    // empty once its invisible characters are gone, is listed as "" rather than dropped.
    if (seen.has(shown)) return;
    seen.add(shown);
    names.push(shown);
  };
  const firstSeen = new Set<string>();
  for (const member of members) {
    if (firstSeen.has(member.name)) continue;
    firstSeen.add(member.name);
    if (member.name === 'requester') {
      const requester = values.get('requester');
      if (requester === undefined || requester.value === null) continue;
      if (typeof requester.value !== 'object' || Array.isArray(requester.value)) {
        add('requester');
        continue;
      }
      const innerSeen = new Set<string>();
      for (const inner of jsonObjectMembers(requester.raw)) {
        if (inner.name === 'name' || inner.name === 'contact' || innerSeen.has(inner.name)) continue;
        innerSeen.add(inner.name);
        add(`requester.${inner.name}`);
      }
    } else if (!KNOWN_FIELDS.has(member.name)) {
      add(member.name);
    }
  }
  return names.slice(0, TICKET_LIMITS.ignoredFieldNames);
}
