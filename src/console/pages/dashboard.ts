import { html, jsonScript } from '../../web/html.js';
import { formatCount, formatShare, formatTimeOfDay } from '../../web/format.js';
import type { ApiTraffic } from '../../observability/traffic.js';
import type { ConsoleKit } from '../console-kit.js';
import { CONSOLE_PREFIX } from '../console-path.js';

// The service's state for the operator (issue 14): requests and refusals by API over the last hour,
// from the service's own counters (the traffic table the whole fleet adds to every 15 s), and the
// health of the database, Redis and this process, asked the way GET /readyz asks.
//
// Routes:
//   GET /console/dashboard   dashboard

/** The APIs drawn as charts: the two the partners and merchants call. The others are in the table. */
const CHARTED = new Set(['helpdesk', 'pos']);

/** Drawn by the console's script: one line chart per canvas, from the JSON beside it. */
export const DASHBOARD_SCRIPT = `
(function () {
  document.querySelectorAll('canvas[data-traffic]').forEach(function (canvas) {
    if (typeof Chart === 'undefined') return;
    var data = JSON.parse(document.getElementById(canvas.getAttribute('data-traffic')).textContent);
    new Chart(canvas, {
      type: 'line',
      data: {
        labels: data.labels,
        datasets: [
          { label: data.requests, data: data.total, borderColor: '#0b5cad', backgroundColor: '#0b5cad', pointRadius: 0, borderWidth: 2 },
          { label: data.refused, data: data.refusedValues, borderColor: '#a4161a', backgroundColor: '#a4161a', pointRadius: 0, borderWidth: 2, borderDash: [6, 3] }
        ]
      },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxTicksLimit: 7 } } }
      }
    });
  });
})();
`;

/** Registers the dashboard. */
export function registerDashboardPages(kit: ConsoleKit): void {
  const { services } = kit;

  kit.page('/dashboard', 'dashboard', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const [hour, health, maintenance] = await Promise.all([
      services.traffic.lastHour(),
      services.health.probe(),
      services.maintenance.get(),
    ]);
    const apiName = (api: string) => t(`dashApi_${api}` as 'dashApi_other');
    const state = (ok: boolean, text: string) =>
      html`<span class="state state-${ok ? 'active' : 'revoked'}">${text}</span>`;
    const answered = (ok: boolean, latencyMs: number, error: string | undefined) =>
      ok
        ? html`${state(true, t('dashOk'))} <span class="help">${t('dashLatency', { ms: latencyMs })}</span>`
        : html`${state(false, t('dashDown'))} <span class="help">${error ?? ''}</span>`;
    const requests = (row: ApiTraffic) => row.totals.answered + row.totals.refused + row.totals.failed;
    const share = (row: ApiTraffic) =>
      requests(row) === 0 ? '—' : formatShare(String((100 * row.totals.refused) / requests(row)), locale);

    const chart = (row: ApiTraffic) => {
      const id = `traffic-${row.api}`;
      const data = {
        labels: row.minutes.map((m) => formatTimeOfDay(m.minute)),
        total: row.minutes.map((m) => m.answered + m.refused + m.failed),
        refusedValues: row.minutes.map((m) => m.refused),
        requests: t('dashRequests'),
        refused: t('dashRefused'),
      };
      const title = t('dashChart', { api: apiName(row.api) });
      return html`<section class="card" aria-labelledby="${id}-title">
        <h3 id="${id}-title">${title}</h3>
        <div class="chart"><canvas data-traffic="${id}-data" role="img" aria-label="${title}"></canvas></div>
        ${jsonScript(`${id}-data`, data)}
        <details>
          <summary>${t('dashPerMinute')}</summary>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">${t('dashMinute')}</th>
                  <th scope="col" class="num">${t('dashRequests')}</th>
                  <th scope="col" class="num">${t('dashRefused')}</th>
                  <th scope="col" class="num">${t('dashFailed')}</th>
                </tr>
              </thead>
              <tbody>
                ${row.minutes
                  .filter((m) => m.answered + m.refused + m.failed > 0)
                  .map(
                    (m) =>
                      html`<tr>
                        <th scope="row">${formatTimeOfDay(m.minute)}</th>
                        <td class="num">${formatCount(m.answered + m.refused + m.failed, locale)}</td>
                        <td class="num">${formatCount(m.refused, locale)}</td>
                        <td class="num">${formatCount(m.failed, locale)}</td>
                      </tr>`,
                  )}
              </tbody>
            </table>
          </div>
        </details>
      </section>`;
    };

    const body = html`<h1>${t('dashTitle')}</h1>
      <h2>${t('dashHealth')}</h2>
      <div class="card">
        <dl>
          <dt>${t('dashDatabase')} (${health.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'})</dt>
          <dd data-health="database">
            ${answered(health.database.ok, health.database.latencyMs, health.database.error)}
          </dd>
          <dt>${t('dashRedis')}</dt>
          <dd data-health="redis">
            ${
              health.redis.configured
                ? answered(health.redis.ok, health.redis.latencyMs, health.redis.error)
                : html`<span class="help">${t('dashNoRedis')}</span>`
            }
          </dd>
          <dt>${t('dashProcess')}</dt>
          <dd>${state(!health.draining, t(health.draining ? 'dashDraining' : 'dashServing'))}</dd>
          <dt>${t('dashMaintenance')}</dt>
          <dd>
            <a href="${CONSOLE_PREFIX}/maintenance"
              >${
                maintenance.enabled
                  ? t('dashMaintenanceOn', { seconds: maintenance.retryAfterSeconds })
                  : t('dashMaintenanceOff')
              }</a
            >
          </dd>
        </dl>
      </div>
      <h2>${t('dashTraffic')}</h2>
      <p class="hint">
        ${t('dashTrafficIntro')}
        ${
          hour.flushedAt === null
            ? t('dashNotFlushed')
            : t('dashFlushedAt', { at: formatTimeOfDay(hour.flushedAt, true) })
        }
      </p>
      <div class="table-wrap">
        <table class="stack" id="traffic">
          <thead>
            <tr>
              <th scope="col">${t('dashApi')}</th>
              <th scope="col" class="num">${t('dashRequests')}</th>
              <th scope="col" class="num">${t('dashRefused')}</th>
              <th scope="col" class="num">${t('dashFailed')}</th>
              <th scope="col" class="num">${t('dashRefusedShare')}</th>
            </tr>
          </thead>
          <tbody>
            ${hour.apis.map(
              (row) =>
                html`<tr data-api="${row.api}">
                  <th scope="row">${apiName(row.api)}</th>
                  <td class="num" data-label="${t('dashRequests')}" data-requests="${requests(row)}">
                    ${formatCount(requests(row), locale)}
                  </td>
                  <td class="num" data-label="${t('dashRefused')}" data-refused="${row.totals.refused}">
                    ${formatCount(row.totals.refused, locale)}
                  </td>
                  <td class="num" data-label="${t('dashFailed')}">
                    ${formatCount(row.totals.failed, locale)}
                  </td>
                  <td class="num" data-label="${t('dashRefusedShare')}">${share(row)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <div class="grid">${hour.apis.filter((row) => CHARTED.has(row.api)).map(chart)}</div>
      <p><a class="button secondary" href="${CONSOLE_PREFIX}/dashboard">${t('dashRefresh')}</a></p>`;
    return kit.send(request, reply, ctx, t('dashTitle'), body, { charts: true });
  });
}
