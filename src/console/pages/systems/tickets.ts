import { ticketQueryInput } from '../../../helpdesk/ticket-query-input.js';
import { truncateCodePoints } from '../../../lib/unicode-text.js';
import { formText } from '../../../web/face.js';
import { formatInstant } from '../../../web/format.js';
import { textField } from '../../../web/form.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { identifierOf, systemUrl, type Params } from './system-paths.js';
import { categoryName, categoryNames, namesById } from './system-views.js';

// A system's tickets (support), newest first, with a search by external id
// (GET /console/systems/:identifier/tickets).

/** How many tickets a page lists. */
const TICKETS_PER_PAGE = 50;
/** A ticket's description is cut to this many characters in the list; the rest opens on demand. */
const DESCRIPTION_SHOWN = 140;

export function registerSystemTicketsPage(kit: ConsoleKit): void {
  const { services } = kit;
  const { systems, catalog } = services;

  const ticketQuery = ticketQueryInput.pick({ cursor: true, external_id: true });

  kit.page<Params & { Querystring: { cursor?: string; external_id?: string } }>(
    '/systems/:identifier/tickets',
    'readTickets',
    async (request, reply, ctx) => {
      const { t, locale } = ctx;
      const system = await systems.get(identifierOf(request));
      const externalText = formText(request.query.external_id).trim();
      const parsed = ticketQuery.safeParse({
        ...(externalText === '' ? {} : { external_id: externalText }),
        ...(request.query.cursor === undefined ? {} : { cursor: formText(request.query.cursor) }),
      });
      const query = parsed.success ? parsed.data : {};
      const [page, categories, priorities] = await Promise.all([
        services.tickets.list({
          systemId: system.identifier,
          ...(query.external_id === undefined ? {} : { externalId: query.external_id }),
          ...(query.cursor === undefined ? {} : { beforeSeq: Number(query.cursor) }),
          limit: TICKETS_PER_PAGE,
        }),
        categoryNames(catalog),
        catalog.listEntries('hd_priorities').then(namesById),
      ]);
      const title = t('sysTicketsTitle', { name: system.name });
      const pageUrl = (cursor?: string) => {
        const params = new URLSearchParams({
          ...(query.external_id === undefined ? {} : { external_id: query.external_id }),
          ...(cursor === undefined ? {} : { cursor }),
        }).toString();
        return systemUrl(system.identifier, `/tickets${params === '' ? '' : `?${params}`}`);
      };
      const description = (text: string) => {
        const shortened = truncateCodePoints(text, DESCRIPTION_SHOWN);
        if (shortened === text) return html`<span class="pre">${text}</span>`;
        return html`<details>
          <summary>${shortened}…</summary>
          <p class="pre">${text}</p>
        </details>`;
      };
      const list =
        page.tickets.length === 0
          ? html`<p role="status">
              ${query.external_id === undefined ? t('sysTicketsEmpty') : t('sysTicketsNoneFor', { id: query.external_id })}
            </p>`
          : html`<div class="table-wrap">
              <table class="stack" id="tickets">
                <thead>
                  <tr>
                    <th scope="col">${t('sysTicket')}</th>
                    <th scope="col">${t('sysExternalId')}</th>
                    <th scope="col">${t('sysCreated')}</th>
                    <th scope="col">${t('sysCategory')}</th>
                    <th scope="col">${t('sysPriority')}</th>
                    <th scope="col">${t('sysCompany')}</th>
                    <th scope="col">${t('sysDescription')}</th>
                    <th scope="col">${t('sysRequester')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${page.tickets.map(
                    (ticket) =>
                      html`<tr data-ticket="${ticket.number}">
                        <td data-label="${t('sysTicket')}">
                          <strong>${ticket.number}</strong><span class="help mono">${ticket.id}</span>
                        </td>
                        <td data-label="${t('sysExternalId')}"><code>${ticket.externalId}</code></td>
                        <td data-label="${t('sysCreated')}">
                          ${formatInstant(ticket.createdAt, locale)}
                          ${ticket.source === 'webhook' ? html`<span class="help">${t('sysViaWebhook')}</span>` : ''}
                        </td>
                        <td data-label="${t('sysCategory')}">
                          ${ticket.categoryId === null ? '—' : categoryName(categories, ticket.categoryId)}
                        </td>
                        <td data-label="${t('sysPriority')}">
                          ${ticket.priorityId === null ? '—' : categoryName(priorities, ticket.priorityId)}
                        </td>
                        <td data-label="${t('sysCompany')}"><code>${ticket.companyId}</code></td>
                        <td data-label="${t('sysDescription')}">${description(ticket.description)}</td>
                        <td data-label="${t('sysRequester')}">
                          ${ticket.requesterName ?? '—'}
                          ${ticket.requesterContact === null ? '' : html`<span class="help">${ticket.requesterContact}</span>`}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`;
      const body = html`<p class="crumbs">
          <a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a> ›
          <a href="${systemUrl(system.identifier)}">${system.name}</a>
        </p>
        <h1>${title}</h1>
        <p>${t('sysTicketsIntro')}</p>
        <form method="get" action="${systemUrl(system.identifier, '/tickets')}" role="search" class="card">
          ${textField({
            name: 'external_id',
            label: t('sysExternalId'),
            value: externalText,
            hint: t('sysExternalIdHint'),
            error:
              parsed.success || parsed.error.issues.every((i) => i.path[0] !== 'external_id')
                ? undefined
                : t('sysExternalIdRule'),
          })}
          <div class="actions">
            <button type="submit">${t('sysFilterButton')}</button>
            ${query.external_id === undefined ? '' : html`<a href="${pageUrl()}">${t('sysFilterClear')}</a>`}
          </div>
        </form>
        ${
          !parsed.success && parsed.error.issues.some((i) => i.path[0] === 'cursor')
            ? html`<div class="error" role="alert">${t('sysCursorWrong')}</div>`
            : ''
        }
        ${list}
        <nav aria-label="${t('sysPages')}" class="actions">
          ${query.cursor === undefined ? '' : html`<a href="${pageUrl()}">${t('sysFirstPage')}</a>`}
          ${page.nextBeforeSeq === null ? '' : html`<a class="button secondary" href="${pageUrl(String(page.nextBeforeSeq))}" rel="next">${t('sysNextPage')}</a>`}
        </nav>`;
      return kit.send(request, reply, ctx, title, body);
    },
  );
}
