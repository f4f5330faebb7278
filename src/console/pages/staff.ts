import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BackOfficeAction } from '../../audit/back-office-log.js';
import { backOfficeQueryInput } from '../../audit/back-office-log-view.js';
import { Problem } from '../../errors/problem.js';
import { notFound } from '../../errors/refusals.js';
import { STAFF_ROLES, staffUserInput, type StaffRole } from '../../staff/staff-user-input.js';
import type { StaffPasswordLink, StaffUser } from '../../staff/staff-user-service.js';
import { formText } from '../../web/face.js';
import {
  errorSummary,
  problemFormErrors,
  selectField,
  textField,
  zodFormErrors,
  type FormErrors,
} from '../../web/form.js';
import { formatInstant } from '../../web/format.js';
import { html, type SafeHtml } from '../../web/html.js';
import type { Locale } from '../../web/i18n.js';
import { csrfField } from '../../web/layout.js';
import { shownOnceSecret } from '../../web/shown-once.js';
import { dataTable } from '../../web/table.js';
import { actorText, channelText } from '../actor-text.js';
import { ROLE_ABILITIES, type ConsoleAbility } from '../console-gate.js';
import type { ConsoleKit, StaffContext } from '../console-kit.js';
import type { ConsoleMessage } from '../console-messages.js';
import { CONSOLE_PREFIX } from '../console-path.js';

// The operator's staff users and the back-office action log (issue 14), the operator's only (ability
// `staff`). Changes go through the staff user service, the admin API's, which writes each one to the
// back-office log in its own transaction with the signed-in operator as actor: these pages record
// nothing themselves. A set-password link is shown once, on the answer to the post that made it.
//
// Routes:
//   GET  /console/staff                staff     the staff users
//   GET  /console/staff/new            staff     the new user form
//   POST /console/staff/new            staff     creates the user; answers with their link, shown once
//   GET  /console/staff/:id/link       staff     confirmation of a fresh link
//   POST /console/staff/:id/link       staff     issues it; answers with the link, shown once
//   GET  /console/staff/:id/disable    staff     confirmation of disabling the user
//   POST /console/staff/:id/disable    staff     disables them (not oneself; not the last operator)
//   GET  /console/activity             staff     the back-office action log, newest first

type T = StaffContext['t'];

const staffUrl = (id: string, action: 'link' | 'disable') =>
  `${CONSOLE_PREFIX}/staff/${encodeURIComponent(id)}/${action}`;

/** The gate's phrase for each ability: what the new user form says a role may do. */
const ABILITY_TEXT: Readonly<Record<ConsoleAbility, ConsoleMessage>> = {
  read: 'staffAbility_read',
  readTickets: 'staffAbility_readTickets',
  readRefusals: 'staffAbility_readRefusals',
  stopPreviousKey: 'staffAbility_stopPreviousKey',
  revokeMerchantKey: 'staffAbility_revokeMerchantKey',
  catalog: 'staffAbility_catalog',
  systems: 'staffAbility_systems',
  maintenance: 'staffAbility_maintenance',
  merchants: 'staffAbility_merchants',
  receipts: 'staffAbility_receipts',
  dashboard: 'staffAbility_dashboard',
  staff: 'staffAbility_staff',
};

const ROLE_NAME: Readonly<Record<StaffRole, ConsoleMessage>> = {
  operator: 'staffRole_operator',
  support: 'staffRole_support',
};

/**
 * What a role may do, read from the gate table: a role whose abilities include all of another's says
 * "everything that one may, and also" its own.
 */
export function roleSentence(t: T, locale: Locale, role: StaffRole): string {
  const mine = ROLE_ABILITIES[role];
  const lesser = STAFF_ROLES.find(
    (other) =>
      other !== role &&
      ROLE_ABILITIES[other].size < mine.size &&
      [...ROLE_ABILITIES[other]].every((ability) => mine.has(ability)),
  );
  const own = [...mine].filter((ability) => lesser === undefined || !ROLE_ABILITIES[lesser].has(ability));
  const abilities = new Intl.ListFormat(locale, { type: 'conjunction' }).format(
    own.map((ability) => t(ABILITY_TEXT[ability])),
  );
  return lesser === undefined
    ? t('staffRoleMay', { role: t(`role_${role}`), abilities })
    : t('staffRoleMayAlso', { role: t(`role_${role}`), other: t(`role_${lesser}`), abilities });
}

/** A staff user's state: active, waiting for their first password, or disabled. */
function stateOf(t: T, locale: Locale, user: StaffUser): SafeHtml {
  if (user.disabledAt !== null) {
    // One element: a phone's stacked row lays out a cell's children side by side.
    return html`<div>
      <span class="state state-revoked">${t('staffStateDisabled')}</span>
      <span class="help">${t('staffDisabledOn', { at: formatInstant(user.disabledAt, locale) })}</span>
    </div>`;
  }
  return user.active
    ? html`<span class="state state-active">${t('staffStateActive')}</span>`
    : html`<span class="state state-paused">${t('staffStateWaiting')}</span>`;
}

/** The details of an action cut for a table cell: `member: value, …`, at most this many characters. */
const DETAILS_SHORT = 120;

function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

function detailsCell(t: T, details: Record<string, unknown>): SafeHtml {
  const text = detailsText(details);
  if (text === '') return html`—`;
  const chars = Array.from(text);
  if (chars.length <= DETAILS_SHORT) return html`${text}`;
  return html`${chars.slice(0, DETAILS_SHORT - 1).join('')}…
    <details>
      <summary>${t('actAllDetails')}</summary>
      <pre class="pre">${JSON.stringify(details, null, 2)}</pre>
    </details>`;
}

/** Registers the staff users' pages and the action log. */
export function registerStaffPages(kit: ConsoleKit): void {
  const { services } = kit;
  const { staffUsers } = services;

  /** The staff user of a path, disabled ones too, or 404. */
  async function userOf(id: string): Promise<StaffUser> {
    const user = (await staffUsers.list()).find((candidate) => candidate.id === id);
    if (user === undefined) throw notFound(`staff user "${id}"`);
    return user;
  }

  /** A short page that says why something cannot be done, with the way back to the list. */
  const refusal = (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    title: string,
    text: string,
    status: number,
  ) =>
    kit.send(
      request,
      reply,
      ctx,
      title,
      html`<div class="card narrow">
        <h1>${title}</h1>
        <p role="alert">${text}</p>
        <p><a href="${CONSOLE_PREFIX}/staff">${ctx.t('staffBackToList')}</a></p>
      </div>`,
      { status },
    );

  /** The answer to the post that made a link: the link, once; never cached. */
  const sendLink = (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    title: string,
    user: Pick<StaffUser, 'name'>,
    link: StaffPasswordLink,
  ) => {
    const { t } = ctx;
    reply.header('cache-control', 'no-store');
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        ${shownOnceSecret(
          link.url,
          {
            label: t('staffLinkLabel', { name: user.name }),
            warning: t('staffLinkOnce'),
            copy: t('staffLinkCopy'),
            copied: t('staffLinkCopied'),
          },
          html`<p>
              ${t('staffLinkValid', { at: formatInstant(link.expiresAt, ctx.locale), name: user.name })}
            </p>
            <p>${t('staffLinkHandOver', { name: user.name })}</p>`,
        )}
        <p><a href="${CONSOLE_PREFIX}/staff">${t('staffBackToList')}</a></p>`,
    );
  };

  // ---- The list ----

  kit.page('/staff', 'staff', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const users = await staffUsers.list();
    const body = html`<h1>${t('staffTitle')}</h1>
      <p>${t('staffIntro')}</p>
      <p><a class="button" href="${CONSOLE_PREFIX}/staff/new">${t('staffAdd')}</a></p>
      <div class="table-wrap">
        <table class="stack" id="staff-users">
          <thead>
            <tr>
              <th scope="col">${t('staffColName')}</th>
              <th scope="col">${t('staffColEmail')}</th>
              <th scope="col">${t('staffColRole')}</th>
              <th scope="col">${t('staffColState')}</th>
              <th scope="col">${t('staffColCreated')}</th>
              <th scope="col">${t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            ${users.map((user) => {
              const self = user.id === ctx.user.id;
              const live = user.disabledAt === null;
              return html`<tr data-user="${user.email}">
                <th scope="row">
                  ${user.name}${self ? html` <span class="help">${t('staffYou')}</span>` : ''}
                </th>
                <td data-label="${t('staffColEmail')}">${user.email}</td>
                <td data-label="${t('staffColRole')}">${t(ROLE_NAME[user.role])}</td>
                <td data-label="${t('staffColState')}">${stateOf(t, locale, user)}</td>
                <td data-label="${t('staffColCreated')}">${formatInstant(user.createdAt, locale)}</td>
                <td data-label="${t('actions')}">
                  ${
                    live
                      ? html`<ul class="row-actions">
                          <li>
                            <a
                              href="${staffUrl(user.id, 'link')}"
                              aria-label="${t('staffLinkActionFor', { name: user.name })}"
                              >${t('staffLinkAction')}</a
                            >
                          </li>
                          ${
                            self
                              ? ''
                              : html`<li>
                                  <a
                                    href="${staffUrl(user.id, 'disable')}"
                                    aria-label="${t('staffDisableActionFor', { name: user.name })}"
                                    >${t('staffDisableAction')}</a
                                  >
                                </li>`
                          }
                        </ul>`
                      : '—'
                  }
                </td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>`;
    return kit.send(request, reply, ctx, t('staffTitle'), body);
  });

  // ---- A new staff user ----

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

  // ---- A fresh link (a forgotten password, a lost link) ----

  kit.page<{ Params: { id: string } }>('/staff/:id/link', 'staff', async (request, reply, ctx) => {
    const { t } = ctx;
    const user = await userOf(request.params.id);
    const title = t('staffLinkTitle', { name: user.name });
    if (user.disabledAt !== null) {
      return refusal(request, reply, ctx, title, t('staffNoLinkDisabled', { name: user.name }), 409);
    }
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        <form method="post" action="${staffUrl(user.id, 'link')}" class="card">
          ${csrfField(ctx.csrf)}
          <p>${t('staffLinkIntro', { name: user.name })}</p>
          <div class="actions">
            <button type="submit">${t('staffLinkButton')}</button>
            <a href="${CONSOLE_PREFIX}/staff">${t('staffCancel')}</a>
          </div>
        </form>`,
    );
  });

  kit.action<{ Params: { id: string } }>('/staff/:id/link', 'staff', async (request, reply, ctx) => {
    const { t } = ctx;
    const user = await userOf(request.params.id);
    try {
      const link = await staffUsers.newPasswordLink(user.id, ctx.actor);
      return await sendLink(request, reply, ctx, t('staffLinkIssuedTitle', { name: user.name }), user, link);
    } catch (error) {
      // Disabled between the confirmation and the post.
      if (!(error instanceof Problem && error.status === 409)) throw error;
      const title = t('staffLinkTitle', { name: user.name });
      return refusal(request, reply, ctx, title, t('staffNoLinkDisabled', { name: user.name }), 409);
    }
  });

  // ---- Disable ----

  /** Why this operator may not disable this user, as a page; null when they may. */
  const disableRefusal = (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    user: StaffUser,
  ): FastifyReply | null => {
    const { t } = ctx;
    // The console's own rule: the service does not know who is at the keyboard. (Signed in, the
    // operator can sign in, so the service's last-operator rule is not what stops them here.)
    if (user.id === ctx.user.id) {
      return refusal(request, reply, ctx, t('staffNotYourselfTitle'), t('staffNotYourself'), 422);
    }
    if (user.disabledAt !== null) {
      const title = t('staffDisableTitle', { name: user.name });
      return refusal(request, reply, ctx, title, t('staffAlreadyDisabled', { name: user.name }), 409);
    }
    return null;
  };

  kit.page<{ Params: { id: string } }>('/staff/:id/disable', 'staff', async (request, reply, ctx) => {
    const { t } = ctx;
    const user = await userOf(request.params.id);
    const refused = disableRefusal(request, reply, ctx, user);
    if (refused !== null) return refused;
    const title = t('staffDisableTitle', { name: user.name });
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        <form method="post" action="${staffUrl(user.id, 'disable')}" class="card">
          ${csrfField(ctx.csrf)}
          <p>${t('staffDisableIntro', { name: user.name, email: user.email })}</p>
          <div class="actions">
            <button type="submit" class="danger">${t('staffDisableButton', { name: user.name })}</button>
            <a href="${CONSOLE_PREFIX}/staff">${t('staffCancel')}</a>
          </div>
        </form>`,
    );
  });

  kit.action<{ Params: { id: string } }>('/staff/:id/disable', 'staff', async (request, reply, ctx) => {
    const { t } = ctx;
    const user = await userOf(request.params.id);
    const refused = disableRefusal(request, reply, ctx, user);
    if (refused !== null) return refused;
    try {
      await staffUsers.disable(user.id, ctx.actor);
    } catch (error) {
      // The last operator who can sign in: another operator was disabled at the same moment.
      if (!(error instanceof Problem && error.status === 409)) throw error;
      const text = t('staffLastOperator', { name: user.name });
      return refusal(request, reply, ctx, t('staffLastOperatorTitle'), text, 409);
    }
    kit.flash(request, t('staffDisabled', { name: user.name }));
    return kit.redirect(reply, '/staff');
  });

  // ---- The back-office action log ----

  kit.page<{ Querystring: Record<string, unknown> }>('/activity', 'staff', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const given = (name: string) => {
      const value = formText(request.query[name]).trim();
      return value === '' ? undefined : value;
    };
    const filters = { action: given('action'), user: given('user'), cursor: given('cursor') };
    const parsed = backOfficeQueryInput.safeParse(filters);
    const errors: FormErrors = parsed.success ? {} : zodFormErrors(parsed.error);
    const [users, page] = await Promise.all([
      staffUsers.list(),
      parsed.success
        ? services.backOfficeLog.list({
            limit: parsed.data.limit,
            ...(parsed.data.cursor === undefined ? {} : { cursor: parsed.data.cursor }),
            ...(parsed.data.action === undefined ? {} : { action: parsed.data.action }),
            ...(parsed.data.user === undefined ? {} : { userId: parsed.data.user }),
          })
        : Promise.resolve({ actions: [] as BackOfficeAction[], nextCursor: null }),
    ]);
    const filtered = filters.action !== undefined || filters.user !== undefined;
    const query = (extra: Record<string, string>) => {
      const params = new URLSearchParams();
      if (filters.action !== undefined) params.set('action', filters.action);
      if (filters.user !== undefined) params.set('user', filters.user);
      for (const [name, value] of Object.entries(extra)) params.set(name, value);
      const text = params.toString();
      return `${CONSOLE_PREFIX}/activity${text === '' ? '' : `?${text}`}`;
    };
    const labels = { action: t('actFilterAction'), user: t('actFilterUser'), cursor: 'cursor' };
    const columns = [
      { label: t('actColWhen') },
      { label: t('actColWho') },
      { label: t('actColChannel') },
      { label: t('actColAction') },
      { label: t('actColTarget') },
      { label: t('actColDetails') },
    ];
    const rows = page.actions.map((action) => [
      html`<time datetime="${new Date(action.occurredAt).toISOString()}"
        >${formatInstant(action.occurredAt, locale, true)}</time
      >`,
      action.actor.role === 'staff' && typeof action.actor.userId === 'string'
        ? html`<a href="${CONSOLE_PREFIX}/activity?user=${encodeURIComponent(action.actor.userId)}"
            >${actorText(t, action.actor)}</a
          >`
        : actorText(t, action.actor),
      channelText(t, action.actor.channel),
      html`<a href="${CONSOLE_PREFIX}/activity?action=${encodeURIComponent(action.action)}"
        ><code class="action">${action.action}</code></a
      >`,
      html`<code>${action.target}</code>`,
      detailsCell(t, action.details),
    ]);
    const body = html`<h1>${t('actTitle')}</h1>
      <p>${t('actIntro')}</p>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form method="get" action="${CONSOLE_PREFIX}/activity" class="card" aria-label="${t('actFilters')}">
        <div class="filters">
          ${textField({
            name: 'action',
            label: labels.action,
            value: filters.action ?? '',
            hint: t('actFilterActionHint'),
            error: errors.action,
          })}
          ${selectField({
            name: 'user',
            label: labels.user,
            value: filters.user ?? '',
            hint: t('actFilterUserHint'),
            options: [
              { value: '', label: t('actAnyone') },
              ...users.map((user) => ({
                value: user.id,
                label: user.disabledAt === null ? user.name : t('actDisabledUser', { name: user.name }),
              })),
            ],
          })}
        </div>
        <div class="actions">
          <button type="submit">${t('actFilterButton')}</button>
          ${filtered ? html`<a href="${CONSOLE_PREFIX}/activity">${t('actClear')}</a>` : ''}
        </div>
      </form>
      ${
        page.actions.length === 0
          ? html`<p role="status">${t(filtered ? 'actNoneFiltered' : 'actNone')}</p>`
          : html`<div id="actions">${dataTable(columns, rows)}</div>`
      }
      ${
        page.nextCursor === null && filters.cursor === undefined
          ? ''
          : html`<nav aria-label="${t('actPageNav')}" class="actions">
              ${filters.cursor === undefined ? '' : html`<a href="${query({})}">${t('actFirst')}</a>`}
              ${
                page.nextCursor === null
                  ? ''
                  : html`<a href="${query({ cursor: page.nextCursor })}" rel="next">${t('actNext')}</a>`
              }
            </nav>`
      }`;
    return kit.send(request, reply, ctx, t('actTitle'), body, { status: parsed.success ? 200 : 422 });
  });
}
