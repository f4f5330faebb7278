import type { KeyAuditEvent } from '../../../audit/key-audit-repository.js';
import type { PosKey } from '../../../pos/keys/merchant-key.js';
import { formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import type { Locale, Translate } from '../../../web/i18n.js';
import { KEY_EVENT_MESSAGES } from '../../../web/key-events.js';
import { keyHistoryTable } from '../../../web/key-history.js';
import { actorWithChannel } from '../../actor-text.js';
import type { ConsoleMessage } from '../../console-messages.js';
import { CONSOLE_PREFIX } from '../../console-path.js';

// What the merchant pages of the console (this folder) show alike: where an account's pages are, a
// key's state, permissions, places and last use, who acted in a key's history and what they noted, and
// an instant written in the console's time (UTC-03:00, as the panel writes it).

type T = Translate<ConsoleMessage>;

/** The path of an account's page, or of one below it, within the console (for kit.redirect). */
export function accountPath(account: string, tail = ''): string {
  return `/accounts/${encodeURIComponent(account)}${tail}`;
}

/** The same as a link's address. */
export function accountHref(account: string, tail = ''): string {
  return CONSOLE_PREFIX + accountPath(account, tail);
}

/** The path of a place's page (its events), or of one below it. */
export function placePath(account: string, place: string, tail = ''): string {
  return accountPath(account, `/places/${encodeURIComponent(place)}${tail}`);
}

/** The path of a key's page, or of one below it. */
export function keyPath(account: string, id: string, tail = ''): string {
  return accountPath(account, `/keys/${encodeURIComponent(id)}${tail}`);
}

/** An instant as the console writes it: "2026-11-20 09:00" or "20/11/2026 09:00" (UTC-03:00). */
export function instantText(ms: number, locale: Locale): string {
  return formatInstant(ms, locale);
}

/** An instant in UTC-03:00 as the admin API takes it ("2026-11-20T21:30:00-03:00"), for a form. */
export function instantInput(ms: number): string {
  return `${new Date(ms - 3 * 3_600_000).toISOString().slice(0, 19)}-03:00`;
}

/** A key's state, and while a rotation's previous key still works, until when. */
export function keyStateHtml(t: T, key: PosKey, locale: Locale): SafeHtml {
  const names = {
    active: 'accStateActive',
    paused: 'accStatePaused',
    expired: 'accStateExpired',
    revoked: 'accStateRevoked',
  } as const;
  const base = html`<span class="state state-${key.state}">${t(names[key.state])}</span>`;
  if (key.previousValidUntil === null || key.state === 'revoked') return base;
  return html`${base}<span class="help"
      >${t('accStateRotating', { until: instantText(key.previousValidUntil, locale) })}</span
    >`;
}

/** A key's permissions in words. */
export function permissionsText(t: T, key: PosKey): string {
  if (key.permissions.length === 0) return t('accPermNone');
  return key.permissions.map((p) => (p === 'event.view' ? t('accPermEvents') : t('accPermSales'))).join(', ');
}

/** The places a key reaches. */
export function placesText(t: T, key: PosKey): string {
  return key.places === 'all' ? t('accPlacesAll') : key.places.join(', ');
}

/** A key text's last accepted use (kept about once a minute), or that it was never used. */
export function lastUseText(t: T, at: number | null, locale: Locale): string {
  return at === null ? t('accNeverUsed') : instantText(at, locale);
}

/** What an event of the history notes beside its name: a revocation's reason, an edit's fields. */
function eventNote(t: T, event: KeyAuditEvent, locale: Locale): string {
  const details = event.details;
  const notes: string[] = [];
  if (typeof details.reason === 'string') notes.push(t('accNoteReason', { reason: details.reason }));
  if (details.previous_key_ended === true) notes.push(t('accNotePreviousEnded'));
  if (event.event === 'edited' && typeof details.changes === 'object' && details.changes !== null) {
    notes.push(t('accNoteChanged', { fields: Object.keys(details.changes).join(', ') }));
  }
  if (event.event === 'rotated') {
    const until = details.previous_valid_until;
    notes.push(
      typeof until === 'string'
        ? t('accNotePreviousUntil', { until: instantText(Date.parse(until), locale) })
        : t('accNotePreviousEnded'),
    );
  }
  return notes.join(' ');
}

/** A key's history, newest first; with `keyNames`, a column names the key of each event. */
export function historyTable(
  t: T,
  locale: Locale,
  events: readonly KeyAuditEvent[],
  options: { account: string; keyNames?: ReadonlyMap<string, string> },
): SafeHtml {
  const names = options.keyNames;
  return keyHistoryTable(events, {
    empty: t('historyEmpty'),
    keyOfRow: true,
    columns: [
      { label: t('accColWhen'), cell: (event) => instantText(event.occurredAt, locale) },
      ...(names === undefined
        ? []
        : [
            {
              label: t('accColKey'),
              cell: (event: KeyAuditEvent) =>
                html`<a href="${CONSOLE_PREFIX}${keyPath(options.account, event.keyId)}"
                  >${names.get(event.keyId) ?? event.keyId}</a
                >`,
            },
          ]),
      { label: t('historyWhat'), cell: (event) => t(KEY_EVENT_MESSAGES[event.event]) },
      { label: t('historyWho'), cell: (event) => actorWithChannel(t, event.actor) },
      { label: t('accColNote'), cell: (event) => eventNote(t, event, locale), className: 'note' },
    ],
  });
}

/** A yes/no state as a badge (an account, a place, an event). */
export function activeBadge(t: T, active: boolean | null): SafeHtml {
  if (active === null) return html`<span class="help">${t('accNotStated')}</span>`;
  return html`<span class="state state-${active ? 'active' : 'revoked'}"
    >${t(active ? 'active' : 'inactive')}</span
  >`;
}

/** The route parameters of an account's pages. */
export interface AccountParams {
  Params: { account: string };
}

/** The route parameters of a key's pages. */
export interface KeyParams {
  Params: { account: string; id: string };
}

/** Active keys count against the account's limit: not revoked and not expired (a paused key counts). */
export const counts = (key: PosKey) => key.state === 'active' || key.state === 'paused';
