import { html, type SafeHtml } from './html.js';

// A secret shown once (a new key, a set-password link), the same way on every web face: a warning that
// it cannot be shown again, the text in a read-only field tied to the warning, and a copy button that the
// face's script reveals (COPY_BUTTON_SCRIPT; without the script the text is there to select). A page shows
// it only in the answer to the post that made the secret, never on a page that can be asked for again.

/** The words around a secret shown once, in the page's language. */
export interface ShownOnceTexts {
  /** Why it must be copied now (`Copy the key now: it cannot be shown again…`). */
  warning: string;
  /** The field's label (`Key`). */
  label: string;
  /** The copy button (`Copy key`). */
  copy: string;
  /** What the button says once it copied (`Key copied.`). */
  copied: string;
}

/** The warning, then a card with the secret, its copy button, and what the page adds below (`extra`). */
export function shownOnceSecret(
  secret: string,
  texts: ShownOnceTexts,
  extra: SafeHtml | string = '',
): SafeHtml {
  // Enough rows for the whole text at a phone's width (about 34 characters a row): a set-password
  // link is twice a key's length, and a text cut off at the bottom looks complete.
  const rows = Math.max(2, Math.ceil(secret.length / 34));
  return html`<div class="warning" role="status" id="once-warning">${texts.warning}</div>
    <div class="card">
      <label for="new-key">${texts.label}</label>
      <textarea
        class="secret"
        id="new-key"
        rows="${rows}"
        readonly
        aria-describedby="once-warning"
        spellcheck="false"
        autocomplete="off"
      >
${secret}</textarea>
      <div class="actions">
        <button
          type="button"
          data-copy="new-key"
          data-status="copy-status"
          data-done="${texts.copied}"
          hidden
        >
          ${texts.copy}
        </button>
        <span id="copy-status" role="status"></span>
      </div>
      ${extra}
    </div>`;
}
