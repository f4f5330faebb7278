import { formatInstant } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import { shownOnceSecret } from '../../../web/shown-once.js';
import type { ConsoleKit } from '../../console-kit.js';
import { identifierOf, systemUrl, targetOf, type Params } from './system-paths.js';
import { durationText, onceTexts, previousValid } from './system-views.js';
import { systemOutcomeValue } from '../../../helpdesk/system-refusal.js';

// Rotating a system's key (the operator): the new key shown once, the current one kept for the system's
// grace period (GET, POST /console/systems/:identifier/rotate).

export function registerRotateKeyPages(kit: ConsoleKit): void {
  const { systems, clock } = kit.services;

  kit.page<Params>('/systems/:identifier/rotate', 'systems', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    const now = clock.now();
    const title = t(system.hasKey ? 'sysRotateTitle' : 'sysIssueTitle', { name: system.name });
    const explained = !system.hasKey
      ? html`<p>${t('sysIssueIntro')}</p>`
      : html`<p>
            ${
              system.keyGraceSeconds === 0
                ? t('sysRotateNoGrace')
                : t('sysRotateIntro', {
                    grace: durationText(t, system.keyGraceSeconds, locale),
                    until: formatInstant(now + system.keyGraceSeconds * 1000, locale),
                  })
            }
          </p>
          ${
            previousValid(system, now)
              ? html`<div class="warning" role="status">
                  ${t('sysRotateEndsPrevious', { until: formatInstant(system.previousValidUntil ?? 0, locale) })}
                </div>`
              : ''
          }`;
    const body = html`<h1>${title}</h1>
      <form method="post" action="${systemUrl(system.identifier, '/rotate')}" class="card">
        ${csrfField(ctx.csrf)} ${explained}
        <p>${t('sysRotateOnce')}</p>
        <div class="actions">
          <button type="submit">${t(system.hasKey ? 'sysRotate' : 'sysIssue')}</button>
          <a href="${systemUrl(system.identifier)}">${t('sysCancel')}</a>
        </div>
      </form>`;
    return kit.send(request, reply, ctx, title, body);
  });

  kit.action<Params>('/systems/:identifier/rotate', 'systems', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    const rotation = systemOutcomeValue(await systems.rotateKey(system.identifier, ctx.actor));
    await kit.record(ctx, {
      action: 'rotateHelpDeskSystemKey',
      target: targetOf(system.identifier, '/keys/rotate'),
      details: {
        request_id: request.id,
        previous_valid_until:
          rotation.previousValidUntil === null ? null : new Date(rotation.previousValidUntil).toISOString(),
      },
    });
    const title = t(system.hasKey ? 'sysRotatedTitle' : 'sysIssuedTitle', { name: system.name });
    const extra =
      rotation.previousValidUntil === null
        ? html`<p>${t('sysIssuedFirst')}</p>`
        : html`<p>
            ${t('sysRotatedPrevious', { until: formatInstant(rotation.previousValidUntil, locale) })}
          </p>`;
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        ${shownOnceSecret(rotation.key, onceTexts(t), extra)}
        <p><a href="${systemUrl(system.identifier)}">${t('sysBackToSystem', { name: system.name })}</a></p>`,
      { status: 201 },
    );
  });
}
