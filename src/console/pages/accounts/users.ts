import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../../../errors/problem.js';
import type { PosAccount } from '../../../pos/places/account-repository.js';
import { userInviteInput } from '../../../pos/users/merchant-user-service.js';
import { formText } from '../../../web/face.js';
import {
  errorSummary,
  problemFormErrors,
  textField,
  zodFormErrors,
  type FormErrors,
} from '../../../web/form.js';
import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { accountHref, accountPath, instantText } from './accounts-view.js';

// The people of a merchant account who sign in to the merchant panel, for the operator (routes:
// index.ts): the list (active, or invited and not yet accepted) and the invitation, through the same
// service as the admin API's POST users: the e-mail with its one-time link goes out through the outbox,
// and the change is recorded in the back-office log as `inviteMerchantUser`. The link is never shown.

interface AccountParams {
  Params: { account: string };
}

/** Registers the merchant users page. */
export function registerAccountUserPages(kit: ConsoleKit): void {
  const { posData, merchantUsers } = kit.services;

  const usersPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    account: PosAccount,
    values: { email: string; name: string },
    errors: FormErrors,
    status = 200,
  ) => {
    const { t, locale } = ctx;
    const users = await merchantUsers.list(account.id);
    const labels = { email: t('email'), name: t('colName') };
    const title = t('accUsersTitle', { name: account.name });
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> ›
        <a href="${accountHref(account.id)}">${account.name}</a>
      </p>
      <h1>${title}</h1>
      ${
        users.length === 0
          ? html`<p>${t('accUsersEmpty')}</p>`
          : html`<div class="table-wrap">
              <table class="stack" id="users">
                <thead>
                  <tr>
                    <th scope="col">${t('colName')}</th>
                    <th scope="col">${t('email')}</th>
                    <th scope="col">${t('colState')}</th>
                    <th scope="col">${t('accInvitedAt')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${users.map(
                    (user) =>
                      html`<tr data-user="${user.email}">
                        <td data-label="${t('colName')}">${user.name}</td>
                        <td data-label="${t('email')}">${user.email}</td>
                        <td data-label="${t('colState')}">
                          <span class="state state-${user.active ? 'active' : 'paused'}"
                            >${t(user.active ? 'accUserActive' : 'accUserPending')}</span
                          >
                        </td>
                        <td data-label="${t('accInvitedAt')}">${instantText(user.createdAt, locale)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <h2 id="invite-title">${t('accInviteTitle')}</h2>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form
        method="post"
        action="${accountHref(account.id, '/users')}"
        class="card"
        aria-labelledby="invite-title"
        novalidate
      >
        ${csrfField(ctx.csrf)}
        <p>${t('accInviteIntro')}</p>
        ${textField({
          name: 'email',
          label: labels.email,
          type: 'email',
          value: values.email,
          error: errors.email,
          autocomplete: 'off',
          required: true,
        })}
        ${textField({
          name: 'name',
          label: labels.name,
          value: values.name,
          hint: t('accInviteNameHint'),
          error: errors.name,
          required: true,
        })}
        <div class="actions"><button type="submit">${t('accInviteButton')}</button></div>
      </form>
      <p><a href="${accountHref(account.id)}">${t('accBackToAccount', { name: account.name })}</a></p>`;
    return kit.send(request, reply, ctx, title, body, { status });
  };

  kit.page<AccountParams>('/accounts/:account/users', 'merchants', async (request, reply, ctx) => {
    const account = await posData.account(request.params.account);
    return usersPage(request, reply, ctx, account, { email: '', name: '' }, {});
  });

  kit.action<AccountParams & { Body: Record<string, unknown> }>(
    '/accounts/:account/users',
    'merchants',
    async (request, reply, ctx) => {
      const account = await posData.account(request.params.account);
      const values = { email: formText(request.body.email), name: formText(request.body.name) };
      const parsed = userInviteInput.safeParse(values);
      if (!parsed.success) {
        return usersPage(request, reply, ctx, account, values, zodFormErrors(parsed.error), 422);
      }
      try {
        const { user, expiresAt } = await merchantUsers.invite(account.id, parsed.data);
        await kit.record(ctx, {
          action: 'inviteMerchantUser',
          target: `pos/accounts/${account.id}/users`,
          details: { id: user.id, body: parsed.data },
        });
        const until = instantText(expiresAt, ctx.locale);
        kit.flash(request, ctx.t('accInvited', { email: user.email, until }));
        return await kit.redirect(reply, accountPath(account.id, '/users'));
      } catch (error) {
        // A user who accepted already (409), or input the service refuses (422): shown on the form.
        const errors =
          error instanceof Problem && error.status === 409
            ? { email: error.detail }
            : problemFormErrors(error);
        if (errors === null) throw error;
        return usersPage(
          request,
          reply,
          ctx,
          account,
          values,
          errors,
          error instanceof Problem ? error.status : 422,
        );
      }
    },
  );
}
