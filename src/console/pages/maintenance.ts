import type { FastifyReply, FastifyRequest } from 'fastify';
import { maintenanceInput } from '../../helpdesk/maintenance-input.js';
import type { Maintenance } from '../../helpdesk/maintenance-switch.js';
import { formText } from '../../web/face.js';
import {
  errorSummary,
  formInteger,
  formIssues,
  textField,
  zodFormErrors,
  type FormErrors,
} from '../../web/form.js';
import { html } from '../../web/html.js';
import { csrfField } from '../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../console-kit.js';
import { CONSOLE_PREFIX } from '../console-path.js';

// The ticket API's maintenance switch for the operator (issue 14; docs/admin-rules.md, Help desk:
// maintenance): while it is on, every call of the partners' ticket API answers 503 temporarily_unavailable
// with its Retry-After (docs/ticket-api.md, Errors). The form is checked by the admin API's schema and the
// switch set through the same service, recorded under the admin API's operation id. Switching it on
// stops every partner, so it asks first on a page saying so; switching it off or changing the wait of a
// switch already on does not.
//
// Routes (ability `maintenance`, the operator's):
//   GET  /console/maintenance   the switch's state, and the forms to switch it on, off, or change the wait
//   POST /console/maintenance   switches it (putHelpDeskMaintenance); switching on asks to confirm first

/** Registers the maintenance switch's page. */
export function registerMaintenancePages(kit: ConsoleKit): void {
  const { services } = kit;

  /** The switch's page: its state, and the forms of what can be done from it. */
  function sendPage(
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    current: Maintenance,
    seconds: string,
    errors: FormErrors = {},
    status = 200,
  ): FastifyReply {
    const { t } = ctx;
    const labels = { retry_after_seconds: t('maintRetryAfter') };
    const secondsField = textField({
      name: 'retry_after_seconds',
      label: labels.retry_after_seconds,
      value: seconds,
      hint: t('maintRetryHint'),
      error: errors.retry_after_seconds,
      inputmode: 'numeric',
    });
    const action = `${CONSOLE_PREFIX}/maintenance`;
    const forms = current.enabled
      ? html`<h2>${t('maintSwitchOff')}</h2>
          <form method="post" action="${action}" class="card">
            ${csrfField(ctx.csrf)}
            <input type="hidden" name="enabled" value="false" />
            <p>${t('maintSwitchOffText')}</p>
            <div class="actions">
              <button type="submit">${t('maintSwitchOffButton')}</button>
            </div>
          </form>
          <h2>${t('maintChange')}</h2>
          <form method="post" action="${action}" class="card">
            ${csrfField(ctx.csrf)}
            <input type="hidden" name="enabled" value="true" />
            ${secondsField}
            <div class="actions">
              <button type="submit" class="secondary">${t('maintChangeButton')}</button>
            </div>
          </form>`
      : html`<h2>${t('maintSwitchOn')}</h2>
          <form method="post" action="${action}" class="card">
            ${csrfField(ctx.csrf)}
            <input type="hidden" name="enabled" value="true" />
            ${secondsField}
            <div class="actions">
              <button type="submit">${t('maintSwitchOnButton')}</button>
            </div>
          </form>`;
    const body = html`<h1>${t('maintTitle')}</h1>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <div class="card">
        <dl>
          <dt>${t('maintState')}</dt>
          <dd data-maintenance="${current.enabled ? 'on' : 'off'}">
            <span class="state state-${current.enabled ? 'revoked' : 'active'}"
              >${t(current.enabled ? 'maintOnShort' : 'maintOffShort')}</span
            >
            <span class="help"
              >${current.enabled ? t('maintOn', { seconds: current.retryAfterSeconds }) : t('maintOff')}</span
            >
          </dd>
        </dl>
      </div>
      <p>${t('maintExplain')}</p>
      <p class="hint">${t('maintFleet')}</p>
      ${forms}`;
    return kit.send(request, reply, ctx, t('maintTitle'), body, { status });
  }

  kit.page('/maintenance', 'maintenance', async (request, reply, ctx) => {
    const current = await services.maintenance.get();
    return sendPage(request, reply, ctx, current, String(current.retryAfterSeconds));
  });

  kit.action<{ Body: Record<string, unknown> }>(
    '/maintenance',
    'maintenance',
    async (request, reply, ctx) => {
      const { t } = ctx;
      const current = await services.maintenance.get();
      const enabledText = formText(request.body.enabled);
      const secondsText = formText(request.body.retry_after_seconds);
      // Switching off keeps the wait set before, as the switch stores it, when the form sends none.
      const parsed = maintenanceInput.safeParse(
        {
          enabled: enabledText === 'true' ? true : enabledText === 'false' ? false : enabledText,
          retry_after_seconds:
            enabledText === 'false' && secondsText === ''
              ? current.retryAfterSeconds
              : formInteger(secondsText),
        },
        { error: formIssues },
      );
      if (!parsed.success) {
        return sendPage(request, reply, ctx, current, secondsText, zodFormErrors(parsed.error), 422);
      }
      const next = { enabled: parsed.data.enabled, retryAfterSeconds: parsed.data.retry_after_seconds };

      if (next.enabled && !current.enabled && formText(request.body.confirm) !== 'yes') {
        const title = t('maintConfirmTitle');
        const body = html`<h1>${title}</h1>
          <form method="post" action="${CONSOLE_PREFIX}/maintenance" class="card">
            ${csrfField(ctx.csrf)}
            <input type="hidden" name="enabled" value="true" />
            <input type="hidden" name="retry_after_seconds" value="${next.retryAfterSeconds}" />
            <input type="hidden" name="confirm" value="yes" />
            <div class="warning">
              <p>${t('maintConfirmText', { seconds: next.retryAfterSeconds })}</p>
            </div>
            <div class="actions">
              <button type="submit" class="danger">${t('maintConfirmButton')}</button>
              <a href="${CONSOLE_PREFIX}/maintenance">${t('catCancel')}</a>
            </div>
          </form>`;
        return kit.send(request, reply, ctx, title, body);
      }

      await services.maintenance.set(next);
      await kit.record(ctx, {
        action: 'putHelpDeskMaintenance',
        target: 'helpdesk/maintenance',
        details: {
          body: parsed.data,
          previous: { enabled: current.enabled, retry_after_seconds: current.retryAfterSeconds },
        },
      });
      kit.flash(
        request,
        next.enabled ? t('maintDoneOn', { seconds: next.retryAfterSeconds }) : t('maintDoneOff'),
      );
      return kit.redirect(reply, '/maintenance');
    },
  );
}
