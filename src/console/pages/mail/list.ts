import type { DevMailbox } from '../../../mail/dev-mailbox.js';
import { formatCount, formatInstant } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import { dataTable } from '../../../web/table.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';

// The development mailbox's messages, newest first: when, to whom, the subject (a link to the message)
// and its kind (GET /console/mailbox).

/** The path of a message's page. */
export const messageUrl = (id: string, rest = '') =>
  `${CONSOLE_PREFIX}/mailbox/${encodeURIComponent(id)}${rest}`;

export function registerMailboxListPage(kit: ConsoleKit, mailbox: DevMailbox): void {
  kit.page('/mailbox', 'staff', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const entries = await mailbox.list();
    const columns = [
      { label: t('mailColWhen') },
      { label: t('mailColTo') },
      { label: t('mailColSubject') },
      { label: t('mailColKind') },
    ];
    const rows = entries.map((entry) => [
      html`<time datetime="${new Date(entry.deliveredAt).toISOString()}"
        >${formatInstant(entry.deliveredAt, locale, true)}</time
      >`,
      entry.to,
      html`<a href="${messageUrl(entry.id)}">${entry.subject}</a>`,
      html`<code class="action">${entry.kind}</code>`,
    ]);
    const body = html`<h1>${t('mailTitle')}</h1>
      <p>${t('mailIntro', { size: formatCount(mailbox.size, locale) })}</p>
      ${
        entries.length === 0
          ? html`<p role="status">${t('mailNone')}</p>`
          : html`<p role="status">${t('mailCount', { count: formatCount(entries.length, locale) })}</p>
              <div id="mailbox">${dataTable(columns, rows)}</div>`
      }`;
    return kit.send(request, reply, ctx, t('mailTitle'), body);
  });
}
