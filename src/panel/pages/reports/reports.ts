import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../../web/html.js';
import { PANEL_PREFIX, type PanelContext, type PanelKit } from '../../panel-kit.js';
import { CSV_PLAIN, CSV_PT_BR, type CsvDialect } from '../../../lib/csv-document.js';
import { brandsCsv, periodInstants, quickPeriods, receiptsCsv } from '../../panel-report.js';
import { reportView } from './report-view.js';

// The two financial reports (receipts by payment method, and by brand), as a page and as two CSVs (the
// plain one, and `-planilha.csv` that a pt-BR spreadsheet opens in columns), through the sales service,
// as GET /v1/api-public/sales/by-payment-method.

type ReportRequest = FastifyRequest<{ Querystring: Record<string, string | undefined> }>;

/** Registers /reports/receipts and /reports/brands, each with its `.csv` and `-planilha.csv`. */
export function registerReportPages(kit: PanelKit): void {
  for (const kind of ['receipts', 'brands'] as const) {
    const path = `/reports/${kind}`;
    kit.page<{ Querystring: Record<string, string | undefined> }>(path, (request, reply, ctx) =>
      report(kit, request, reply, ctx, kind, null),
    );
    kit.page<{ Querystring: Record<string, string | undefined> }>(`${path}.csv`, (request, reply, ctx) =>
      report(kit, request, reply, ctx, kind, CSV_PLAIN),
    );
    kit.page<{ Querystring: Record<string, string | undefined> }>(
      `${path}-planilha.csv`,
      (request, reply, ctx) => report(kit, request, reply, ctx, kind, CSV_PT_BR),
    );
  }
}

async function report(
  kit: PanelKit,
  request: ReportRequest,
  reply: FastifyReply,
  ctx: PanelContext,
  kind: 'receipts' | 'brands',
  /** The CSV's dialect, or null for the page. */
  asCsv: CsvDialect | null,
): Promise<FastifyReply> {
  const { posData, sales, clock } = kit.services;
  const t = ctx.t;
  const title = t(kind === 'receipts' ? 'receiptsTitle' : 'brandsTitle');
  const places = await posData.listPlaces(ctx.user.accountId);
  const q = request.query;
  const place = places.find((p) => p.id === q.place) ?? places[0];
  if (place === undefined)
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        <p>${t('noPlaces')}</p>`,
    );
  const quick = quickPeriods(clock.now());
  const placeId = place.id;
  const events = (await posData.listEvents(ctx.user.accountId, placeId)).slice(0, 200);
  const eventId = q.event !== undefined && events.some((e) => e.id === q.event) ? q.event : null;
  const period = { from: q.from ?? quick.last7.from, to: q.to ?? quick.last7.to };
  const check = periodInstants(period, eventId !== null);

  let outcome: Awaited<ReturnType<typeof sales.byPaymentMethod>> | null = null;
  if (check.ok) {
    // The same service, reader and rounding as GET /v1/api-public/sales/by-payment-method, for the
    // account's every place; not counted among the API's queries in progress (the panel has no key).
    outcome = await sales.byPaymentMethod({
      reach: { account_id: ctx.user.accountId, places: 'all' },
      placeId,
      eventId,
      from: check.from,
      to: check.to,
    });
  }
  const figures = outcome?.ok === true ? outcome.figures : null;
  if (asCsv !== null) {
    if (figures === null) return reply.code(422).type('text/plain; charset=utf-8').send(t('dateInvalid'));
    const suffix = asCsv === CSV_PT_BR ? '-planilha' : '';
    const name = `${kind === 'receipts' ? 'recebimentos' : 'bandeiras'}-${placeId}-${period.from}-${period.to}${suffix}.csv`;
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(kind === 'receipts' ? receiptsCsv(figures, asCsv) : brandsCsv(figures, asCsv));
  }
  const body = reportView(ctx, {
    kind,
    title,
    places,
    place,
    events,
    eventId,
    period,
    quick,
    problem: check.ok ? null : check.problem,
    timedOut: outcome !== null && !outcome.ok,
    figures,
    base: `${PANEL_PREFIX}/reports/${kind}`,
    all: kind === 'brands' && q.all === '1',
  });
  return kit.send(request, reply, ctx, title, body, { charts: figures !== null && figures.data.length > 0 });
}
