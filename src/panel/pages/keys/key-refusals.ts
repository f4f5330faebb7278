import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFUSALS_KEPT, type Refusal } from '../../../observability/refusal-log.js';
import type { PosKey } from '../../../pos/keys/merchant-key.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { refusalTable } from '../../../web/refusal-table.js';
import { PANEL_PREFIX, type PanelContext, type PanelKit } from '../../panel-kit.js';
import { keyUrl } from './key-words.js';

// The recent refusals of the account's keys (docs/back-office.md, The merchant panel; docs/operations.md, Why
// did my call fail): which calls of an integration the data API refused, with the code (linked to its
// explanation), the parameter and detail the integration read, and the request id support asks for.
// Only the signed-in user's own account is ever read: the refusal log is read by the session's account,
// and a key of another account is not found. The log keeps the account's last 100 refusals; a key's
// page shows those of that key among them.
//   GET /keys/refusals       every key of the account, each row naming its key
//   GET /keys/:id/refusals   one key's

/** The account's refusals, or null when the shared store does not answer (counted as the admin API does). */
async function accountRefusals(kit: PanelKit, accountId: string): Promise<Refusal[] | null> {
  try {
    return await kit.services.refusals.list({ kind: 'account', id: accountId });
  } catch {
    kit.services.metrics.refusalLogFailed();
    return null;
  }
}

/** The page: the list, its empty state, or the store's failure (503: the page says so). */
function sendRefusals(
  kit: PanelKit,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: PanelContext,
  page: {
    title: string;
    crumbs: SafeHtml;
    refusals: Refusal[] | null;
    empty: string;
    table: (list: Refusal[]) => SafeHtml;
    back: SafeHtml;
  },
): FastifyReply {
  const { t } = ctx;
  const { refusals } = page;
  const list =
    refusals === null
      ? html`<div class="error" role="alert">${t('refusalsUnavailable')}</div>`
      : refusals.length === 0
        ? html`<p role="status">${page.empty}</p>`
        : html`<p role="status">${t('refusalsCount', { count: refusals.length })}</p>
            ${page.table(refusals)}`;
  const body = html`<p class="crumbs">${page.crumbs}</p>
    <h1>${page.title}</h1>
    <p class="hint">${t('refusalsIntro', { kept: REFUSALS_KEPT })}</p>
    ${list}
    <p>${page.back}</p>`;
  return kit.send(request, reply, ctx, page.title, body, { status: refusals === null ? 503 : 200 });
}

/** Registers the refusal pages of the keys. */
export function registerKeyRefusals(kit: PanelKit): void {
  const { merchantKeys } = kit.services;
  const keysCrumb = (ctx: PanelContext) =>
    html`<a href="${PANEL_PREFIX}/keys">${ctx.t('keysBreadcrumb')}</a>`;

  kit.page('/keys/refusals', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const keys = new Map<string, PosKey>(
      (await merchantKeys.list(ctx.user.accountId)).map((key) => [key.id, key]),
    );
    const title = t('refusalsAccountTitle');
    return sendRefusals(kit, request, reply, ctx, {
      title,
      crumbs: html`${keysCrumb(ctx)} › ${title}`,
      refusals: await accountRefusals(kit, ctx.user.accountId),
      empty: t('refusalsAccountEmpty'),
      table: (list) =>
        refusalTable(list, {
          t,
          locale,
          docsOrigin: '',
          key: (credential) => {
            const key = credential === null ? undefined : keys.get(credential);
            return key === undefined
              ? (credential ?? '—')
              : html`<a href="${keyUrl(key.id, '/refusals')}">${key.name}</a>`;
          },
        }),
      back: html`<a href="${PANEL_PREFIX}/keys">${t('backHome')}</a>`,
    });
  });

  kit.page<{ Params: { id: string } }>('/keys/:id/refusals', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    // A key of another account, or none, is not found: the account's log is never read for it.
    const key = await merchantKeys.get(ctx.user.accountId, request.params.id);
    const refusals = await accountRefusals(kit, ctx.user.accountId);
    const title = t('refusalsKeyTitle', { name: key.name });
    return sendRefusals(kit, request, reply, ctx, {
      title,
      crumbs: html`${keysCrumb(ctx)} › <a href="${keyUrl(key.id)}">${key.name}</a> › ${t('refusalsLink')}`,
      refusals: refusals?.filter((refusal) => refusal.credential === key.id) ?? null,
      empty: t('refusalsKeyEmpty', { kept: REFUSALS_KEPT }),
      table: (list) => refusalTable(list, { t, locale, docsOrigin: '' }),
      back: html`<a href="${keyUrl(key.id)}">${t('keyTitle', { name: key.name })}</a> ·
        <a href="${PANEL_PREFIX}/keys/refusals">${t('refusalsAllLink')}</a>`,
    });
  });
}
