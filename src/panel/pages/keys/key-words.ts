import type { Actor } from '../../../audit/actor.js';
import type { PosKey } from '../../../pos/keys/merchant-key.js';
import { formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import type { Locale, Translate } from '../../../web/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit.js';
import type { PanelMessage } from '../../panel-messages.js';

// How the key pages say a key's state, permissions, last use and who acted, in the merchant's words.

type T = Translate<PanelMessage>;

/** The address of a key's page, or of one of its actions (`/edit`). */
export function keyUrl(id: string, tail = ''): string {
  return `${PANEL_PREFIX}/keys/${encodeURIComponent(id)}${tail}`;
}

/** A key's state, and until when the previous key text still works after a rotation. */
export function stateText(t: T, key: PosKey, locale: Locale): SafeHtml {
  const names = {
    active: 'stateActive',
    paused: 'statePaused',
    expired: 'stateExpired',
    revoked: 'stateRevoked',
  } as const;
  const base = html`<span class="state state-${key.state}">${t(names[key.state])}</span>`;
  if (key.previousValidUntil === null || key.state === 'revoked') return base;
  return html`${base}<span class="help"
      >${t('stateRotating', { until: formatInstant(key.previousValidUntil, locale) })}</span
    >`;
}

/** What a key may read, by the permissions' names in the form. */
export function permissionsText(t: T, key: PosKey): string {
  if (key.permissions.length === 0) return '—';
  return key.permissions.map((p) => (p === 'event.view' ? t('permEvents') : t('permSales'))).join(', ');
}

/** Who acted, for a merchant: a panel user by name; the platform's people by role (never a token). */
export function actorText(t: T, actor: Actor): string {
  if (actor.role === 'merchant_user') return actor.displayName ?? t('notRecorded');
  const role = {
    operator: t('actorOperator'),
    support: t('actorSupport'),
    staff: t('actorStaff'),
    system: t('actorSystem'),
  }[actor.role];
  return actor.channel === 'cli' ? `${role} (${t('viaCli')})` : role;
}

/** A key text's last accepted use (kept about once a minute), or that it was never used. */
export function lastUseText(t: T, at: number | null, locale: Locale): string {
  return at === null ? t('neverUsed') : `${formatInstant(at, locale)} (UTC-03:00)`;
}
