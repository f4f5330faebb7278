import { SCOPES, type Scope } from '../../../helpdesk/system-scopes.js';
import { formatCount, formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { historyTable } from './history-view.js';
import { identifierOf, systemUrl, type Params } from './system-paths.js';
import {
  activeText,
  categoryName,
  categoryNames,
  durationText,
  instantOr,
  keyStateText,
  previousValid,
  SCOPE_LABELS,
} from './system-views.js';

// One system (GET /console/systems/:identifier): its settings, its key's state and history, and the
// links and buttons the user's role allows.

/** How many events of the key's history the system's page shows. */
const HISTORY_SHOWN = 50;

export function registerSystemPage(kit: ConsoleKit): void {
  const { systems, catalog, keyAudit, clock } = kit.services;

  kit.page<Params>('/systems/:identifier', 'read', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    const [names, history] = await Promise.all([
      categoryNames(catalog),
      keyAudit.ofSystem(system.identifier, { limit: HISTORY_SHOWN }),
    ]);
    const now = clock.now();
    const stoppable = previousValid(system, now);
    const group = (label: string, actions: SafeHtml[]) =>
      actions.length === 0
        ? ''
        : html`<div class="actions" role="group" aria-label="${label}">${actions}</div>`;
    const settingsActions = ctx.can('systems')
      ? [
          html`<a class="button secondary" href="${systemUrl(system.identifier, '/edit')}"
            >${t('sysEdit')}</a
          >`,
          html`<a
            class="button secondary"
            href="${systemUrl(system.identifier, system.active ? '/deactivate' : '/reactivate')}"
            >${t(system.active ? 'sysDeactivate' : 'sysReactivate')}</a
          >`,
        ]
      : [];
    const keyActions = [
      ...(stoppable && ctx.can('stopPreviousKey')
        ? [
            html`<a class="button secondary" href="${systemUrl(system.identifier, '/stop-previous')}"
              >${t('sysStopPrevious')}</a
            >`,
          ]
        : []),
      ...(ctx.can('systems')
        ? [
            html`<a class="button secondary" href="${systemUrl(system.identifier, '/rotate')}"
              >${t(system.hasKey ? 'sysRotate' : 'sysIssue')}</a
            >`,
          ]
        : []),
    ];
    const released =
      system.releasedCategoryIds.length === 0
        ? t('sysNoReleased')
        : html`<ul class="plain">
            ${system.releasedCategoryIds.map((id) => html`<li>${categoryName(names, id)}</li>`)}
          </ul>`;
    const links = [
      ctx.can('readRefusals')
        ? html`<li><a href="${systemUrl(system.identifier, '/refusals')}">${t('sysRefusalsLink')}</a></li>`
        : '',
      ctx.can('readTickets')
        ? html`<li><a href="${systemUrl(system.identifier, '/tickets')}">${t('sysTicketsLink')}</a></li>`
        : '',
    ];
    const body = html`<p class="crumbs"><a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a></p>
      <h1>${t('sysSystemTitle', { name: system.name })}</h1>
      <ul class="subnav">
        ${links}
      </ul>
      <h2>${t('sysSettings')}</h2>
      <div class="card">
        <dl>
          <dt>${t('colIdentifier')}</dt>
          <dd><code>${system.identifier}</code></dd>
          <dt>${t('colState')}</dt>
          <dd>${activeText(t, system.active)}</dd>
          <dt>${t('sysScopes')}</dt>
          <dd>
            ${
              system.scopes.length === 0
                ? t('sysNoScopes')
                : system.scopes.map(
                    (scope) =>
                      html`<span class="tag"
                        >${(SCOPES as readonly string[]).includes(scope) ? t(SCOPE_LABELS[scope as Scope]) : scope}
                        (<code>${scope}</code>)</span
                      >`,
                  )
            }
          </dd>
          <dt>${t('sysRate')}</dt>
          <dd>${t('sysPerMinute', { n: formatCount(system.rateLimitPerMinute, locale) })}</dd>
          <dt>${t('sysGrace')}</dt>
          <dd>${durationText(t, system.keyGraceSeconds, locale)}</dd>
          <dt>${t('sysDefaultCategory')}</dt>
          <dd>
            ${
              system.defaultCategoryId === null
                ? t('sysNoDefaultCategory')
                : categoryName(names, system.defaultCategoryId)
            }
          </dd>
          <dt>${t('sysReleasedCategories')}</dt>
          <dd>${released}</dd>
          <dt>${t('sysCreatedAt')}</dt>
          <dd>${formatInstant(system.createdAt, locale)}</dd>
          <dt>${t('sysUpdatedAt')}</dt>
          <dd>${formatInstant(system.updatedAt, locale)}</dd>
        </dl>
        ${group(t('sysSettingsActions'), settingsActions)}
      </div>
      <h2>${t('sysKeyTitle')}</h2>
      <div class="card">
        <dl>
          <dt>${t('sysKey')}</dt>
          <dd data-key-state>${keyStateText(t, system, now, locale)}</dd>
          <dt>${t('sysLastUse')}</dt>
          <dd>${system.hasKey ? instantOr(system.keyLastUsedAt, locale, t('neverUsed')) : '—'}</dd>
          ${
            stoppable
              ? html`<dt>${t('sysPreviousLastUse')}</dt>
                  <dd>${instantOr(system.previousKeyLastUsedAt, locale, t('neverUsed'))}</dd>`
              : ''
          }
        </dl>
        <p class="hint">${t('sysKeyNever')}</p>
        ${group(t('sysKeyActions'), keyActions)}
      </div>
      <h2>${t('sysHistory')}</h2>
      ${historyTable(t, locale, history.events)}`;
    return kit.send(request, reply, ctx, t('sysSystemTitle', { name: system.name }), body);
  });
}
