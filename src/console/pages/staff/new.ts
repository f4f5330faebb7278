import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../../../errors/problem.js';
import { STAFF_ROLES, staffUserInput } from '../../../staff/staff-user-input.js';
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
import { ROLE_NAME, roleSentence, staffReplies } from './staff-views.js';

// A new staff user: their e-mail, name and role; the answer shows their set-password link once
// (GET, POST /console/staff/new).

export function registerNewStaffUserPages(kit: ConsoleKit): void {
  const { staffUsers } = kit.services;
  const { sendLink } = staffReplies(kit);

  interface NewUserForm {
    email: string;
    name: string;
    role: string;
  }

  const sendNewUserForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    values: NewUserForm,
    errors: FormErrors,
    status = 200,
  ) => {
    const { t, locale } = ctx;
    const labels = { email: t('staffFieldEmail'), name: t('staffFieldName'), role: t('staffFieldRole') };
    const roleError = errors.role;
    const body = html`<h1>${t('staffNewTitle')}</h1>
      <p>${t('staffNewIntro')}</p>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form method="post" action="${CONSOLE_PREFIX}/staff/new" class="card">
        ${csrfField(ctx.csrf)}
        ${textField({
          name: 'email',
          label: labels.email,
          type: 'email',
          value: values.email,
          hint: t('staffFieldEmailHint'),
          error: errors.email,
          autocomplete: 'off',
          required: true,
        })}
        ${textField({
          name: 'name',
          label: labels.name,
          value: values.name,
          hint: t('staffFieldNameHint'),
          error: errors.name,
          autocomplete: 'off',
          required: true,
        })}
        <fieldset id="field-role" ${roleError === undefined ? '' : html` aria-describedby="error-role"`}>
          <legend>${labels.role}</legend>
          ${STAFF_ROLES.map(
            (role) =>
              html`<div class="choice">
                <label for="field-role-${role}"
                  ><input
                    type="radio"
                    id="field-role-${role}"
                    name="role"
                    value="${role}"
                    aria-describedby="hint-role-${role}"
                    ${values.role === role ? html` checked` : ''}
                  />
                  ${t(ROLE_NAME[role])}</label
                >
                <p class="hint" id="hint-role-${role}">${roleSentence(t, locale, role)}</p>
              </div>`,
          )}
          ${roleError === undefined ? '' : html`<p class="field-error" id="error-role">${roleError}</p>`}
        </fieldset>
        <div class="actions">
          <button type="submit">${t('staffCreateButton')}</button>
          <a href="${CONSOLE_PREFIX}/staff">${t('staffCancel')}</a>
        </div>
      </form>`;
    return kit.send(request, reply, ctx, t('staffNewTitle'), body, { status });
  };

  kit.page('/staff/new', 'staff', async (request, reply, ctx) =>
    // Support by default: the role with the fewer abilities is the one to widen on purpose.
    sendNewUserForm(request, reply, ctx, { email: '', name: '', role: 'support' }, {}),
  );

  kit.action<{ Body: Record<string, unknown> }>('/staff/new', 'staff', async (request, reply, ctx) => {
    const values: NewUserForm = {
      email: formText(request.body.email),
      name: formText(request.body.name),
      role: formText(request.body.role),
    };
    const parsed = staffUserInput.safeParse({
      email: values.email,
      name: values.name,
      role: values.role === '' ? undefined : values.role,
    });
    if (!parsed.success) {
      return sendNewUserForm(request, reply, ctx, values, zodFormErrors(parsed.error), 422);
    }
    try {
      const { user, link } = await staffUsers.create(parsed.data, ctx.actor);
      return await sendLink(request, reply, ctx, ctx.t('staffCreatedTitle', { name: user.name }), user, link);
    } catch (error) {
      if (error instanceof Problem && error.status === 409) {
        return sendNewUserForm(request, reply, ctx, values, { email: ctx.t('staffEmailTaken') }, 409);
      }
      const errors = problemFormErrors(error);
      if (errors === null) throw error;
      return sendNewUserForm(request, reply, ctx, values, errors, 422);
    }
  });
}
