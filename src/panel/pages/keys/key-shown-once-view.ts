import { html, type SafeHtml } from '../../../web/html.js';
import { shownOnceSecret } from '../../../web/shown-once.js';
import { PANEL_PREFIX, type PanelContext } from '../../panel-kit.js';

/** A new key text, shown this once (after creating a key or rolling it), with what else to know. */
export function keyShownOnceView(
  ctx: PanelContext,
  key: string,
  title: string,
  extra: SafeHtml | string,
): SafeHtml {
  return html` <h1>${title}</h1>
    ${shownOnceSecret(
      key,
      {
        warning: ctx.t('shownOnce'),
        label: ctx.t('keyLabel'),
        copy: ctx.t('copy'),
        copied: ctx.t('copied'),
      },
      extra,
    )}
    <p><a href="${PANEL_PREFIX}/keys">${ctx.t('backHome')}</a></p>`;
}
