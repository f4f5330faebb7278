import type { SalesByPaymentMethod } from '../../../pos/sales/sales-query.js';
import { formatDayText, formatMoneyText } from '../../../web/format.js';
import { html, raw, type SafeHtml } from '../../../web/html.js';
import type { PanelContext } from '../../panel-kit.js';
import type { PanelMessage } from '../../panel-messages.js';
import { brandLines, type quickPeriods } from '../../panel-report.js';
import { brandsFigures, receiptsFigures, type FiguresFrame } from './report-figures.js';

// The two financial reports' page: the filters (place, event, period, quick periods) and the figures
// as a table, the CSV links and a chart (report-figures.ts), or why there are none: an empty report names
// the place and period it looked at.

/** What a report page shows. */
export interface ReportModel {
  kind: 'receipts' | 'brands';
  title: string;
  places: readonly { id: string; name: string | null }[];
  place: { id: string; name: string | null };
  events: readonly { id: string; name: string }[];
  /** The event chosen, or null for the whole period. */
  eventId: string | null;
  period: { from: string; to: string };
  quick: ReturnType<typeof quickPeriods>;
  /** Why the period cannot be shown, when it cannot. */
  problem: PanelMessage | null;
  /** The report timed out. */
  timedOut: boolean;
  figures: SalesByPaymentMethod | null;
  /** The report's address, without its query. */
  base: string;
  /** Every brand line asked for (`all=1`), instead of the leading ones and the rest summed. */
  all: boolean;
}

/** The query of the report for a period, with the place and event chosen (and every brand, when asked). */
function reportQuery(model: ReportModel, p: { from: string; to: string }, all = model.all): string {
  const { eventId } = model;
  const query = new URLSearchParams({ place: model.place.id });
  if (eventId !== null) query.set('event', eventId);
  query.set('from', p.from);
  query.set('to', p.to);
  if (all) query.set('all', '1');
  return `?${query.toString()}`;
}

/** The report's page body. */
export function reportView(ctx: PanelContext, model: ReportModel): SafeHtml {
  return html`<h1>${model.title}</h1>
    ${reportFiltersView(ctx, model)}${reportResultView(ctx, model)}`;
}

function reportFiltersView(ctx: PanelContext, model: ReportModel): SafeHtml {
  const t = ctx.t;
  const { base, places, events, eventId, period, quick } = model;
  const placeId = model.place.id;
  const query = (p: { from: string; to: string }) => reportQuery(model, p);
  return html` <form method="get" action="${base}" class="card">
      <div class="filters">
        <div>
          <label for="place">${t('place')}</label
          ><select id="place" name="place">
            ${places.map(
              (p) =>
                html`<option value="${p.id}" ${p.id === placeId ? raw(' selected') : ''}>
                  ${p.name ?? p.id}
                </option>`,
            )}
          </select>
        </div>
        <div>
          <label for="event">${t('event')}</label
          ><select id="event" name="event">
            <option value="">${t('allEvents')}</option>
            ${events.map(
              (e) =>
                html`<option value="${e.id}" ${e.id === eventId ? raw(' selected') : ''}>${e.name}</option>`,
            )}
          </select>
        </div>
        <div>
          <label for="from">${t('from')}</label
          ><input
            type="date"
            id="from"
            name="from"
            value="${period.from}"
            required
            aria-describedby="period-hint"
          />
        </div>
        <div>
          <label for="to">${t('to')}</label
          ><input
            type="date"
            id="to"
            name="to"
            value="${period.to}"
            required
            aria-describedby="period-hint"
          />
        </div>
      </div>
      <p class="hint" id="period-hint">${t('periodHint')}</p>
      ${model.all ? html`<input type="hidden" name="all" value="1" />` : ''}
      <div class="actions"><button type="submit">${t('show')}</button></div>
    </form>
    <nav aria-label="${t('quickPeriods')}">
      <ul class="quick">
        ${(
          [
            ['today', 'quickToday'],
            ['yesterday', 'quickYesterday'],
            ['last7', 'quickLast7'],
            ['thisMonth', 'quickThisMonth'],
            ['lastMonth', 'quickLastMonth'],
          ] as const
        ).map(([name, label]) => html`<li><a href="${base}${query(quick[name])}">${t(label)}</a></li>`)}
      </ul>
    </nav>
    <p class="hint">${t('lateSales')}</p>`;
}

function reportResultView(ctx: PanelContext, model: ReportModel): SafeHtml {
  const t = ctx.t;
  const { kind, base, events, eventId, period, place, figures } = model;
  if (model.problem !== null) return html`<div class="error" role="alert">${t(model.problem)}</div>`;
  if (model.timedOut) return html`<div class="error" role="alert">${t('reportTimedOut')}</div>`;
  const where = {
    place: place.name ?? place.id,
    from: formatDayText(period.from, ctx.locale),
    to: formatDayText(period.to, ctx.locale),
    event:
      eventId === null
        ? ''
        : t('eventShown', { event: events.find((e) => e.id === eventId)?.name ?? eventId }),
  };
  if (figures === null || figures.data.length === 0)
    return html`<p class="empty" id="report-empty">${t('emptyPeriod', where)}</p>`;
  if (kind === 'brands' && brandLines(figures).length === 0) {
    const total = formatMoneyText(figures.total.amount, figures.currency, ctx.locale);
    return html`<p class="empty" id="report-empty">${t('noBrandLines', { ...where, total })}</p>`;
  }
  const frame: FiguresFrame = {
    kind,
    caption: t('periodShown', where),
    link: (what, all) => `${base}${what}${reportQuery(model, period, all)}`,
    all: model.all,
  };
  return kind === 'receipts' ? receiptsFigures(ctx, figures, frame) : brandsFigures(ctx, figures, frame);
}
