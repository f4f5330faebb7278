import type { FastifyInstance } from 'fastify';
import type { SignInLimits } from '../identity/sign-in-limit.js';
import { registerFace } from '../web/face.js';
import { html } from '../web/html.js';
import { panelAssets } from './panel-assets.js';
import { PANEL_PREFIX, panelKit, type PanelServices } from './panel-kit.js';
import { PANEL_MESSAGES } from './panel-messages.js';
import { registerKeyPages } from './pages/keys/keys.js';
import { registerPasswordReset } from './pages/password-reset.js';
import { registerReportPages } from './pages/reports/reports.js';

// The merchant panel (issue 13) under /panel/ on the public listener: sign-in, password pages, the
// account's API keys ("Opções da conta > Integrações > Chaves de API") and the two financial reports.
// Handlers are thin over the service layer: keys through the merchant key service, as the admin API;
// figures through the sales service, as GET /v1/api-public/sales/by-payment-method. A page a file under
// pages/, as the navigation reads.

/** What the panel is built from. */
export interface PanelDeps {
  services: PanelServices;
  /** The identity pages' limits (tests shorten them). */
  signInLimits?: Partial<SignInLimits>;
}

const SESSION_IDLE_MS = 8 * 3_600_000;

/** Registers the panel under /panel on the public listener. */
export function registerPanel(app: FastifyInstance, deps: PanelDeps): void {
  const { services } = deps;
  registerFace(app, {
    name: 'panel',
    prefix: PANEL_PREFIX,
    cookieName: 'panel_session',
    catalogue: PANEL_MESSAGES,
    users: services.merchantUsers,
    deps: services,
    signInLimits: deps.signInLimits,
    idleMs: SESSION_IDLE_MS,
    home: '/keys',
    nav: (_user, t) =>
      (
        [
          ['/keys', 'navKeys'],
          ['/reports/receipts', 'navReceipts'],
          ['/reports/brands', 'navBrands'],
          ['/account/password', 'navPassword'],
        ] as const
      ).map(([href, label]) => ({ href, label: t(label) })),
    assets: panelAssets,
    signInLinks: (ctx) => html`<a href="${PANEL_PREFIX}/password-reset">${ctx.t('forgotPassword')}</a>`,
    pages: (panel, face) => {
      const kit = panelKit(panel, face, services);
      registerPasswordReset(panel, kit);
      registerKeyPages(kit);
      registerReportPages(kit);
    },
  });
}
