import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameSecret } from '../lib/same-secret.js';
import type { Services } from '../services.js';
import { registerFace, formText } from '../web/face.js';
import { errorSummary, textField, zodFormErrors, type FormErrors } from '../web/form.js';
import { html } from '../web/html.js';
import { dataTable } from '../web/table.js';
import { csrfField } from '../web/layout.js';
import type { SignInLimits } from '../identity/sign-in-limit.js';
import { firstOperatorInput } from '../staff/staff-user-input.js';
import { consoleAssets } from './console-assets.js';
import { registerAccountPages } from './pages/accounts/index.js';
import { registerCatalogPages } from './pages/catalog/index.js';
import { registerDashboardPages } from './pages/dashboard.js';
import { registerMailboxPages } from './pages/mail/index.js';
import { registerMaintenancePages } from './pages/maintenance.js';
import { registerSystemPages } from './pages/systems/index.js';
import { registerStaffPages } from './pages/staff/index.js';
import { can } from './console-gate.js';
import { CONSOLE_PREFIX } from './console-path.js';
import { consoleKit, staffActor, type ConsoleKit, type ConsoleStaff } from './console-kit.js';
import { CONSOLE_MESSAGES, type ConsoleMessage } from './console-messages.js';
import type { FaceContext } from '../web/face.js';

// The back-office console (issue 14) under /console/ on the admin listener, never on the public one:
// the operator and support staff at work in a browser, on the merchant panel's web stack (src/web/) and
// the same service layer as the admin API. Every route declares the ability it needs (console-gate.ts);
// every change goes to the audit trail with the staff user. The route table of the console is the list
// of page modules below; each module's file (a face's index.ts) starts with its own routes, and its
// folder has a file a page.

/** What the console is built from. */
export interface ConsoleDeps {
  services: Services;
  /** The identity pages' limits (tests shorten them). */
  signInLimits?: Partial<SignInLimits>;
}

/** How long a console session lasts without use: a working day's pause, shorter than the panel's. */
const SESSION_IDLE_MS = 2 * 3_600_000;

/** The page modules, in the order of the navigation. */
const PAGE_MODULES: readonly ((kit: ConsoleKit) => void)[] = [
  registerStartPages,
  registerDashboardPages,
  registerSystemPages,
  registerAccountPages,
  registerCatalogPages,
  registerMaintenancePages,
  registerStaffPages,
  registerMailboxPages,
];

/** Registers the console under /console on the admin listener. */
export function registerConsole(admin: FastifyInstance, deps: ConsoleDeps): void {
  const { services } = deps;
  // Built with the pages, before the first request; the sign-in page's hook uses it too.
  let kit: ConsoleKit | undefined;
  registerFace<ConsoleStaff, ConsoleMessage>(admin, {
    name: 'console',
    prefix: CONSOLE_PREFIX,
    cookieName: 'console_session',
    catalogue: CONSOLE_MESSAGES,
    users: services.staffUsers,
    deps: services,
    signInLimits: deps.signInLimits,
    idleMs: SESSION_IDLE_MS,
    home: '/start',
    nav: (user, t) =>
      (
        [
          ['/dashboard', 'navDashboard', 'dashboard'],
          ['/find', 'navFind', 'read'],
          ['/systems', 'navSystems', 'read'],
          ['/accounts', 'navAccounts', 'read'],
          ['/catalog', 'navCatalog', 'catalog'],
          ['/maintenance', 'navMaintenance', 'maintenance'],
          ['/staff', 'navStaff', 'staff'],
          ['/activity', 'navActivity', 'staff'],
          // Outside production only (pages/mail/index.ts).
          ...(services.mailbox === null ? [] : ([['/mailbox', 'navMailbox', 'staff']] as const)),
          ['/account/password', 'navPassword', 'read'],
        ] as const
      )
        .filter(([, , ability]) => can(user.role, ability))
        .map(([href, label]) => ({ href, label: t(label) })),
    assets: consoleAssets,
    // Sessions are in the back-office action log too: who was at the console, and when.
    onSession: async (event, user, request) => {
      await services.backOfficeLog.append(staffActor(user, request), {
        action: `console.${event}`,
        target: `staff/users/${user.id}`,
      });
    },
    beforeSignIn: async (request, reply) => {
      if (kit === undefined || (await services.staffUsers.count()) > 0) return false;
      await sendFirstOperatorPage(request, reply, kit, {}, '', '');
      return true;
    },
    pages: (scope, face) => {
      const built = consoleKit(scope, face, services);
      kit = built;
      registerFirstOperator(scope, built);
      for (const register of PAGE_MODULES) register(built);
    },
  });
}

type Ctx = FaceContext<ConsoleStaff, ConsoleMessage>;

async function sendFirstOperatorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  kit: ConsoleKit,
  errors: FormErrors,
  email: string,
  name: string,
  status = 200,
): Promise<FastifyReply> {
  const ctx: Ctx = await kit.context(request, reply);
  const { t } = ctx;
  const labels = {
    token: t('firstToken'),
    email: t('email'),
    name: t('firstName'),
    password: t('newPassword'),
  };
  return kit.send(
    request,
    reply,
    ctx,
    t('firstTitle'),
    html`<div class="card narrow">
      <h1>${t('firstTitle')}</h1>
      <p>${t('firstIntro')}</p>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form method="post" action="${CONSOLE_PREFIX}/first-operator">
        ${csrfField(ctx.csrf)}
        ${textField({
          name: 'token',
          label: labels.token,
          type: 'password',
          value: '',
          hint: t('firstTokenHint'),
          error: errors.token,
          autocomplete: 'off',
          required: true,
        })}
        ${textField({
          name: 'email',
          label: labels.email,
          type: 'email',
          value: email,
          error: errors.email,
          autocomplete: 'username',
          required: true,
        })}
        ${textField({ name: 'name', label: labels.name, value: name, error: errors.name, required: true })}
        ${textField({
          name: 'password',
          label: labels.password,
          type: 'password',
          value: '',
          hint: t('passwordHint', { min: 12 }),
          error: errors.password,
          autocomplete: 'new-password',
          required: true,
        })}
        <div class="actions"><button type="submit">${t('firstButton')}</button></div>
      </form>
    </div>`,
    { status },
  );
}

/**
 * The first start: while there is no staff user, whoever holds ADMIN_TOKEN creates the first operator
 * and is signed in. Token attempts are limited per IP, so that one IP's wrong tokens never block another's
 * first start, under a ceiling over all IPs, so that a flood from many still ends.
 */
function registerFirstOperator(scope: FastifyInstance, kit: ConsoleKit): void {
  const { services } = kit;
  scope.post<{ Body: Record<string, unknown> }>(
    '/first-operator',
    { preHandler: kit.csrf },
    async (request, reply) => {
      const ctx = await kit.context(request, reply);
      const email = formText(request.body.email);
      const name = formText(request.body.name);
      if ((await services.staffUsers.count()) > 0) {
        kit.flash(request, ctx.t('firstTaken'));
        return kit.redirect(reply, '/sign-in');
      }
      const admission = await kit.signInLimit.admitFirstOperator(request.ip);
      if (!admission.ok) {
        reply.header('retry-after', String(admission.retryAfterSeconds));
        const minutes = Math.ceil(admission.retryAfterSeconds / 60);
        const errors = { _form: ctx.t('signInLimited', { minutes }) };
        return sendFirstOperatorPage(request, reply, kit, errors, email, name, 429);
      }
      const token = formText(request.body.token);
      if (!sameSecret(token, services.config.adminToken)) {
        const errors = { token: ctx.t('firstTokenWrong') };
        return sendFirstOperatorPage(request, reply, kit, errors, email, name, 401);
      }
      const parsed = firstOperatorInput.safeParse({ email, name, password: formText(request.body.password) });
      if (!parsed.success) {
        return sendFirstOperatorPage(request, reply, kit, zodFormErrors(parsed.error), email, name, 422);
      }
      const actor = { role: 'operator', channel: 'console', ip: request.ip } as const;
      const user = await services.staffUsers.createFirstOperator(parsed.data, actor);
      await request.session.regenerate();
      request.session.set('userId', user.id);
      kit.flash(request, ctx.t('firstDone', { name: user.name }));
      return kit.redirect(reply, '/start');
    },
  );
}

/** Where a signed-in user starts (the operator on the dashboard, support on the search), and the search. */
function registerStartPages(kit: ConsoleKit): void {
  const { services } = kit;
  kit.page('/start', 'read', async (_request, reply, ctx) =>
    kit.redirect(reply, ctx.can('dashboard') ? '/dashboard' : '/find'),
  );

  kit.page<{ Querystring: { q?: string } }>('/find', 'read', async (request, reply, ctx) => {
    const { t } = ctx;
    const q = formText(request.query.q).trim().slice(0, 100);
    const needle = q.toLowerCase();
    const matches = (...texts: string[]) => texts.some((text) => text.toLowerCase().includes(needle));
    const [systems, accounts] =
      q === ''
        ? [[], []]
        : await Promise.all([
            services.systems.list().then((all) => all.filter((s) => matches(s.identifier, s.name))),
            services.posData.listAccounts().then((all) => all.filter((a) => matches(a.id, a.name))),
          ]);
    const state = (active: boolean) =>
      html`<span class="state state-${active ? 'active' : 'revoked'}"
        >${t(active ? 'active' : 'inactive')}</span
      >`;
    const results =
      q === ''
        ? ''
        : systems.length + accounts.length === 0
          ? html`<p role="status">${t('findNone', { q })}</p>`
          : html`<p role="status">${t('findCount', { count: systems.length + accounts.length })}</p>
              ${
                systems.length === 0
                  ? ''
                  : html`<h2>${t('findSystems')}</h2>
                      ${dataTable(
                        [{ label: t('colIdentifier') }, { label: t('colName') }, { label: t('colState') }],
                        systems.map((s) => [
                          html`<a href="${CONSOLE_PREFIX}/systems/${encodeURIComponent(s.identifier)}"
                            >${s.identifier}</a
                          >`,
                          s.name,
                          state(s.active),
                        ]),
                      )}`
              }
              ${
                accounts.length === 0
                  ? ''
                  : html`<h2>${t('findAccounts')}</h2>
                      ${dataTable(
                        [{ label: t('colIdentifier') }, { label: t('colName') }],
                        accounts.map((a) => [
                          html`<a href="${CONSOLE_PREFIX}/accounts/${encodeURIComponent(a.id)}">${a.id}</a>`,
                          a.name,
                        ]),
                      )}`
              }`;
    return kit.send(
      request,
      reply,
      ctx,
      t('findTitle'),
      html`<h1>${t('findTitle')}</h1>
        <form method="get" action="${CONSOLE_PREFIX}/find" role="search" class="card">
          ${textField({ name: 'q', label: t('findLabel'), value: q, hint: t('findHint'), type: 'text' })}
          <div class="actions"><button type="submit">${t('findButton')}</button></div>
        </form>
        ${results}`,
    );
  });
}
