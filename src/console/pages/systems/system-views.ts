import type { CatalogEntry, CatalogService } from '../../../helpdesk/catalog-service.js';
import type { PartnerSystem } from '../../../helpdesk/system-repository.js';
import type { Scope } from '../../../helpdesk/system-scopes.js';
import { formatCount, formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import type { Locale, Translate } from '../../../web/i18n.js';
import type { ConsoleMessage } from '../../console-messages.js';

// The pieces the partner systems' pages share: a system's state, its key's state, a grace period and a
// category in words, and the texts of a key shown once.

export type T = Translate<ConsoleMessage>;

/** How a scope is named on the pages. */
export const SCOPE_LABELS: Readonly<Record<Scope, ConsoleMessage>> = {
  'help-desk-ticket.create': 'sysScopeTickets',
  'lead.create': 'sysScopeLeads',
};

/** An instant in UTC-03:00, or the text for none. */
export function instantOr(at: number | null, locale: Locale, none: string): string {
  return at === null ? none : formatInstant(at, locale);
}

/** A grace period in the largest unit that divides it (86400 → 24 hours). */
export function durationText(t: T, seconds: number, locale: Locale): string {
  const [n, one, many] =
    seconds % 3600 === 0
      ? ([seconds / 3600, 'sysHour', 'sysHours'] as const)
      : seconds % 60 === 0
        ? ([seconds / 60, 'sysMinute', 'sysMinutes'] as const)
        : ([seconds, 'sysSecond', 'sysSeconds'] as const);
  return n === 1 ? t(one) : t(many, { n: formatCount(n, locale) });
}

/** Whether the previous key of a rotation still opens the ticket API at `now`. */
export const previousValid = (system: PartnerSystem, now: number) =>
  system.previousValidUntil !== null && system.previousValidUntil > now;

/** The key's state in words: none yet, the current key alone, or with a previous one until when. */
export function keyStateText(t: T, system: PartnerSystem, now: number, locale: Locale): SafeHtml {
  if (!system.hasKey) return html`<span class="state state-paused">${t('sysKeyNone')}</span>`;
  const current = html`<span class="state state-active">${t('sysKeyCurrent')}</span>`;
  if (!previousValid(system, now)) return current;
  return html`${current}<span class="help"
      >${t('sysKeyPreviousUntil', { until: formatInstant(system.previousValidUntil ?? 0, locale) })}</span
    >`;
}

export function activeText(t: T, active: boolean): SafeHtml {
  return html`<span class="state state-${active ? 'active' : 'revoked'}"
    >${t(active ? 'active' : 'inactive')}</span
  >`;
}

/** A category by name (and id), or its id alone when the catalog no longer has it. */
export function categoryName(categories: ReadonlyMap<number, string>, id: number): string {
  const name = categories.get(id);
  return name === undefined ? `#${id}` : `${name} (${id})`;
}

export function namesById(entries: readonly CatalogEntry[]): Map<number, string> {
  return new Map(entries.map((entry) => [Number(entry.id), String(entry.name)]));
}

/** The help desk's categories by id, as the pages name them. */
export async function categoryNames(
  catalog: Pick<CatalogService, 'listEntries'>,
): Promise<Map<number, string>> {
  return namesById(await catalog.listEntries('hd_categories'));
}

/** The words around a key shown once. */
export const onceTexts = (t: T) => ({
  warning: t('sysShownOnce'),
  label: t('sysKeyLabel'),
  copy: t('sysCopy'),
  copied: t('sysCopied'),
});
