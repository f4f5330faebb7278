import { notFound } from '../../../errors/refusals.js';
import { catalogCollection, type CatalogCollection } from '../../../helpdesk/catalog-collections.js';
import type { CatalogEntry, CatalogTable } from '../../../helpdesk/catalog-service.js';
import { formText } from '../../../web/face.js';
import { formInteger, formIssues, zodFormErrors, type FormErrors } from '../../../web/form.js';
import type { ConsoleKit } from '../../console-kit.js';
import type { CatalogMessage } from '../../messages/catalog.js';

// What the catalog's pages are made of: each collection's texts, the fields of its form derived from the
// admin API's body schema, the form's values as typed and as the body of the PUT they stand for, and an
// entry found by the id in a path.

/** The stem of each collection's texts (`catCategories`, `catCategoriesNew`…). */
export type Stem = 'Companies' | 'CategoryTypes' | 'Priorities' | 'Categories' | 'SupportLevels' | 'Natures';

/** Each collection's texts: its stem, the hint of its id, the hint of its `active` field. */
export const TEXTS: Record<
  CatalogTable,
  { stem: Stem; idHint: CatalogMessage; activeHint?: CatalogMessage }
> = {
  hd_companies: { stem: 'Companies', idHint: 'catHintCompanyId', activeHint: 'catHintActiveCompany' },
  hd_category_types: { stem: 'CategoryTypes', idHint: 'catHintIntegerId' },
  hd_priorities: { stem: 'Priorities', idHint: 'catHintIntegerId' },
  hd_categories: { stem: 'Categories', idHint: 'catHintIntegerId' },
  hd_support_levels: { stem: 'SupportLevels', idHint: 'catHintIntegerId' },
  hd_natures: { stem: 'Natures', idHint: 'catHintNatureId', activeHint: 'catHintActiveNature' },
};

/** How a field of a body is typed in the form and shown in the list. */
type Widget = 'text' | 'description' | 'active' | 'integer' | 'type' | 'priority';

/** Every member of the catalog's bodies, by name: a schema's member without one stops the start. */
const FIELDS: Readonly<Record<string, { widget: Widget; label: CatalogMessage; hint?: CatalogMessage }>> = {
  name: { widget: 'text', label: 'catFieldName', hint: 'catHintName' },
  description: { widget: 'description', label: 'catFieldDescription', hint: 'catHintDescription' },
  active: { widget: 'active', label: 'catFieldActive' },
  level: { widget: 'integer', label: 'catFieldLevel', hint: 'catHintLevel' },
  response_time_hours: { widget: 'integer', label: 'catFieldResponseTime', hint: 'catHintResponseTime' },
  type_id: { widget: 'type', label: 'catFieldType', hint: 'catHintType' },
  default_priority_id: {
    widget: 'priority',
    label: 'catFieldDefaultPriority',
    hint: 'catHintDefaultPriority',
  },
};

/** A field of a collection's form. */
export interface Field {
  name: string;
  widget: Widget;
  label: CatalogMessage;
  hint: CatalogMessage | undefined;
}

/** The fields of a collection: the members of its body schema, in the schema's order. */
export function fieldsOf(collection: CatalogCollection): Field[] {
  return Object.keys(collection.input.shape).map((name) => {
    const field = FIELDS[name];
    if (field === undefined) throw new Error(`the console has no form field for ${collection.path}.${name}`);
    const hint = field.widget === 'active' ? TEXTS[collection.table].activeHint : field.hint;
    return { name, widget: field.widget, label: field.label, hint };
  });
}

/** What the form's fields hold, as text (a checkbox: `true` or empty), by name; `id` too on a new entry. */
export type FormValues = Record<string, string>;

/** An entry's fields as the form shows them. */
export function valuesOf(fields: readonly Field[], entry: CatalogEntry): FormValues {
  const values: FormValues = {};
  for (const { name } of fields) {
    const value = entry[name];
    values[name] =
      typeof value === 'boolean'
        ? value
          ? 'true'
          : ''
        : typeof value === 'string' || typeof value === 'number'
          ? String(value)
          : '';
  }
  return values;
}

/** The fields as posted. */
export function postedValues(fields: readonly Field[], posted: Record<string, unknown>): FormValues {
  const values: FormValues = { id: formText(posted.id).trim() };
  for (const { name } of fields) values[name] = formText(posted[name]);
  return values;
}

/**
 * The body of the admin API's PUT that the form stands for: an empty description is none (null), a
 * line break counts as one character as it does when typed (browsers send CRLF), a checkbox absent is
 * false, numbers are read from their text and left to the schema to refuse when they are not numbers.
 */
function bodyOf(fields: readonly Field[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { name, widget } of fields) {
    const text = values[name] ?? '';
    if (widget === 'text') body[name] = text;
    else if (widget === 'description') body[name] = text.trim() === '' ? null : text.replace(/\r\n/g, '\n');
    else if (widget === 'active') body[name] = text === 'true';
    else if (widget === 'priority') body[name] = text === '' ? null : formInteger(text);
    else body[name] = formInteger(text);
  }
  return body;
}

/** The id of an entry as listed (`identifier` for natures). */
export function keyOf(collection: CatalogCollection, entry: CatalogEntry): string {
  const key = entry[collection.key];
  return typeof key === 'string' || typeof key === 'number' ? String(key) : '';
}

export const listPath = (collection: CatalogCollection) => `/catalog/${collection.path}`;
export const entryPath = (collection: CatalogCollection, id: string, action: 'edit' | 'delete') =>
  `/catalog/${collection.path}/${encodeURIComponent(id)}/${action}`;

/** The collection of a path segment; an unknown one is the console's 404. */
export function collectionOf(path: string): CatalogCollection {
  const collection = catalogCollection(path);
  if (collection === undefined) throw notFound(`catalog collection "${path}"`);
  return collection;
}

/** An entry of a collection by the id in a path (checked by the PUT path's schema); 404 if none. */
export async function entryOf(
  kit: ConsoleKit,
  collection: CatalogCollection,
  id: string,
): Promise<{ key: string | number; entry: CatalogEntry }> {
  const parsed = collection.id.safeParse({ id });
  if (!parsed.success) throw notFound(`${collection.path} entry "${id}"`);
  const key = parsed.data.id;
  const entries = await kit.services.catalog.listEntries(collection.table);
  const entry = entries.find((found) => found[collection.key] === key);
  if (entry === undefined) throw notFound(`${collection.path} entry "${id}"`);
  return { key, entry };
}

/** What a category's form chooses from: the category types by name, the priorities by level. */
export interface Choices {
  types: CatalogEntry[];
  priorities: CatalogEntry[];
}

export async function choicesFor(kit: ConsoleKit, collection: CatalogCollection): Promise<Choices> {
  if (!fieldsOf(collection).some((field) => field.widget === 'type' || field.widget === 'priority')) {
    return { types: [], priorities: [] };
  }
  const [types, priorities] = await Promise.all([
    kit.services.catalog.listEntries('hd_category_types'),
    kit.services.catalog.listEntries('hd_priorities'),
  ]);
  const text = (entry: CatalogEntry, member: string) => String(entry[member]);
  return {
    types: types.sort((a, b) => text(a, 'name').localeCompare(text(b, 'name'))),
    priorities: priorities.sort((a, b) => Number(a.level) - Number(b.level)),
  };
}

/** "Incidente (1)": an entry of another collection as a choice and in a list. */
export function named(entries: readonly CatalogEntry[], id: unknown): string {
  const found = entries.find((entry) => entry.id === id);
  return found === undefined ? String(id) : `${String(found.name)} (${String(id)})`;
}

/** What a form is for: a new entry, or the entry of this id. */
export type FormMode = { kind: 'new' } | { kind: 'edit'; id: string };

/** The posted fields checked by the admin API's body schema: the body of PUT, or each field's error. */
export function checked(
  collection: CatalogCollection,
  values: FormValues,
): { ok: true; body: Record<string, unknown> } | { ok: false; errors: FormErrors } {
  const parsed = collection.input.safeParse(bodyOf(fieldsOf(collection), values), { error: formIssues });
  return parsed.success
    ? { ok: true, body: parsed.data }
    : { ok: false, errors: zodFormErrors(parsed.error) };
}
