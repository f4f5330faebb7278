import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../../errors/problem.js';
import type { PosAccount } from '../../pos/places/account-repository.js';
import { accountInput, identifier } from '../../pos/places/pos-data-input.js';
import { formText } from '../../web/face.js';
import {
  checkboxField,
  errorSummary,
  problemFormErrors,
  textField,
  zodFormErrors,
  type FormErrors,
} from '../../web/form.js';
import { html } from '../../web/html.js';
import { csrfField } from '../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../console-kit.js';
import { CONSOLE_PREFIX } from '../console-path.js';
import { accountHref, accountPath } from './accounts-view.js';

// A merchant's account, created or changed by the operator (routes: accounts.ts): the admin API's PUT
// body (src/pos/places/pos-data-input.ts) checked by its own schema, written through the same service, and
// recorded in the back-office log as `putPosAccount`. Creating refuses an id that is taken, where the
// API's PUT would replace the account: a form named "new account" must not overwrite one.

/** What the form holds, as typed. */
interface AccountForm {
  id: string;
  name: string;
  email: string;
  currency: string;
  active: boolean;
}

function formOf(body: Record<string, unknown>, id: string): AccountForm {
  return {
    id,
    name: formText(body.name),
    email: formText(body.email),
    currency: formText(body.currency),
    active: body.active === 'true',
  };
}

/** The admin API's body of the form: an empty e-mail is none (no e-mail is sent to the merchant). */
function bodyOf(form: AccountForm) {
  const email = form.email.trim();
  return {
    name: form.name,
    email: email === '' ? null : email,
    currency: form.currency,
    active: form.active,
  };
}

/** Registers the account's creation and edit pages. */
export function registerAccountEditPages(kit: ConsoleKit): void {
  const { posData } = kit.services;

  const formPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    account: PosAccount | null,
    values: AccountForm,
    errors: FormErrors,
    status = 200,
  ) => {
    const { t } = ctx;
    const labels = {
      id: t('colIdentifier'),
      name: t('colName'),
      email: t('email'),
      currency: t('accCurrency'),
      active: t('accActiveLabel'),
    };
    const title = account === null ? t('accNewTitle') : t('accEditTitle', { name: account.name });
    const action =
      account === null ? `${CONSOLE_PREFIX}/accounts/new-account` : accountHref(account.id, '/edit');
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a>
        ${account === null ? '' : html` › <a href="${accountHref(account.id)}">${account.name}</a>`}
      </p>
      <h1>${title}</h1>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form method="post" action="${action}" class="card" novalidate>
        ${csrfField(ctx.csrf)}
        ${
          account === null
            ? textField({
                name: 'id',
                label: labels.id,
                value: values.id,
                hint: t('accIdHint'),
                error: errors.id,
                required: true,
              })
            : html`<p>${labels.id}: <span class="mono">${account.id}</span></p>`
        }
        ${textField({
          name: 'name',
          label: labels.name,
          value: values.name,
          hint: t('accNameHint'),
          error: errors.name,
          required: true,
        })}
        ${textField({
          name: 'email',
          label: labels.email,
          type: 'email',
          value: values.email,
          hint: t('accEmailHint'),
          error: errors.email,
          autocomplete: 'off',
        })}
        ${textField({
          name: 'currency',
          label: labels.currency,
          value: values.currency,
          hint: t('accCurrencyHint'),
          error: errors.currency,
          required: true,
        })}
        ${checkboxField({
          name: 'active',
          label: labels.active,
          checked: values.active,
          hint: t('accActiveHint'),
          error: errors.active,
        })}
        <div class="actions">
          <button type="submit">${account === null ? t('accCreateButton') : t('accSaveButton')}</button>
          <a href="${account === null ? `${CONSOLE_PREFIX}/accounts` : accountHref(account.id)}"
            >${t('accCancel')}</a
          >
        </div>
      </form>`;
    return kit.send(request, reply, ctx, title, body, { status });
  };

  kit.page('/accounts/new-account', 'merchants', async (request, reply, ctx) =>
    formPage(request, reply, ctx, null, { id: '', name: '', email: '', currency: 'BRL', active: true }, {}),
  );

  kit.action<{ Body: Record<string, unknown> }>(
    '/accounts/new-account',
    'merchants',
    async (request, reply, ctx) => {
      const values = formOf(request.body, formText(request.body.id).trim());
      const id = identifier.safeParse(values.id);
      const parsed = accountInput.safeParse(bodyOf(values));
      const errors: FormErrors = {
        ...(id.success ? {} : { id: id.error.issues[0]?.message ?? '' }),
        ...(parsed.success ? {} : zodFormErrors(parsed.error)),
      };
      if (!id.success || !parsed.success) return formPage(request, reply, ctx, null, values, errors, 422);
      const taken = await posData.account(id.data).then(
        () => true,
        (error: unknown) => {
          if (error instanceof Problem && error.status === 404) return false;
          throw error;
        },
      );
      if (taken) {
        const errors = { id: ctx.t('accIdTaken', { id: id.data }) };
        return formPage(request, reply, ctx, null, values, errors, 409);
      }
      const { account } = await posData.putAccount(id.data, parsed.data);
      await kit.record(ctx, {
        action: 'putPosAccount',
        target: `pos/accounts/${account.id}`,
        details: { created: true, body: { ...parsed.data } },
      });
      kit.flash(request, ctx.t('accCreated', { name: account.name }));
      return kit.redirect(reply, accountPath(account.id));
    },
  );

  kit.page<{ Params: { account: string } }>(
    '/accounts/:account/edit',
    'merchants',
    async (request, reply, ctx) => {
      const account = await posData.account(request.params.account);
      const values = {
        id: account.id,
        name: account.name,
        email: account.email ?? '',
        currency: account.currency,
        active: account.active,
      };
      return formPage(request, reply, ctx, account, values, {});
    },
  );

  kit.action<{ Params: { account: string }; Body: Record<string, unknown> }>(
    '/accounts/:account/edit',
    'merchants',
    async (request, reply, ctx) => {
      const account = await posData.account(request.params.account);
      const values = formOf(request.body, account.id);
      const parsed = accountInput.safeParse(bodyOf(values));
      if (!parsed.success) {
        return formPage(request, reply, ctx, account, values, zodFormErrors(parsed.error), 422);
      }
      try {
        const { account: saved } = await posData.putAccount(account.id, parsed.data);
        await kit.record(ctx, {
          action: 'putPosAccount',
          target: `pos/accounts/${saved.id}`,
          details: { created: false, body: { ...parsed.data } },
        });
        kit.flash(request, ctx.t('accSaved', { name: saved.name }));
        return await kit.redirect(reply, accountPath(saved.id));
      } catch (error) {
        const errors = problemFormErrors(error);
        if (errors === null) throw error;
        return formPage(request, reply, ctx, account, values, errors, 422);
      }
    },
  );
}
