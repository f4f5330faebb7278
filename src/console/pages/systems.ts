import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { KeyAuditEvent, KeyEventName } from '../../audit/key-audit-repository.js';
import { notFound } from '../../errors/refusals.js';
import { codePointLength, truncateCodePoints } from '../../lib/unicode-text.js';
import type { CatalogEntry } from '../../helpdesk/catalog-service.js';
import type { PartnerSystem } from '../../helpdesk/system-repository.js';
import { systemInput, systemPath, type SystemInput } from '../../helpdesk/system-input.js';
import { SCOPES, type Scope } from '../../helpdesk/system-scopes.js';
import { ticketQueryInput } from '../../helpdesk/ticket-query-input.js';
import type { Refusal } from '../../observability/refusal-log.js';
import { formText } from '../../web/face.js';
import { formatCount, formatInstant } from '../../web/format.js';
import {
  checkboxField,
  checkboxGroup,
  errorSummary,
  formList,
  problemFormErrors,
  selectField,
  textField,
  type FormErrors,
} from '../../web/form.js';
import { html, type SafeHtml } from '../../web/html.js';
import { KEY_EVENT_MESSAGES } from '../../web/key-events.js';
import type { Locale, Translate } from '../../web/i18n.js';
import { csrfField } from '../../web/layout.js';
import { shownOnceSecret } from '../../web/shown-once.js';
import { actorText, channelText } from '../actor-text.js';
import type { ConsoleKit, StaffContext } from '../console-kit.js';
import type { ConsoleMessage } from '../console-messages.js';
import { CONSOLE_PREFIX } from '../console-path.js';

// The help desk's partner systems in the console (issue 14): support finds a system, reads its settings,
// its key's state, last use and history (never a key or a hash), its last refusals and its tickets, and
// stops a leaked previous key at once; the operator also creates a system (its first key shown once),
// changes its settings (never its keys), deactivates or reactivates it, and rotates its key (the new key
// shown once, the current one kept for the system's grace period). Every change goes through the systems
// service the admin API uses, with the staff user as the audit trail's actor, and into the back-office
// log under the admin operation of the same change.
//
// Routes:
//   GET  /console/systems                             read
//   GET  /console/systems/new                         systems
//   POST /console/systems/new                         systems
//   GET  /console/systems/:identifier                 read
//   GET  /console/systems/:identifier/refusals        readRefusals
//   GET  /console/systems/:identifier/tickets         readTickets
//   GET  /console/systems/:identifier/stop-previous   stopPreviousKey
//   POST /console/systems/:identifier/stop-previous   stopPreviousKey
//   GET  /console/systems/:identifier/edit            systems
//   POST /console/systems/:identifier/edit            systems
//   GET  /console/systems/:identifier/deactivate      systems
//   POST /console/systems/:identifier/deactivate      systems
//   GET  /console/systems/:identifier/reactivate      systems
//   POST /console/systems/:identifier/reactivate      systems
//   GET  /console/systems/:identifier/rotate          systems
//   POST /console/systems/:identifier/rotate          systems

type T = Translate<ConsoleMessage>;
interface Params {
  Params: { identifier: string };
}

/** The path of a system's page (`/systems/demo`), or of one of its pages (`/systems/demo/edit`). */
const systemUrl = (identifier: string, tail = '') =>
  `${CONSOLE_PREFIX}/systems/${encodeURIComponent(identifier)}${tail}`;

/** The back-office log's target of a change, as the admin API's registrar writes it (the admin path). */
const targetOf = (identifier: string, tail = '') => `helpdesk/systems/${identifier}${tail}`;

/** How many tickets a page lists, and how many events of the key's history the system's page shows. */
const TICKETS_PER_PAGE = 50;
const HISTORY_SHOWN = 50;
/** A ticket's description is cut to this many characters in the list; the rest opens on demand. */
const DESCRIPTION_SHOWN = 140;

/** The limits of the form's numbers, read from the admin API's schema so that the hints say its rules. */
const RATE = systemInput.shape.rate_limit_per_minute.unwrap();
const GRACE = systemInput.shape.key_grace_seconds.unwrap();
const NAME_MAX = Number(systemInput.shape.name.meta()?.maxLength);

const SCOPE_LABELS: Readonly<Record<Scope, ConsoleMessage>> = {
  'help-desk-ticket.create': 'sysScopeTickets',
  'lead.create': 'sysScopeLeads',
};

/** The events of a system's key, as its history says them: a merchant key's words for the others. */
const EVENT_TEXTS: Readonly<Record<KeyEventName, ConsoleMessage>> = {
  ...KEY_EVENT_MESSAGES,
  issued: 'sysEvIssued',
  rotated: 'sysEvRotated',
  previous_stopped: 'sysEvPreviousStopped',
  edited: 'sysEvEdited',
  grace_ended: 'sysEvGraceEnded',
};

/** An instant in UTC-03:00, or the text for none. */
function instantOr(at: number | null, locale: Locale, none: string): string {
  return at === null ? none : formatInstant(at, locale);
}

/** A grace period in the largest unit that divides it (86400 → 24 hours). */
function durationText(t: T, seconds: number, locale: Locale): string {
  const [n, one, many] =
    seconds % 3600 === 0
      ? ([seconds / 3600, 'sysHour', 'sysHours'] as const)
      : seconds % 60 === 0
        ? ([seconds / 60, 'sysMinute', 'sysMinutes'] as const)
        : ([seconds, 'sysSecond', 'sysSeconds'] as const);
  return n === 1 ? t(one) : t(many, { n: formatCount(n, locale) });
}

/** Whether the previous key of a rotation still opens the ticket API at `now`. */
const previousValid = (system: PartnerSystem, now: number) =>
  system.previousValidUntil !== null && system.previousValidUntil > now;

/** The key's state in words: none yet, the current key alone, or with a previous one until when. */
function keyStateText(t: T, system: PartnerSystem, now: number, locale: Locale): SafeHtml {
  if (!system.hasKey) return html`<span class="state state-paused">${t('sysKeyNone')}</span>`;
  const current = html`<span class="state state-active">${t('sysKeyCurrent')}</span>`;
  if (!previousValid(system, now)) return current;
  return html`${current}<span class="help"
      >${t('sysKeyPreviousUntil', { until: formatInstant(system.previousValidUntil ?? 0, locale) })}</span
    >`;
}

function activeText(t: T, active: boolean): SafeHtml {
  return html`<span class="state state-${active ? 'active' : 'revoked'}"
    >${t(active ? 'active' : 'inactive')}</span
  >`;
}

/** A category by name (and id), or its id alone when the catalog no longer has it. */
function categoryName(categories: ReadonlyMap<number, string>, id: number): string {
  const name = categories.get(id);
  return name === undefined ? `#${id}` : `${name} (${id})`;
}

function namesById(entries: readonly CatalogEntry[]): Map<number, string> {
  return new Map(entries.map((entry) => [Number(entry.id), String(entry.name)]));
}

/** A system's identifier from the path: one outside the pattern is no system (404, as an unknown one). */
function identifierOf(request: FastifyRequest<Params>): string {
  const parsed = systemPath.safeParse({ identifier: request.params.identifier });
  if (!parsed.success) throw notFound(`system "${request.params.identifier}"`);
  return parsed.data.identifier;
}

// ---- The form of a system's settings ----

/** The form's values as typed, so that a refused form comes back as it was sent. */
interface SystemForm {
  identifier: string;
  name: string;
  active: boolean;
  scopes: string[];
  rate_limit_per_minute: string;
  key_grace_seconds: string;
  default_category_id: string;
  released_category_ids: string[];
}

function formOf(body: Record<string, unknown>, identifier?: string): SystemForm {
  return {
    identifier: identifier ?? formText(body.identifier).trim(),
    name: formText(body.name),
    active: body.active === 'true',
    scopes: formList(body.scopes),
    rate_limit_per_minute: formText(body.rate_limit_per_minute).trim(),
    key_grace_seconds: formText(body.key_grace_seconds).trim(),
    default_category_id: formText(body.default_category_id),
    released_category_ids: formList(body.released_category_ids),
  };
}

function formFromSystem(system: PartnerSystem): SystemForm {
  return {
    identifier: system.identifier,
    name: system.name,
    active: system.active,
    scopes: system.scopes,
    rate_limit_per_minute: String(system.rateLimitPerMinute),
    key_grace_seconds: String(system.keyGraceSeconds),
    default_category_id: system.defaultCategoryId === null ? '' : String(system.defaultCategoryId),
    released_category_ids: system.releasedCategoryIds.map(String),
  };
}

/** A whole number typed in a field, or the text itself for the schema to refuse as not a number. */
function wholeNumber(text: string): number | string {
  return /^-?\d{1,16}$/.test(text) ? Number(text) : text;
}

/** The form as the body of PUT systems/{identifier}, for the admin API's own schema to check. */
function bodyOf(form: SystemForm): Record<string, unknown> {
  return {
    name: form.name,
    active: form.active,
    scopes: form.scopes,
    rate_limit_per_minute: wholeNumber(form.rate_limit_per_minute),
    key_grace_seconds: wholeNumber(form.key_grace_seconds),
    default_category_id: form.default_category_id === '' ? null : wholeNumber(form.default_category_id),
    released_category_ids: form.released_category_ids.map(wholeNumber),
  };
}

/** The hints of the form's fields: the rules of the admin API's schema, in the page's language. */
function fieldHints(t: T, locale: Locale): Record<string, string> {
  return {
    identifier: t('sysIdentifierRule'),
    name: t('sysNameRule', { max: NAME_MAX }),
    rate_limit_per_minute: t('sysRateRule', {
      min: formatCount(RATE.minValue ?? 1, locale),
      max: formatCount(RATE.maxValue ?? 0, locale),
    }),
    key_grace_seconds: t('sysGraceRule', {
      min: formatCount(GRACE.minValue ?? 0, locale),
      max: formatCount(GRACE.maxValue ?? 0, locale),
      days: formatCount(Math.floor((GRACE.maxValue ?? 0) / 86400), locale),
    }),
  };
}

/** Fields whose values are chosen from a list the page offers: only a forged or stale post misses it. */
const CHOSEN = new Set(['scopes', 'default_category_id', 'released_category_ids']);

/**
 * What is wrong with a field the admin API's schema refused, in the page's language: the schema decides,
 * the page says it in words a person reads (the hint beside the field says the rule).
 */
function issueText(t: T, locale: Locale, issue: z.core.$ZodIssue, form: SystemForm): string {
  const field = String(issue.path[0] ?? '');
  if (field === 'rate_limit_per_minute' || field === 'key_grace_seconds') {
    if (issue.code === 'too_small')
      return t('sysAtLeast', { min: formatCount(Number(issue.minimum), locale) });
    if (issue.code === 'too_big') return t('sysAtMost', { max: formatCount(Number(issue.maximum), locale) });
    return t('sysWholeNumber');
  }
  if (field === 'name') {
    if (issue.code === 'too_small' || issue.code === 'invalid_type') return t('sysRequired');
    return codePointLength(form.name.trim()) > NAME_MAX ? t('sysTooLong', { max: NAME_MAX }) : t('sysNoNul');
  }
  if (field === 'identifier') return form.identifier === '' ? t('sysRequired') : t('sysIdentifierWrong');
  if (CHOSEN.has(field)) return t('sysChooseListed');
  return issue.message;
}

/** The first refusal of each field, in words. */
function issueErrors(t: T, locale: Locale, error: z.ZodError, form: SystemForm): FormErrors {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') continue;
    errors[String(issue.path[0] ?? '_form')] ??= issueText(t, locale, issue, form);
  }
  return errors;
}

/** The service's refusal of a field (a category the catalog no longer has), in words. */
function serviceErrors(t: T, errors: FormErrors): FormErrors {
  return Object.fromEntries(
    Object.entries(errors).map(([field, message]) => [
      field,
      CHOSEN.has(field) ? t('sysChooseListed') : message,
    ]),
  );
}

/** Registers the partner systems' pages. */
export function registerSystemPages(kit: ConsoleKit): void {
  const { services } = kit;
  const { systems, catalog, keyAudit, clock } = services;

  const categoryNames = async () => namesById(await catalog.listEntries('hd_categories'));

  const labels = (t: T): Record<string, string> => ({
    identifier: t('colIdentifier'),
    name: t('colName'),
    active: t('sysActiveLabel'),
    scopes: t('sysScopes'),
    rate_limit_per_minute: t('sysRate'),
    key_grace_seconds: t('sysGrace'),
    default_category_id: t('sysDefaultCategory'),
    released_category_ids: t('sysReleasedCategories'),
  });

  /** The create or settings form, with the errors of a refused post. */
  const systemForm = async (
    ctx: StaffContext,
    options: { action: string; form: SystemForm; errors: FormErrors; creating: boolean; submit: string },
  ): Promise<SafeHtml> => {
    const { t, locale } = ctx;
    const { form, errors } = options;
    const named = labels(t);
    const categories = await catalog.listEntries('hd_categories');
    const categoryOptions = categories.map((entry) => ({
      value: String(entry.id),
      label: `${String(entry.name)} (${String(entry.id)})`,
    }));
    const rules = fieldHints(t, locale);
    return html`${errorSummary(t('errorsTitle'), errors, named)}
      <form method="post" action="${options.action}" class="card" novalidate>
        ${csrfField(ctx.csrf)}
        ${
          options.creating
            ? textField({
                name: 'identifier',
                label: named.identifier ?? '',
                value: form.identifier,
                hint: rules.identifier,
                error: errors.identifier,
                autocomplete: 'off',
                required: true,
              })
            : ''
        }
        ${textField({
          name: 'name',
          label: named.name ?? '',
          value: form.name,
          hint: rules.name,
          error: errors.name,
          required: true,
        })}
        ${checkboxField({
          name: 'active',
          label: named.active ?? '',
          checked: form.active,
          hint: t('sysActiveHint'),
          error: errors.active,
        })}
        ${checkboxGroup({
          name: 'scopes',
          label: named.scopes ?? '',
          values: form.scopes,
          options: SCOPES.map((scope) => ({ value: scope, label: `${t(SCOPE_LABELS[scope])} (${scope})` })),
          hint: t('sysScopesHint'),
          error: errors.scopes,
        })}
        ${textField({
          name: 'rate_limit_per_minute',
          label: named.rate_limit_per_minute ?? '',
          value: form.rate_limit_per_minute,
          type: 'text',
          inputmode: 'numeric',
          hint: rules.rate_limit_per_minute,
          error: errors.rate_limit_per_minute,
          required: true,
        })}
        ${textField({
          name: 'key_grace_seconds',
          label: named.key_grace_seconds ?? '',
          value: form.key_grace_seconds,
          type: 'text',
          inputmode: 'numeric',
          hint: rules.key_grace_seconds,
          error: errors.key_grace_seconds,
          required: true,
        })}
        ${selectField({
          name: 'default_category_id',
          label: named.default_category_id ?? '',
          value: form.default_category_id,
          options: [{ value: '', label: t('sysNoDefaultCategory') }, ...categoryOptions],
          hint: t('sysDefaultCategoryHint'),
          error: errors.default_category_id,
        })}
        ${checkboxGroup({
          name: 'released_category_ids',
          label: named.released_category_ids ?? '',
          values: form.released_category_ids,
          options: categoryOptions,
          hint: t('sysReleasedHint'),
          error: errors.released_category_ids,
        })}
        <div class="actions">
          <button type="submit">${options.submit}</button>
          <a href="${options.creating ? `${CONSOLE_PREFIX}/systems` : systemUrl(form.identifier)}"
            >${t('sysCancel')}</a
          >
        </div>
      </form>`;
  };

  /**
   * Checks a form with the admin API's schemas: the identifier's (a new system's) and the body's. The
   * checked body, or the errors of every refused field.
   */
  const checked = (
    ctx: StaffContext,
    form: SystemForm,
    creating: boolean,
  ): { ok: true; identifier: string; input: SystemInput } | { ok: false; errors: FormErrors } => {
    const path = creating ? systemPath.safeParse({ identifier: form.identifier }) : null;
    const parsed = systemInput.safeParse(bodyOf(form));
    const errors = {
      ...(path?.success === false ? issueErrors(ctx.t, ctx.locale, path.error, form) : {}),
      ...(parsed.success ? {} : issueErrors(ctx.t, ctx.locale, parsed.error, form)),
    };
    if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
    return { ok: true, identifier: form.identifier, input: parsed.data };
  };

  /** The settings a system has, as the body of a PUT that keeps them (a deactivation changes one). */
  const inputOf = (system: PartnerSystem, active: boolean): SystemInput =>
    systemInput.parse({ ...bodyOf(formFromSystem(system)), active });

  const onceTexts = (t: T) => ({
    warning: t('sysShownOnce'),
    label: t('sysKeyLabel'),
    copy: t('sysCopy'),
    copied: t('sysCopied'),
  });

  // ---- The list ----

  kit.page<{ Querystring: { q?: string } }>('/systems', 'read', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const q = formText(request.query.q).trim().slice(0, 100);
    const needle = q.toLowerCase();
    const all = await systems.list();
    const shown = all.filter(
      (s) => needle === '' || [s.identifier, s.name].some((text) => text.toLowerCase().includes(needle)),
    );
    const now = clock.now();
    const table =
      shown.length === 0
        ? html`<p role="status">${q === '' ? t('sysNone') : t('findNone', { q })}</p>`
        : html`${q === '' ? '' : html`<p role="status">${t('findCount', { count: shown.length })}</p>`}
            <div class="table-wrap">
              <table class="stack" id="systems">
                <thead>
                  <tr>
                    <th scope="col">${t('colIdentifier')}</th>
                    <th scope="col">${t('colName')}</th>
                    <th scope="col">${t('colState')}</th>
                    <th scope="col">${t('sysKey')}</th>
                    <th scope="col">${t('sysLastUse')}</th>
                    <th scope="col">${t('sysPreviousLastUse')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${shown.map(
                    (s) =>
                      html`<tr data-system="${s.identifier}">
                        <td data-label="${t('colIdentifier')}">
                          <a href="${systemUrl(s.identifier)}"><code>${s.identifier}</code></a>
                        </td>
                        <td data-label="${t('colName')}">${s.name}</td>
                        <td data-label="${t('colState')}">${activeText(t, s.active)}</td>
                        <td data-label="${t('sysKey')}">${keyStateText(t, s, now, locale)}</td>
                        <td data-label="${t('sysLastUse')}">
                          ${s.hasKey ? instantOr(s.keyLastUsedAt, locale, t('neverUsed')) : '—'}
                        </td>
                        <td data-label="${t('sysPreviousLastUse')}">
                          ${previousValid(s, now) ? instantOr(s.previousKeyLastUsedAt, locale, t('neverUsed')) : '—'}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`;
    const body = html`<h1>${t('sysTitle')}</h1>
      <p>${t('sysIntro')}</p>
      ${
        ctx.can('systems')
          ? html`<p><a class="button" href="${CONSOLE_PREFIX}/systems/new">${t('sysCreate')}</a></p>`
          : ''
      }
      <form method="get" action="${CONSOLE_PREFIX}/systems" role="search" class="card">
        ${textField({ name: 'q', label: t('sysFilter'), value: q, hint: t('sysFilterHint') })}
        <div class="actions">
          <button type="submit">${t('sysFilterButton')}</button>
          ${q === '' ? '' : html`<a href="${CONSOLE_PREFIX}/systems">${t('sysFilterClear')}</a>`}
        </div>
      </form>
      ${table}`;
    return kit.send(request, reply, ctx, t('sysTitle'), body);
  });

  // ---- Create (the operator) ----

  const createPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    form: SystemForm,
    errors: FormErrors,
    status = 200,
  ) => {
    const { t } = ctx;
    const body = html`<p class="crumbs"><a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a></p>
      <h1>${t('sysCreateTitle')}</h1>
      <p>${t('sysCreateIntro')}</p>
      ${await systemForm(ctx, {
        action: `${CONSOLE_PREFIX}/systems/new`,
        form,
        errors,
        creating: true,
        submit: t('sysCreateButton'),
      })}`;
    return kit.send(request, reply, ctx, t('sysCreateTitle'), body, { status });
  };

  kit.page('/systems/new', 'systems', async (request, reply, ctx) =>
    createPage(
      request,
      reply,
      ctx,
      {
        identifier: '',
        name: '',
        active: true,
        scopes: ['help-desk-ticket.create'],
        rate_limit_per_minute: String(systemInput.shape.rate_limit_per_minute.parse(undefined)),
        key_grace_seconds: String(systemInput.shape.key_grace_seconds.parse(undefined)),
        default_category_id: '',
        released_category_ids: [],
      },
      {},
    ),
  );

  kit.action<{ Body: Record<string, unknown> }>('/systems/new', 'systems', async (request, reply, ctx) => {
    const { t } = ctx;
    const form = formOf(request.body);
    const check = checked(ctx, form, true);
    if (!check.ok) return createPage(request, reply, ctx, form, check.errors, 422);
    const { identifier, input } = check;
    // A PUT would replace an existing system's settings: creating refuses an identifier in use instead.
    if ((await systems.list()).some((s) => s.identifier === identifier)) {
      const errors = { identifier: t('sysIdentifierTaken', { identifier }) };
      return createPage(request, reply, ctx, form, errors, 409);
    }
    let created: boolean;
    try {
      ({ created } = await systems.put(identifier, input, ctx.actor));
    } catch (error) {
      const errors = problemFormErrors(error);
      if (errors === null) throw error;
      return createPage(request, reply, ctx, form, serviceErrors(t, errors), 422);
    }
    await kit.record(ctx, {
      action: 'putHelpDeskSystem',
      target: targetOf(identifier),
      details: { request_id: request.id, created, body: input },
    });
    if (!created) {
      // Someone created it between the check and the PUT (its settings are now these, recorded above as
      // any PUT is): its key is left alone rather than rotated into a previous key under their feet.
      const errors = { identifier: t('sysIdentifierTaken', { identifier }) };
      return createPage(request, reply, ctx, form, errors, 409);
    }
    const issued = await systems.rotateKey(identifier, ctx.actor);
    await kit.record(ctx, {
      action: 'rotateHelpDeskSystemKey',
      target: targetOf(identifier, '/keys/rotate'),
      details: { request_id: request.id, first_key: true },
    });
    const title = t('sysCreatedTitle', { identifier });
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        ${shownOnceSecret(issued.key, onceTexts(t), html`<p>${t('sysCreatedGive', { identifier })}</p>`)}
        <p><a href="${systemUrl(identifier)}">${t('sysOpenSystem', { name: input.name })}</a></p>`,
      { status: 201 },
    );
  });

  // ---- One system ----

  kit.page<Params>('/systems/:identifier', 'read', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    const [names, history] = await Promise.all([
      categoryNames(),
      keyAudit.ofSystem(system.identifier, { limit: HISTORY_SHOWN }),
    ]);
    const now = clock.now();
    const stoppable = previousValid(system, now);
    const group = (label: string, actions: SafeHtml[]) =>
      actions.length === 0
        ? ''
        : html`<div class="actions" role="group" aria-label="${label}">${actions}</div>`;
    const settingsActions = ctx.can('systems')
      ? [
          html`<a class="button secondary" href="${systemUrl(system.identifier, '/edit')}"
            >${t('sysEdit')}</a
          >`,
          html`<a
            class="button secondary"
            href="${systemUrl(system.identifier, system.active ? '/deactivate' : '/reactivate')}"
            >${t(system.active ? 'sysDeactivate' : 'sysReactivate')}</a
          >`,
        ]
      : [];
    const keyActions = [
      ...(stoppable && ctx.can('stopPreviousKey')
        ? [
            html`<a class="button secondary" href="${systemUrl(system.identifier, '/stop-previous')}"
              >${t('sysStopPrevious')}</a
            >`,
          ]
        : []),
      ...(ctx.can('systems')
        ? [
            html`<a class="button secondary" href="${systemUrl(system.identifier, '/rotate')}"
              >${t(system.hasKey ? 'sysRotate' : 'sysIssue')}</a
            >`,
          ]
        : []),
    ];
    const released =
      system.releasedCategoryIds.length === 0
        ? t('sysNoReleased')
        : html`<ul class="plain">
            ${system.releasedCategoryIds.map((id) => html`<li>${categoryName(names, id)}</li>`)}
          </ul>`;
    const links = [
      ctx.can('readRefusals')
        ? html`<li><a href="${systemUrl(system.identifier, '/refusals')}">${t('sysRefusalsLink')}</a></li>`
        : '',
      ctx.can('readTickets')
        ? html`<li><a href="${systemUrl(system.identifier, '/tickets')}">${t('sysTicketsLink')}</a></li>`
        : '',
    ];
    const body = html`<p class="crumbs"><a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a></p>
      <h1>${t('sysSystemTitle', { name: system.name })}</h1>
      <ul class="subnav">
        ${links}
      </ul>
      <h2>${t('sysSettings')}</h2>
      <div class="card">
        <dl>
          <dt>${t('colIdentifier')}</dt>
          <dd><code>${system.identifier}</code></dd>
          <dt>${t('colState')}</dt>
          <dd>${activeText(t, system.active)}</dd>
          <dt>${t('sysScopes')}</dt>
          <dd>
            ${
              system.scopes.length === 0
                ? t('sysNoScopes')
                : system.scopes.map(
                    (scope) =>
                      html`<span class="tag"
                        >${(SCOPES as readonly string[]).includes(scope) ? t(SCOPE_LABELS[scope as Scope]) : scope}
                        (<code>${scope}</code>)</span
                      >`,
                  )
            }
          </dd>
          <dt>${t('sysRate')}</dt>
          <dd>${t('sysPerMinute', { n: formatCount(system.rateLimitPerMinute, locale) })}</dd>
          <dt>${t('sysGrace')}</dt>
          <dd>${durationText(t, system.keyGraceSeconds, locale)}</dd>
          <dt>${t('sysDefaultCategory')}</dt>
          <dd>
            ${
              system.defaultCategoryId === null
                ? t('sysNoDefaultCategory')
                : categoryName(names, system.defaultCategoryId)
            }
          </dd>
          <dt>${t('sysReleasedCategories')}</dt>
          <dd>${released}</dd>
          <dt>${t('sysCreatedAt')}</dt>
          <dd>${formatInstant(system.createdAt, locale)}</dd>
          <dt>${t('sysUpdatedAt')}</dt>
          <dd>${formatInstant(system.updatedAt, locale)}</dd>
        </dl>
        ${group(t('sysSettingsActions'), settingsActions)}
      </div>
      <h2>${t('sysKeyTitle')}</h2>
      <div class="card">
        <dl>
          <dt>${t('sysKey')}</dt>
          <dd data-key-state>${keyStateText(t, system, now, locale)}</dd>
          <dt>${t('sysLastUse')}</dt>
          <dd>${system.hasKey ? instantOr(system.keyLastUsedAt, locale, t('neverUsed')) : '—'}</dd>
          ${
            stoppable
              ? html`<dt>${t('sysPreviousLastUse')}</dt>
                  <dd>${instantOr(system.previousKeyLastUsedAt, locale, t('neverUsed'))}</dd>`
              : ''
          }
        </dl>
        <p class="hint">${t('sysKeyNever')}</p>
        ${group(t('sysKeyActions'), keyActions)}
      </div>
      <h2>${t('sysHistory')}</h2>
      ${historyTable(t, locale, history.events)}`;
    return kit.send(request, reply, ctx, t('sysSystemTitle', { name: system.name }), body);
  });

  // ---- Refusals (support) ----

  kit.page<Params>('/systems/:identifier/refusals', 'readRefusals', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    let refusals: Refusal[] | null;
    try {
      refusals = await services.refusals.list({ kind: 'system', id: system.identifier });
    } catch {
      // The shared store does not answer: the page says so, as the admin API's 503 does.
      services.metrics.refusalLogFailed();
      refusals = null;
    }
    const title = t('sysRefusalsTitle', { name: system.name });
    const list =
      refusals === null
        ? html`<div class="error" role="alert">${t('sysRefusalsUnavailable')}</div>`
        : refusals.length === 0
          ? html`<p role="status">${t('sysRefusalsEmpty')}</p>`
          : html`<div class="table-wrap">
              <table class="stack" id="refusals">
                <thead>
                  <tr>
                    <th scope="col">${t('sysWhen')}</th>
                    <th scope="col" class="num">${t('sysStatus')}</th>
                    <th scope="col">${t('sysCode')}</th>
                    <th scope="col">${t('sysOperation')}</th>
                    <th scope="col">${t('sysCredential')}</th>
                    <th scope="col">${t('sysRequestId')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${refusals.map(
                    (r) =>
                      html`<tr data-request-id="${r.request_id}">
                        <td data-label="${t('sysWhen')}">${formatInstant(Date.parse(r.at), locale, true)}</td>
                        <td class="num" data-label="${t('sysStatus')}">${r.status}</td>
                        <td data-label="${t('sysCode')}">
                          ${r.code === null ? '—' : html`<code>${r.code}</code>`}
                        </td>
                        <td data-label="${t('sysOperation')}"><code>${r.operation}</code></td>
                        <td data-label="${t('sysCredential')}">
                          ${r.credential === 'previous' ? t('sysCredentialPrevious') : r.credential === 'current' ? t('sysCredentialCurrent') : (r.credential ?? '—')}
                        </td>
                        <td data-label="${t('sysRequestId')}"><code>${r.request_id}</code></td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`;
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a> ›
        <a href="${systemUrl(system.identifier)}">${system.name}</a>
      </p>
      <h1>${title}</h1>
      <p>${t('sysRefusalsIntro')}</p>
      ${list}`;
    return kit.send(request, reply, ctx, title, body);
  });

  // ---- Tickets (support) ----

  const ticketQuery = ticketQueryInput.pick({ cursor: true, external_id: true });

  kit.page<Params & { Querystring: { cursor?: string; external_id?: string } }>(
    '/systems/:identifier/tickets',
    'readTickets',
    async (request, reply, ctx) => {
      const { t, locale } = ctx;
      const system = await systems.get(identifierOf(request));
      const externalText = formText(request.query.external_id).trim();
      const parsed = ticketQuery.safeParse({
        ...(externalText === '' ? {} : { external_id: externalText }),
        ...(request.query.cursor === undefined ? {} : { cursor: formText(request.query.cursor) }),
      });
      const query = parsed.success ? parsed.data : {};
      const [page, categories, priorities] = await Promise.all([
        services.tickets.list({
          systemId: system.identifier,
          ...(query.external_id === undefined ? {} : { externalId: query.external_id }),
          ...(query.cursor === undefined ? {} : { beforeSeq: Number(query.cursor) }),
          limit: TICKETS_PER_PAGE,
        }),
        categoryNames(),
        catalog.listEntries('hd_priorities').then(namesById),
      ]);
      const title = t('sysTicketsTitle', { name: system.name });
      const pageUrl = (cursor?: string) => {
        const params = new URLSearchParams({
          ...(query.external_id === undefined ? {} : { external_id: query.external_id }),
          ...(cursor === undefined ? {} : { cursor }),
        }).toString();
        return systemUrl(system.identifier, `/tickets${params === '' ? '' : `?${params}`}`);
      };
      const description = (text: string) => {
        const shortened = truncateCodePoints(text, DESCRIPTION_SHOWN);
        if (shortened === text) return html`<span class="pre">${text}</span>`;
        return html`<details>
          <summary>${shortened}…</summary>
          <p class="pre">${text}</p>
        </details>`;
      };
      const list =
        page.tickets.length === 0
          ? html`<p role="status">
              ${query.external_id === undefined ? t('sysTicketsEmpty') : t('sysTicketsNoneFor', { id: query.external_id })}
            </p>`
          : html`<div class="table-wrap">
              <table class="stack" id="tickets">
                <thead>
                  <tr>
                    <th scope="col">${t('sysTicket')}</th>
                    <th scope="col">${t('sysExternalId')}</th>
                    <th scope="col">${t('sysCreated')}</th>
                    <th scope="col">${t('sysCategory')}</th>
                    <th scope="col">${t('sysPriority')}</th>
                    <th scope="col">${t('sysCompany')}</th>
                    <th scope="col">${t('sysDescription')}</th>
                    <th scope="col">${t('sysRequester')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${page.tickets.map(
                    (ticket) =>
                      html`<tr data-ticket="${ticket.number}">
                        <td data-label="${t('sysTicket')}">
                          <strong>${ticket.number}</strong><span class="help mono">${ticket.id}</span>
                        </td>
                        <td data-label="${t('sysExternalId')}"><code>${ticket.externalId}</code></td>
                        <td data-label="${t('sysCreated')}">
                          ${formatInstant(ticket.createdAt, locale)}
                          ${ticket.source === 'webhook' ? html`<span class="help">${t('sysViaWebhook')}</span>` : ''}
                        </td>
                        <td data-label="${t('sysCategory')}">
                          ${ticket.categoryId === null ? '—' : categoryName(categories, ticket.categoryId)}
                        </td>
                        <td data-label="${t('sysPriority')}">
                          ${ticket.priorityId === null ? '—' : categoryName(priorities, ticket.priorityId)}
                        </td>
                        <td data-label="${t('sysCompany')}"><code>${ticket.companyId}</code></td>
                        <td data-label="${t('sysDescription')}">${description(ticket.description)}</td>
                        <td data-label="${t('sysRequester')}">
                          ${ticket.requesterName ?? '—'}
                          ${ticket.requesterContact === null ? '' : html`<span class="help">${ticket.requesterContact}</span>`}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`;
      const body = html`<p class="crumbs">
          <a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a> ›
          <a href="${systemUrl(system.identifier)}">${system.name}</a>
        </p>
        <h1>${title}</h1>
        <p>${t('sysTicketsIntro')}</p>
        <form method="get" action="${systemUrl(system.identifier, '/tickets')}" role="search" class="card">
          ${textField({
            name: 'external_id',
            label: t('sysExternalId'),
            value: externalText,
            hint: t('sysExternalIdHint'),
            error:
              parsed.success || parsed.error.issues.every((i) => i.path[0] !== 'external_id')
                ? undefined
                : t('sysExternalIdRule'),
          })}
          <div class="actions">
            <button type="submit">${t('sysFilterButton')}</button>
            ${query.external_id === undefined ? '' : html`<a href="${pageUrl()}">${t('sysFilterClear')}</a>`}
          </div>
        </form>
        ${
          !parsed.success && parsed.error.issues.some((i) => i.path[0] === 'cursor')
            ? html`<div class="error" role="alert">${t('sysCursorWrong')}</div>`
            : ''
        }
        ${list}
        <nav aria-label="${t('sysPages')}" class="actions">
          ${query.cursor === undefined ? '' : html`<a href="${pageUrl()}">${t('sysFirstPage')}</a>`}
          ${page.nextBeforeSeq === null ? '' : html`<a class="button secondary" href="${pageUrl(String(page.nextBeforeSeq))}" rel="next">${t('sysNextPage')}</a>`}
        </nav>`;
      return kit.send(request, reply, ctx, title, body);
    },
  );

  // ---- Stop the previous key (support and operator) ----

  kit.page<Params>('/systems/:identifier/stop-previous', 'stopPreviousKey', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    const title = t('sysStopTitle', { name: system.name });
    const back = html`<a href="${systemUrl(system.identifier)}"
      >${t('sysBackToSystem', { name: system.name })}</a
    >`;
    if (!previousValid(system, clock.now())) {
      return kit.send(
        request,
        reply,
        ctx,
        title,
        html`<div class="card narrow">
          <h1>${title}</h1>
          <p role="status">${t('sysStopNone')}</p>
          <p>${back}</p>
        </div>`,
      );
    }
    const body = html`<h1>${title}</h1>
      <form method="post" action="${systemUrl(system.identifier, '/stop-previous')}" class="card">
        ${csrfField(ctx.csrf)}
        <p>
          ${t('sysStopIntro', {
            until: formatInstant(system.previousValidUntil ?? 0, locale),
            used: instantOr(system.previousKeyLastUsedAt, locale, t('neverUsed')),
          })}
        </p>
        <p>${t('sysStopEffect')}</p>
        <div class="actions">
          <button type="submit" class="danger">${t('sysStopConfirm')}</button>
          ${back}
        </div>
      </form>`;
    return kit.send(request, reply, ctx, title, body);
  });

  kit.action<Params>('/systems/:identifier/stop-previous', 'stopPreviousKey', async (request, reply, ctx) => {
    const identifier = identifierOf(request);
    const result = await systems.stopPreviousKey(identifier, ctx.actor);
    await kit.record(ctx, {
      action: 'stopPreviousHelpDeskSystemKey',
      target: targetOf(identifier, '/keys/stop-previous'),
      details: { request_id: request.id, stopped: result.stopped },
    });
    kit.flash(request, ctx.t(result.stopped ? 'sysStopped' : 'sysStopNone', { name: result.system.name }));
    return kit.redirect(reply, `/systems/${encodeURIComponent(identifier)}`);
  });

  // ---- Settings (the operator) ----

  const editPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    system: PartnerSystem,
    form: SystemForm,
    errors: FormErrors,
    status = 200,
  ) => {
    const { t } = ctx;
    const title = t('sysEditTitle', { name: system.name });
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a> ›
        <a href="${systemUrl(system.identifier)}">${system.name}</a>
      </p>
      <h1>${title}</h1>
      <p>${t('sysEditIntro', { identifier: system.identifier })}</p>
      ${await systemForm(ctx, {
        action: systemUrl(system.identifier, '/edit'),
        form,
        errors,
        creating: false,
        submit: t('sysSave'),
      })}`;
    return kit.send(request, reply, ctx, title, body, { status });
  };

  kit.page<Params>('/systems/:identifier/edit', 'systems', async (request, reply, ctx) => {
    const system = await systems.get(identifierOf(request));
    return editPage(request, reply, ctx, system, formFromSystem(system), {});
  });

  kit.action<Params & { Body: Record<string, unknown> }>(
    '/systems/:identifier/edit',
    'systems',
    async (request, reply, ctx) => {
      const { t } = ctx;
      const system = await systems.get(identifierOf(request));
      const form = formOf(request.body, system.identifier);
      const check = checked(ctx, form, false);
      if (!check.ok) return editPage(request, reply, ctx, system, form, check.errors, 422);
      try {
        // PUT keeps the keys: a change of settings never issues, rotates or stops one.
        await systems.put(system.identifier, check.input, ctx.actor);
      } catch (error) {
        const errors = problemFormErrors(error);
        if (errors === null) throw error;
        return editPage(request, reply, ctx, system, form, serviceErrors(t, errors), 422);
      }
      await kit.record(ctx, {
        action: 'putHelpDeskSystem',
        target: targetOf(system.identifier),
        details: { request_id: request.id, body: check.input },
      });
      kit.flash(request, t('sysSaved', { name: check.input.name }));
      return kit.redirect(reply, `/systems/${encodeURIComponent(system.identifier)}`);
    },
  );

  // ---- Deactivate, reactivate (the operator) ----

  for (const [path, active] of [
    ['/deactivate', false],
    ['/reactivate', true],
  ] as const) {
    const words = active
      ? ({
          title: 'sysReactivateTitle',
          intro: 'sysReactivateIntro',
          button: 'sysReactivate',
          done: 'sysReactivated',
        } as const)
      : ({
          title: 'sysDeactivateTitle',
          intro: 'sysDeactivateIntro',
          button: 'sysDeactivate',
          done: 'sysDeactivated',
        } as const);

    kit.page<Params>(`/systems/:identifier${path}`, 'systems', async (request, reply, ctx) => {
      const { t } = ctx;
      const system = await systems.get(identifierOf(request));
      const title = t(words.title, { name: system.name });
      const back = html`<a href="${systemUrl(system.identifier)}">${t('sysCancel')}</a>`;
      const body =
        system.active === active
          ? html`<div class="card narrow">
              <h1>${title}</h1>
              <p role="status">
                ${t(active ? 'sysAlreadyActive' : 'sysAlreadyInactive', { name: system.name })}
              </p>
              <p>${back}</p>
            </div>`
          : html`<h1>${title}</h1>
              <form method="post" action="${systemUrl(system.identifier, path)}" class="card">
                ${csrfField(ctx.csrf)}
                <p>${t(words.intro, { name: system.name, identifier: system.identifier })}</p>
                <div class="actions">
                  <button type="submit" class="${active ? '' : 'danger'}">${t(words.button)}</button>
                  ${back}
                </div>
              </form>`;
      return kit.send(request, reply, ctx, title, body);
    });

    kit.action<Params>(`/systems/:identifier${path}`, 'systems', async (request, reply, ctx) => {
      const system = await systems.get(identifierOf(request));
      const input = inputOf(system, active);
      await systems.put(system.identifier, input, ctx.actor);
      await kit.record(ctx, {
        action: 'putHelpDeskSystem',
        target: targetOf(system.identifier),
        details: { request_id: request.id, body: input },
      });
      kit.flash(request, ctx.t(words.done, { name: system.name }));
      return kit.redirect(reply, `/systems/${encodeURIComponent(system.identifier)}`);
    });
  }

  // ---- Rotate (the operator) ----

  kit.page<Params>('/systems/:identifier/rotate', 'systems', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    const now = clock.now();
    const title = t(system.hasKey ? 'sysRotateTitle' : 'sysIssueTitle', { name: system.name });
    const explained = !system.hasKey
      ? html`<p>${t('sysIssueIntro')}</p>`
      : html`<p>
            ${
              system.keyGraceSeconds === 0
                ? t('sysRotateNoGrace')
                : t('sysRotateIntro', {
                    grace: durationText(t, system.keyGraceSeconds, locale),
                    until: formatInstant(now + system.keyGraceSeconds * 1000, locale),
                  })
            }
          </p>
          ${
            previousValid(system, now)
              ? html`<div class="warning" role="status">
                  ${t('sysRotateEndsPrevious', { until: formatInstant(system.previousValidUntil ?? 0, locale) })}
                </div>`
              : ''
          }`;
    const body = html`<h1>${title}</h1>
      <form method="post" action="${systemUrl(system.identifier, '/rotate')}" class="card">
        ${csrfField(ctx.csrf)} ${explained}
        <p>${t('sysRotateOnce')}</p>
        <div class="actions">
          <button type="submit">${t(system.hasKey ? 'sysRotate' : 'sysIssue')}</button>
          <a href="${systemUrl(system.identifier)}">${t('sysCancel')}</a>
        </div>
      </form>`;
    return kit.send(request, reply, ctx, title, body);
  });

  kit.action<Params>('/systems/:identifier/rotate', 'systems', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    const rotation = await systems.rotateKey(system.identifier, ctx.actor);
    await kit.record(ctx, {
      action: 'rotateHelpDeskSystemKey',
      target: targetOf(system.identifier, '/keys/rotate'),
      details: {
        request_id: request.id,
        previous_valid_until:
          rotation.previousValidUntil === null ? null : new Date(rotation.previousValidUntil).toISOString(),
      },
    });
    const title = t(system.hasKey ? 'sysRotatedTitle' : 'sysIssuedTitle', { name: system.name });
    const extra =
      rotation.previousValidUntil === null
        ? html`<p>${t('sysIssuedFirst')}</p>`
        : html`<p>
            ${t('sysRotatedPrevious', { until: formatInstant(rotation.previousValidUntil, locale) })}
          </p>`;
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        ${shownOnceSecret(rotation.key, onceTexts(t), extra)}
        <p><a href="${systemUrl(system.identifier)}">${t('sysBackToSystem', { name: system.name })}</a></p>`,
      { status: 201 },
    );
  });
}

/** The key's history from the audit trail, newest first: when, what, who, through which face. */
function historyTable(t: T, locale: Locale, events: readonly KeyAuditEvent[]): SafeHtml {
  if (events.length === 0) return html`<p>${t('historyEmpty')}</p>`;
  return html`<div class="table-wrap">
    <table class="stack" id="history">
      <thead>
        <tr>
          <th scope="col">${t('sysWhen')}</th>
          <th scope="col">${t('historyWhat')}</th>
          <th scope="col">${t('historyWho')}</th>
          <th scope="col">${t('sysChannel')}</th>
          <th scope="col">${t('sysDetails')}</th>
        </tr>
      </thead>
      <tbody>
        ${events.map(
          (event) =>
            html`<tr data-event="${event.event}">
              <td data-label="${t('sysWhen')}">${formatInstant(event.occurredAt, locale)}</td>
              <td data-label="${t('historyWhat')}">${t(EVENT_TEXTS[event.event])}</td>
              <td data-label="${t('historyWho')}">${actorText(t, event.actor)}</td>
              <td data-label="${t('sysChannel')}">${channelText(t, event.actor.channel)}</td>
              <td data-label="${t('sysDetails')}">${eventDetails(t, locale, event)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** What an event's details say that a person needs: the settings changed, the end of a grace. */
function eventDetails(t: T, locale: Locale, event: KeyAuditEvent): SafeHtml | string {
  const { details } = event;
  if (event.event === 'edited' && typeof details.changes === 'object' && details.changes !== null) {
    const changes = Object.entries(details.changes as Record<string, { before?: unknown; after?: unknown }>);
    return html`<ul class="plain">
      ${changes.map(
        ([name, change]) =>
          html`<li>
            <code>${name}</code>: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}
          </li>`,
      )}
    </ul>`;
  }
  if (event.event === 'rotated' && typeof details.previous_valid_until === 'string') {
    const until = t('sysDetailPreviousUntil', {
      until: formatInstant(Date.parse(details.previous_valid_until), locale),
    });
    return details.older_previous_ended === true ? `${until} ${t('sysDetailOlderEnded')}` : until;
  }
  if (event.event === 'previous_stopped' && details.was_in_grace === false) return t('sysDetailNotInGrace');
  return '—';
}
