import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../../errors/refusals.js';
import { STAFF_ROLES, type StaffRole } from '../../../staff/staff-user-input.js';
import type { StaffPasswordLink, StaffUser } from '../../../staff/staff-user-service.js';
import { formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import type { Locale } from '../../../web/i18n.js';
import { shownOnceSecret } from '../../../web/shown-once.js';
import { ROLE_ABILITIES, type ConsoleAbility } from '../../console-gate.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import type { ConsoleMessage } from '../../console-messages.js';
import { CONSOLE_PREFIX } from '../../console-path.js';

// What the staff users' pages share: a user's links, role and state in words, the user of a path, a
// page that says why something cannot be done, and the answer that shows a set-password link once.

export type T = StaffContext['t'];

export const staffUrl = (id: string, action: 'link' | 'disable') =>
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

/** A role's name on the pages. */
export const ROLE_NAME: Readonly<Record<StaffRole, ConsoleMessage>> = {
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
export function stateOf(t: T, locale: Locale, user: StaffUser): SafeHtml {
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

/** The replies the staff users' pages share, for this kit. */
export function staffReplies(kit: ConsoleKit) {
  const { staffUsers } = kit.services;

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

  return { userOf, refusal, sendLink };
}
