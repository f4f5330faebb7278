import { Problem } from '../../../errors/problem.js';
import { identifier, accountInput } from '../../../pos/places/pos-data-input.js';
import { formText } from '../../../web/face.js';
import { zodFormErrors, type FormErrors } from '../../../web/form.js';
import type { ConsoleKit } from '../../console-kit.js';
import { accountPath } from './accounts-view.js';
import { formOf, bodyOf, accountFormPage } from './account-form.js';

// A new merchant account (GET, POST /console/accounts/new-account): an id that is taken is refused, where
// the API's PUT would replace the account.

/** Registers the account's creation page. */
export function registerNewAccountPages(kit: ConsoleKit): void {
  const { posData } = kit.services;
  const formPage = accountFormPage(kit);

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
}
