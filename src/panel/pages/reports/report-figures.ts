import type { SalesByPaymentMethod } from '../../../pos/sales/sales-query.js';
import { formatCount, formatMoneyText, formatShare } from '../../../web/format.js';
import { html, jsonScript, type SafeHtml } from '../../../web/html.js';
import type { PanelContext } from '../../panel-kit.js';
import { brandSummary, LEADING_BRANDS, type BrandSum } from '../../panel-report.js';

// The figures of a report that has some: the table (a line per payment method, or the leading brand
// lines and the rest summed, then what the total counts), the two CSV links and the chart.

/** One line of a report's table and chart. */
interface FigureLine {
  label: string;
  count: number;
  amount: string;
  share: string;
}

/** What the figures are shown with: the caption, the report's links, and whether every brand is asked for. */
export interface FiguresFrame {
  kind: 'receipts' | 'brands';
  caption: string;
  /** The report's address with its query: `.csv` and the "all brands" switch are built from it. */
  link: (what: '' | '.csv' | '-planilha.csv', all: boolean) => string;
  all: boolean;
}

function money(ctx: PanelContext, figures: SalesByPaymentMethod, amount: string): string {
  return formatMoneyText(amount, figures.currency, ctx.locale);
}

/** A row of the table: the line's label as its heading, then count, amount and share. */
function row(ctx: PanelContext, figures: SalesByPaymentMethod, heading: string, line: FigureLine): SafeHtml {
  const t = ctx.t;
  return html`<tr>
    <th scope="row" data-label="${heading}">${line.label}</th>
    <td class="num" data-label="${t('count')}">${formatCount(line.count, ctx.locale)}</td>
    <td class="num" data-label="${t('amount')}" data-amount="${line.amount}">
      ${money(ctx, figures, line.amount)}
    </td>
    <td class="num" data-label="${t('share')}" data-share="${line.share}">
      ${formatShare(line.share, ctx.locale)}
    </td>
  </tr>`;
}

/** A summing row of the foot (or the brands' "other" row): `name` marks its cells for a reader or a test. */
function sumRow(
  ctx: PanelContext,
  figures: SalesByPaymentMethod,
  name: string,
  label: string,
  sum: { count: number; amount: string; share: string | null },
): SafeHtml {
  const t = ctx.t;
  return html`<tr class="${name}">
    <th scope="row" data-label="">${label}</th>
    <td class="num" data-label="${t('count')}" data-${name}-count="${sum.count}">
      ${formatCount(sum.count, ctx.locale)}
    </td>
    <td class="num" data-label="${t('amount')}" data-${name}-amount="${sum.amount}">
      ${money(ctx, figures, sum.amount)}
    </td>
    <td
      class="num"
      data-label="${t('share')}"
      ${sum.share === null ? '' : html`data-${name}-share="${sum.share}"`}
    >
      ${sum.share === null ? '' : formatShare(sum.share, ctx.locale)}
    </td>
  </tr>`;
}

/** A brand line's label: the terminal's text (or what the API put in its place), then its method. */
function brandLabel(ctx: PanelContext, line: { brand: string | null; label: string }): string {
  const brand =
    line.brand === null ? ctx.t('noBrand') : line.brand === 'OTHER' ? ctx.t('otherBrand') : line.brand;
  return `${brand} · ${line.label}`;
}

function chart(
  ctx: PanelContext,
  figures: SalesByPaymentMethod,
  kind: FiguresFrame['kind'],
  lines: FigureLine[],
) {
  const t = ctx.t;
  const data = {
    title: t('amount'),
    labels: lines.map((l) => l.label),
    values: lines.map((l) => Number(l.amount)),
    texts: lines.map((l) => `${money(ctx, figures, l.amount)} (${formatShare(l.share, ctx.locale)})`),
    axis: `${figures.currency === 'BRL' ? 'R$' : figures.currency} #`,
  };
  return html`<div class="chart">
      <canvas
        data-chart="chart-data"
        role="img"
        aria-label="${t(kind === 'receipts' ? 'chartMethods' : 'chartBrands')}"
      ></canvas>
    </div>
    ${jsonScript('chart-data', data)}`;
}

/** The two CSVs of the table: the plain one and the one a pt-BR spreadsheet opens in columns. */
function downloads(ctx: PanelContext, frame: FiguresFrame): SafeHtml {
  return html`<div class="actions">
      <a class="button secondary" href="${frame.link('.csv', false)}" download>${ctx.t('downloadCsv')}</a>
      <a class="button secondary" href="${frame.link('-planilha.csv', false)}" download
        >${ctx.t('downloadCsvBr')}</a
      >
    </div>
    <p class="hint">${ctx.t('csvHint')}</p>`;
}

function table(
  ctx: PanelContext,
  frame: FiguresFrame,
  head: string,
  body: SafeHtml[],
  foot: SafeHtml[],
): SafeHtml {
  const t = ctx.t;
  return html`<div class="table-wrap">
    <table class="stack figures" id="report-table">
      <caption>
        ${frame.caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">${head}</th>
          <th scope="col" class="num">${t('count')}</th>
          <th scope="col" class="num">${t('amount')}</th>
          <th scope="col" class="num">${t('share')}</th>
        </tr>
      </thead>
      <tbody>
        ${body}
      </tbody>
      <tfoot>
        ${foot}
      </tfoot>
    </table>
  </div>`;
}

/** The receipts summary: a line per payment method, which add up to the period's total. */
export function receiptsFigures(
  ctx: PanelContext,
  figures: SalesByPaymentMethod,
  frame: FiguresFrame,
): SafeHtml {
  const t = ctx.t;
  const lines = figures.data.map(({ label, count, amount, share }) => ({ label, count, amount, share }));
  // The methods' lines add up to the total, so its share is the whole.
  const total = sumRow(ctx, figures, 'total', t('periodTotal'), { ...figures.total, share: '100.000' });
  return html`${table(
      ctx,
      frame,
      t('method'),
      lines.map((line) => row(ctx, figures, t('method'), line)),
      [total],
    )}
    <p class="hint" id="total-note">${t('receiptsTotalNote')}</p>
    ${downloads(ctx, frame)}${chart(ctx, figures, 'receipts', lines)}`;
}

/**
 * The summary by brand: the leading brand lines and the rest summed into one line (or every line), then
 * the sum of the brand lines and the period's total over every method, with a note on how they differ.
 * The chart always shows the leading lines and the rest, so that its height stays that of a dozen bars.
 */
export function brandsFigures(
  ctx: PanelContext,
  figures: SalesByPaymentMethod,
  frame: FiguresFrame,
): SafeHtml {
  const t = ctx.t;
  const summary = brandSummary(figures, LEADING_BRANDS, frame.all);
  const asLine = (line: { brand: string | null; label: string } & BrandSum) => ({
    label: brandLabel(ctx, line),
    count: line.count,
    amount: line.amount,
    share: line.share,
  });
  const restLabel = (lines: number) => t('otherBrands', { lines: formatCount(lines, ctx.locale) });
  const body = summary.shown.map((line) => row(ctx, figures, t('brand'), asLine(line)));
  if (summary.rest !== null)
    body.push(sumRow(ctx, figures, 'rest', restLabel(summary.rest.lines), summary.rest));
  const foot = [
    sumRow(ctx, figures, 'brands', t('brandsSum'), summary.brands),
    sumRow(ctx, figures, 'total', t('periodTotal'), { ...figures.total, share: null }),
  ];
  const grouped = brandSummary(figures, LEADING_BRANDS, false);
  const chartLines = grouped.shown.map(asLine);
  if (grouped.rest !== null) chartLines.push({ label: restLabel(grouped.rest.lines), ...grouped.rest });
  const every = summary.shown.length + (summary.rest?.lines ?? 0);
  const toggle =
    summary.rest !== null
      ? html`<p>
          <a href="${frame.link('', true)}" id="all-brands">${t('showAllBrands', { lines: every })}</a>
        </p>`
      : frame.all && every > LEADING_BRANDS + 1
        ? html`<p>
            <a href="${frame.link('', false)}" id="leading-brands"
              >${t('showLeadingBrands', { leading: LEADING_BRANDS })}</a
            >
          </p>`
        : '';
  const note = t('brandsTotalNote', {
    brands: money(ctx, figures, summary.brands.amount),
    total: money(ctx, figures, figures.total.amount),
  });
  return html`${table(ctx, frame, t('brand'), body, foot)}
    <p class="hint" id="total-note">${note}</p>
    ${toggle}${downloads(ctx, frame)}${chart(ctx, figures, 'brands', chartLines)}`;
}
