import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PosAccount } from '../../../pos/places/account-repository.js';
import { formText } from '../../../web/face.js';
import { checkboxField, errorSummary, textField, type FormErrors } from '../../../web/form.js';
import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { accountHref } from './accounts-view.js';

// The form of a merchant's account, created or changed by the operator (routes: index.ts): the admin
// API's PUT body (src/pos/places/pos-data-input.ts) checked by its own schema, written through the same
// service, and recorded in the back-office log as `putPosAccount`. Creating refuses an id that is taken,
// where the API's PUT would replace the account: a form named "new account" must not overwrite one.

/** What the form holds, as typed. */
export interface AccountForm {
  id: string;
  name: string;
  email: string;
  currency: string;
  active: boolean;
}

export function formOf(body: Record<string, unknown>, id: string): AccountForm {
  return {
    id,
    name: formText(body.name),
    email: formText(body.email),
    currency: formText(body.currency),
    active: body.active === 'true',
  };
}

/** The admin API's body of the form: an empty e-mail is none (no e-mail is sent to the merchant). */
export function bodyOf(form: AccountForm) {
  const email = form.email.trim();
  return {
    name: form.name,
    email: email === '' ? null : email,
    currency: form.currency,
    active: form.active,
  };
}

/** The account form's page (GET and refused POST), for this kit. */
export function accountFormPage(kit: ConsoleKit) {
  return (
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
}
