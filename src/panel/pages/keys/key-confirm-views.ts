import type { PosKey } from '../../../pos/keys/merchant-key.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { PanelContext } from '../../panel-kit.js';
import { keyUrl } from './key-words.js';

// The forms that confirm a change of a key that cannot be undone: rolling it, revoking it.

/** The form that rolls a key: the old text works `hours` more unless ended now. */
export function keyRotateView(ctx: PanelContext, key: PosKey, hours: number): SafeHtml {
  return html` <h1>${ctx.t('rotateTitle', { name: key.name })}</h1>
    <form method="post" action="${keyUrl(key.id, '/rotate')}" class="card">
      ${csrfField(ctx.csrf)}
      <p>${ctx.t('rotateIntro', { hours })}</p>
      <label
        ><input type="checkbox" name="invalidate_current" value="true" aria-describedby="invalidate-hint" />
        <span>${ctx.t('invalidateNow')}</span></label
      >
      <p class="hint" id="invalidate-hint">${ctx.t('invalidateNowHint')}</p>
      <div class="actions">
        <button type="submit">${ctx.t('rotateButton')}</button>
        <a href="${keyUrl(key.id)}">${ctx.t('cancel')}</a>
      </div>
    </form>`;
}

/** The form that confirms a key's revocation. */
export function keyRevokeView(ctx: PanelContext, key: PosKey): SafeHtml {
  return html` <h1>${ctx.t('revokeTitle', { name: key.name })}</h1>
    <form method="post" action="${keyUrl(key.id, '/revoke')}" class="card">
      ${csrfField(ctx.csrf)}
      <p>${ctx.t('revokeIntro', { name: key.name })}</p>
      <div class="actions">
        <button type="submit" class="danger">${ctx.t('revokeConfirm', { name: key.name })}</button>
        <a href="${keyUrl(key.id)}">${ctx.t('cancel')}</a>
      </div>
    </form>`;
}
