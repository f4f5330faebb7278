import { accountInput } from '../../../pos/places/pos-data-input.js';
import { problemFormErrors, zodFormErrors } from '../../../web/form.js';
import type { ConsoleKit } from '../../console-kit.js';
import { accountPath } from './accounts-view.js';
import { formOf, bodyOf, accountFormPage } from './account-form.js';

// A merchant account's settings (GET, POST /console/accounts/:account/edit).

/** Registers the account's edit page. */
export function registerAccountEditPages(kit: ConsoleKit): void {
  const { posData } = kit.services;
  const formPage = accountFormPage(kit);

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
