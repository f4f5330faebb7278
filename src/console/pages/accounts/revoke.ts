import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { keyRevokeReason } from '../../../pos/keys/merchant-key-input.js';
import { keyOutcomeValue } from '../../../pos/keys/merchant-key-problem.js';
import { formText } from '../../../web/face.js';
import { errorSummary, textField, zodFormErrors, type FormErrors } from '../../../web/form.js';
import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { accountHref, keyPath, type KeyParams } from './accounts-view.js';

// Revoking a leaked key with a reason kept in the key audit trail (support and operator)
// (GET, POST /console/accounts/:account/keys/:id/revoke).

/** The revocation's form: the reason is required here, and kept in the key's audit event. */
const revokeForm = z.strictObject({ reason: keyRevokeReason });
export function registerRevokePages(kit: ConsoleKit): void {
  const { services } = kit;
  const { posData, merchantKeys } = services;

  const revokePage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    params: KeyParams['Params'],
    form: { reason: string; errors: FormErrors; status?: number },
  ) => {
    const { t } = ctx;
    const account = await posData.account(params.account);
    const key = await merchantKeys.get(account.id, params.id);
    if (key.state === 'revoked') {
      kit.flash(request, t('accAlreadyRevoked', { name: key.name }));
      return kit.redirect(reply, keyPath(account.id, key.id));
    }
    const labels = { reason: t('accReason') };
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> ›
        <a href="${accountHref(account.id)}">${account.name}</a> ›
        <a href="${CONSOLE_PREFIX}${keyPath(account.id, key.id)}">${key.name}</a>
      </p>
      <h1>${t('accRevokeTitle', { name: key.name, account: account.name })}</h1>
      ${errorSummary(t('errorsTitle'), form.errors, labels)}
      <form method="post" action="${CONSOLE_PREFIX}${keyPath(account.id, key.id, '/revoke')}" class="card">
        ${csrfField(ctx.csrf)}
        <p>${t('accRevokeIntro', { name: key.name })}</p>
        ${textField({
          name: 'reason',
          label: labels.reason,
          value: form.reason,
          rows: 4,
          hint: t('accReasonHint', { max: 500 }),
          error: form.errors.reason,
          required: true,
        })}
        <div class="actions">
          <button type="submit" class="danger">${t('accRevokeConfirm', { name: key.name })}</button>
          <a href="${CONSOLE_PREFIX}${keyPath(account.id, key.id)}">${t('accCancel')}</a>
        </div>
      </form>`;
    return kit.send(request, reply, ctx, t('accRevoke'), body, { status: form.status ?? 200 });
  };

  kit.page<KeyParams>('/accounts/:account/keys/:id/revoke', 'revokeMerchantKey', (request, reply, ctx) =>
    revokePage(request, reply, ctx, request.params, { reason: '', errors: {} }),
  );

  kit.action<KeyParams & { Body: Record<string, unknown> }>(
    '/accounts/:account/keys/:id/revoke',
    'revokeMerchantKey',
    async (request, reply, ctx) => {
      const { t } = ctx;
      const reason = formText(request.body.reason);
      const parsed = revokeForm.safeParse({ reason });
      if (!parsed.success) {
        const errors = zodFormErrors(parsed.error);
        return revokePage(request, reply, ctx, request.params, { reason, errors, status: 422 });
      }
      const account = await posData.account(request.params.account);
      const before = await merchantKeys.get(account.id, request.params.id);
      if (before.state === 'revoked') {
        kit.flash(request, t('accAlreadyRevoked', { name: before.name }));
        return kit.redirect(reply, keyPath(account.id, before.id));
      }
      const { key } = keyOutcomeValue(
        await merchantKeys.revoke(account.id, before.id, ctx.actor, parsed.data),
      );
      await kit.record(ctx, {
        action: 'revokeMerchantKey',
        target: `pos/accounts/${account.id}/keys/${key.id}/revoke`,
        details: { reason: parsed.data.reason },
      });
      kit.flash(request, t('accRevoked', { name: key.name }));
      return kit.redirect(reply, keyPath(account.id, key.id));
    },
  );
}
