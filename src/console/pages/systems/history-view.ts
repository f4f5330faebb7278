import type { KeyAuditEvent, KeyEventName } from '../../../audit/key-audit-repository.js';
import { formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { KEY_EVENT_MESSAGES } from '../../../web/key-events.js';
import { keyHistoryTable } from '../../../web/key-history.js';
import type { Locale } from '../../../web/i18n.js';
import { actorText, channelText } from '../../actor-text.js';
import type { ConsoleMessage } from '../../console-messages.js';
import type { T } from './system-views.js';

/** The events of a system's key, as its history says them: a merchant key's words for the others. */
const EVENT_TEXTS: Readonly<Record<KeyEventName, ConsoleMessage>> = {
  ...KEY_EVENT_MESSAGES,
  issued: 'sysEvIssued',
  rotated: 'sysEvRotated',
  previous_stopped: 'sysEvPreviousStopped',
  edited: 'sysEvEdited',
  grace_ended: 'sysEvGraceEnded',
};

/** The key's history from the audit trail, newest first: when, what, who, through which face. */
export function historyTable(t: T, locale: Locale, events: readonly KeyAuditEvent[]): SafeHtml {
  return keyHistoryTable(events, {
    empty: t('historyEmpty'),
    columns: [
      { label: t('sysWhen'), cell: (event) => formatInstant(event.occurredAt, locale) },
      { label: t('historyWhat'), cell: (event) => t(EVENT_TEXTS[event.event]) },
      { label: t('historyWho'), cell: (event) => actorText(t, event.actor) },
      { label: t('sysChannel'), cell: (event) => channelText(t, event.actor.channel) },
      { label: t('sysDetails'), cell: (event) => eventDetails(t, locale, event) },
    ],
  });
}

/** What an event's details say that a person needs: the settings changed, the end of a grace. */
function eventDetails(t: T, locale: Locale, event: KeyAuditEvent): SafeHtml | string {
  const { details } = event;
  if (event.event === 'edited' && typeof details.changes === 'object' && details.changes !== null) {
    const changes = Object.entries(details.changes as Record<string, { before?: unknown; after?: unknown }>);
    return html`<ul class="plain">
      ${changes.map(
        ([name, change]) =>
          html`<li>
            <code>${name}</code>: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}
          </li>`,
      )}
    </ul>`;
  }
  if (event.event === 'rotated' && typeof details.previous_valid_until === 'string') {
    const until = t('sysDetailPreviousUntil', {
      until: formatInstant(Date.parse(details.previous_valid_until), locale),
    });
    return details.older_previous_ended === true ? `${until} ${t('sysDetailOlderEnded')}` : until;
  }
  if (event.event === 'previous_stopped' && details.was_in_grace === false) return t('sysDetailNotInGrace');
  return '—';
}
