import { fastifyCookie } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';

// Languages of the web faces (issue 13: Portuguese by default, English available). A face has one
// catalogue of messages per language with the same keys (the compiler checks that none is missing);
// the choice is a cookie set from the language switch of every page.

const LOCALES = ['pt-BR', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
const DEFAULT_LOCALE: Locale = 'pt-BR';
/** The cookie that keeps the language chosen. */
export const LOCALE_COOKIE = 'lang';

/** A catalogue: the same keys in every language; `{name}` marks a value put in. */
export type Catalogue<K extends string> = Record<Locale, Record<K, string>>;

/** Translates a key of the catalogue, with its values. */
export type Translate<K extends string> = (key: K, values?: Record<string, string | number>) => string;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The language of a request: the cookie's when it names one, else Portuguese. */
export function requestLocale(request: FastifyRequest): Locale {
  // A request refused before it reached the face (a path the router cannot decode) has no cookies read.
  const cookies =
    (request.cookies as Record<string, string | undefined> | undefined) ??
    fastifyCookie.parse(request.headers.cookie ?? '');
  const chosen = cookies[LOCALE_COOKIE];
  return isLocale(chosen) ? chosen : DEFAULT_LOCALE;
}

/** The translator of one language of a catalogue. */
export function translator<K extends string>(catalogue: Catalogue<K>, locale: Locale): Translate<K> {
  const messages = catalogue[locale];
  return (key, values) =>
    messages[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
      values !== undefined && name in values ? String(values[name]) : whole,
    );
}

/** The keys of a catalogue. */
type KeysOf<C> = C extends Catalogue<infer K> ? K : never;

/** One catalogue of a face: the shared texts, then the face's own (a later one may say an earlier's its way). */
export function mergeCatalogues<C extends readonly Catalogue<string>[]>(
  ...catalogues: C
): Catalogue<KeysOf<C[number]>> {
  const merged = { 'pt-BR': {}, en: {} } as Catalogue<string>;
  for (const catalogue of catalogues) {
    Object.assign(merged['pt-BR'], catalogue['pt-BR']);
    Object.assign(merged.en, catalogue.en);
  }
  return merged;
}
