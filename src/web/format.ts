import type { Locale } from './i18n.js';

// How the web faces write money, shares and instants for people (issue 13: "Money shown in Brazilian
// format (R$ 1.234,50), shares as percentages"). Money arrives as the API's exact text ("1234.50"), so
// nothing passes through a float.

function group(units: string, separator: string): string {
  return units.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

const SYMBOLS: Record<string, string> = { BRL: 'R$', USD: 'US$', EUR: '€' };

/** "1234.50" → "R$ 1.234,50" (pt-BR) or "R$ 1,234.50" (en); negative amounts keep their sign. */
export function formatMoneyText(amount: string, currency: string, locale: Locale): string {
  const negative = amount.startsWith('-');
  const [units = '0', cents = '00'] = (negative ? amount.slice(1) : amount).split('.');
  const symbol = SYMBOLS[currency] ?? currency;
  const number = locale === 'pt-BR' ? `${group(units, '.')},${cents}` : `${group(units, ',')}.${cents}`;
  return `${negative ? '-' : ''}${symbol}\u00a0${number}`;
}

/** "12.345" → "12,3%" (pt-BR) or "12.3%" (en): a share of the response, to one decimal for reading. */
export function formatShare(share: string, locale: Locale, decimals = 1): string {
  const value = Number(share);
  const text = value.toFixed(decimals);
  return `${locale === 'pt-BR' ? text.replace('.', ',') : text}%`;
}

/** An integer with the language's thousands separator. */
export function formatCount(count: number, locale: Locale): string {
  return group(String(count), locale === 'pt-BR' ? '.' : ',');
}

/**
 * An instant in UTC-03:00, the panel's time ("20/11/2026 09:00" or "2026-11-20 09:00"); with seconds
 * ("09:00:05") where a person matches it against a partner's log.
 */
export function formatInstant(ms: number, locale: Locale, seconds = false): string {
  const local = new Date(ms - 3 * 3_600_000).toISOString();
  const [date = '', time = ''] = local.split('T');
  const [y, m, d] = date.split('-');
  const hm = time.slice(0, seconds ? 8 : 5);
  return locale === 'pt-BR' ? `${d}/${m}/${y} ${hm}` : `${date} ${hm}`;
}

/** A day "2026-11-20" as the language writes it. */
export function formatDayText(day: string, locale: Locale): string {
  const [y, m, d] = day.split('-');
  return locale === 'pt-BR' ? `${d}/${m}/${y}` : day;
}

/** The time of day of an instant in UTC-03:00 ("09:05", or "09:05:30" with seconds). */
export function formatTimeOfDay(ms: number, seconds = false): string {
  return new Date(ms - 3 * 3_600_000).toISOString().slice(11, seconds ? 19 : 16);
}
