import type { BackOfficeAction } from '../../../audit/back-office-log.js';
import { backOfficeQueryInput } from '../../../audit/back-office-log-view.js';
import { formText } from '../../../web/face.js';
import { errorSummary, selectField, textField, zodFormErrors, type FormErrors } from '../../../web/form.js';
import { formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { dataTable } from '../../../web/table.js';
import { actorText, channelText } from '../../actor-text.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import type { T } from './staff-views.js';

// The back-office action log, newest first, filtered by action or user (GET /console/activity).

/** The details of an action cut for a table cell: `member: value, …`, at most this many characters. */
const DETAILS_SHORT = 120;

function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** The details, a long text: broken anywhere when it must (an id or an address is one long word). */
function detailsCell(t: T, details: Record<string, unknown>): SafeHtml {
  const text = detailsText(details);
  if (text === '') return html`—`;
  const chars = Array.from(text);
  if (chars.length <= DETAILS_SHORT) return html`<div class="cell-long">${text}</div>`;
  return html`<div class="cell-long">
    ${chars.slice(0, DETAILS_SHORT - 1).join('')}…
    <details>
      <summary>${t('actAllDetails')}</summary>
      <pre class="pre">${JSON.stringify(details, null, 2)}</pre>
    </details>
  </div>`;
}

export function registerActivityPage(kit: ConsoleKit): void {
  const { services } = kit;
  const { staffUsers } = services;

  kit.page<{ Querystring: Record<string, unknown> }>('/activity', 'staff', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const given = (name: string) => {
      const value = formText(request.query[name]).trim();
      return value === '' ? undefined : value;
    };
    const filters = { action: given('action'), user: given('user'), cursor: given('cursor') };
    const parsed = backOfficeQueryInput.safeParse(filters);
    const errors: FormErrors = parsed.success ? {} : zodFormErrors(parsed.error);
    const [users, page] = await Promise.all([
      staffUsers.list(),
      parsed.success
        ? services.backOfficeLog.list({
            limit: parsed.data.limit,
            ...(parsed.data.cursor === undefined ? {} : { cursor: parsed.data.cursor }),
            ...(parsed.data.action === undefined ? {} : { action: parsed.data.action }),
            ...(parsed.data.user === undefined ? {} : { userId: parsed.data.user }),
          })
        : Promise.resolve({ actions: [] as BackOfficeAction[], nextCursor: null }),
    ]);
    const filtered = filters.action !== undefined || filters.user !== undefined;
    const query = (extra: Record<string, string>) => {
      const params = new URLSearchParams();
      if (filters.action !== undefined) params.set('action', filters.action);
      if (filters.user !== undefined) params.set('user', filters.user);
      for (const [name, value] of Object.entries(extra)) params.set(name, value);
      const text = params.toString();
      return `${CONSOLE_PREFIX}/activity${text === '' ? '' : `?${text}`}`;
    };
    const labels = { action: t('actFilterAction'), user: t('actFilterUser'), cursor: 'cursor' };
    const columns = [
      { label: t('actColWhen') },
      { label: t('actColWho') },
      { label: t('actColChannel') },
      { label: t('actColAction') },
      { label: t('actColTarget') },
      { label: t('actColDetails') },
    ];
    const rows = page.actions.map((action) => [
      html`<time datetime="${new Date(action.occurredAt).toISOString()}"
        >${formatInstant(action.occurredAt, locale, true)}</time
      >`,
      action.actor.role === 'staff' && typeof action.actor.userId === 'string'
        ? html`<a href="${CONSOLE_PREFIX}/activity?user=${encodeURIComponent(action.actor.userId)}"
            >${actorText(t, action.actor)}</a
          >`
        : html`<span class="words">${actorText(t, action.actor)}</span>`,
      html`<span class="words">${channelText(t, action.actor.channel)}</span>`,
      html`<a href="${CONSOLE_PREFIX}/activity?action=${encodeURIComponent(action.action)}"
        ><code class="action">${action.action}</code></a
      >`,
      // One line, cut with an ellipsis when it is long; the whole path is its title.
      html`<code class="ellipsis" title="${action.target}">${action.target}</code>`,
      detailsCell(t, action.details),
    ]);
    const body = html`<h1>${t('actTitle')}</h1>
      <p>${t('actIntro')}</p>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form method="get" action="${CONSOLE_PREFIX}/activity" class="card" aria-label="${t('actFilters')}">
        <div class="filters">
          ${textField({
            name: 'action',
            label: labels.action,
            value: filters.action ?? '',
            hint: t('actFilterActionHint'),
            error: errors.action,
          })}
          ${selectField({
            name: 'user',
            label: labels.user,
            value: filters.user ?? '',
            hint: t('actFilterUserHint'),
            options: [
              { value: '', label: t('actAnyone') },
              ...users.map((user) => ({
                value: user.id,
                label: user.disabledAt === null ? user.name : t('actDisabledUser', { name: user.name }),
              })),
            ],
          })}
        </div>
        <div class="actions">
          <button type="submit">${t('actFilterButton')}</button>
          ${filtered ? html`<a href="${CONSOLE_PREFIX}/activity">${t('actClear')}</a>` : ''}
        </div>
      </form>
      ${
        page.actions.length === 0
          ? html`<p role="status">${t(filtered ? 'actNoneFiltered' : 'actNone')}</p>`
          : html`<div id="actions">${dataTable(columns, rows)}</div>`
      }
      ${
        page.nextCursor === null && filters.cursor === undefined
          ? ''
          : html`<nav aria-label="${t('actPageNav')}" class="actions">
              ${filters.cursor === undefined ? '' : html`<a href="${query({})}">${t('actFirst')}</a>`}
              ${
                page.nextCursor === null
                  ? ''
                  : html`<a href="${query({ cursor: page.nextCursor })}" rel="next">${t('actNext')}</a>`
              }
            </nav>`
      }`;
    return kit.send(request, reply, ctx, t('actTitle'), body, { status: parsed.success ? 200 : 422 });
  });
}
