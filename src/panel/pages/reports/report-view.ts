import type { SalesByPaymentMethod } from '../../../pos/sales/sales-query.js';
import { formatCount, formatDayText, formatMoneyText, formatShare } from '../../../web/format.js';
import { html, jsonScript, raw, type SafeHtml } from '../../../web/html.js';
import type { PanelContext } from '../../panel-kit.js';
import type { PanelMessage } from '../../panel-messages.js';
import { brandLines, type quickPeriods } from '../../panel-report.js';

// The two financial reports' page: the filters (place, event, period, quick periods) and the figures
// as a table, a CSV link and a chart, or why there are none.

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
}

/** The query of the report for a period, with the place and event chosen. */
function reportQuery(model: ReportModel, p: { from: string; to: string }): string {
  const { eventId } = model;
  return `?${new URLSearchParams({ place: model.place.id, ...(eventId === null ? {} : { event: eventId }), from: p.from, to: p.to }).toString()}`;
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
  const query = (p: { from: string; to: string }) => reportQuery(model, p);
  const money = (amount: string) => formatMoneyText(amount, figures?.currency ?? 'BRL', ctx.locale);
  if (model.problem !== null) {
    return html`<div class="error" role="alert">${t(model.problem)}</div>`;
  } else if (model.timedOut) {
    return html`<div class="error" role="alert">${t('reportTimedOut')}</div>`;
  } else if (figures === null || figures.data.length === 0) {
    return html`<p>${t('emptyPeriod')}</p>`;
  } else {
    const event =
      eventId === null
        ? ''
        : t('eventShown', { event: events.find((e) => e.id === eventId)?.name ?? eventId });
    const caption = t('periodShown', {
      place: place.name ?? place.id,
      from: formatDayText(period.from, ctx.locale),
      to: formatDayText(period.to, ctx.locale),
      event,
    });
    const lines =
      kind === 'receipts'
        ? figures.data.map((line) => ({
            label: line.label,
            count: line.count,
            amount: line.amount,
            share: line.share,
          }))
        : brandLines(figures).map((line) => ({
            label: `${line.brand === null ? t('noBrand') : line.brand === 'OTHER' ? t('otherBrand') : line.brand} · ${line.label}`,
            count: line.count,
            amount: line.amount,
            share: line.share,
          }));
    const chartData = {
      title: t('amount'),
      labels: lines.map((l) => l.label),
      values: lines.map((l) => Number(l.amount)),
      texts: lines.map((l) => `${money(l.amount)} (${formatShare(l.share, ctx.locale)})`),
      axis: `${figures.currency === 'BRL' ? 'R$' : figures.currency} #`,
    };
    const chartLabel = t(kind === 'receipts' ? 'chartMethods' : 'chartBrands');
    return html` <div class="table-wrap">
        <table class="stack figures" id="report-table">
          <caption>
            ${caption}
          </caption>
          <thead>
            <tr>
              <th scope="col">${t(kind === 'receipts' ? 'method' : 'brand')}</th>
              <th scope="col" class="num">${t('count')}</th>
              <th scope="col" class="num">${t('amount')}</th>
              <th scope="col" class="num">${t('share')}</th>
            </tr>
          </thead>
          <tbody>
            ${lines.map(
              (l) =>
                html`<tr>
                  <th scope="row" data-label="${t(kind === 'receipts' ? 'method' : 'brand')}">${l.label}</th>
                  <td class="num" data-label="${t('count')}">${formatCount(l.count, ctx.locale)}</td>
                  <td class="num" data-label="${t('amount')}" data-amount="${l.amount}">
                    ${money(l.amount)}
                  </td>
                  <td class="num" data-label="${t('share')}" data-share="${l.share}">
                    ${formatShare(l.share, ctx.locale)}
                  </td>
                </tr>`,
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" data-label="">${t('total')}</th>
              <td class="num" data-label="${t('count')}" data-total-count="${figures.total.count}">
                ${formatCount(figures.total.count, ctx.locale)}
              </td>
              <td class="num" data-label="${t('amount')}" data-total-amount="${figures.total.amount}">
                ${money(figures.total.amount)}
              </td>
              <td class="num" data-label="${t('share')}">${kind === 'receipts' ? '100%' : ''}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p><a class="button secondary" href="${base}.csv${query(period)}" download>${t('downloadCsv')}</a></p>
      <div class="chart">
        <canvas data-chart="chart-data" role="img" aria-label="${chartLabel}"></canvas>
      </div>
      ${jsonScript('chart-data', chartData)}`;
  }
}
