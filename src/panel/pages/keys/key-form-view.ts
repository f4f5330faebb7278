import { formatDayText } from '../../../web/format.js';
import { html, raw, type SafeHtml } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import { PANEL_PREFIX, type PanelContext } from '../../panel-kit.js';

// The form of a new key and of a key's edit: its name, what it may read, which places, until when.
// Each field's hint and error are tied to it by aria-describedby; the errors are listed above the form.

/** The key form's values, as the key service's input takes them. */
export interface KeyForm {
  name: string;
  permissions: string[];
  places: 'all' | string[];
  expires_on: string;
}

/** What the key form shows. */
export interface KeyFormView {
  /** Where the form posts. */
  action: string;
  values: KeyForm;
  /** The message of each field in error, by the field's name. */
  errors: Record<string, string>;
  submit: string;
  title: string;
  notice?: SafeHtml;
  /** The account's places, to choose among. */
  places: readonly { id: string; name: string | null }[];
  /** The first and last day a key may be valid until (today, and the longest validity from today). */
  min: string;
  max: string;
}

/** The key form, with the values typed and the errors found. */
export function keyFormView(ctx: Pick<PanelContext, 't' | 'locale' | 'csrf'>, view: KeyFormView): SafeHtml {
  const { values, errors } = view;
  const fieldError = (name: string) =>
    errors[name] === undefined ? '' : html`<p class="field-error" id="${name}-error">${errors[name]}</p>`;
  const described = (name: string, hint?: string) => {
    const ids = [hint, errors[name] === undefined ? undefined : `${name}-error`].filter(
      (x) => x !== undefined,
    );
    return ids.length === 0 ? '' : html` aria-describedby="${ids.join(' ')}"`;
  };
  const chosen = values.places === 'all' ? [] : values.places;
  const perms = [
    { value: 'sale-by-payment-method.view', label: ctx.t('permSales'), help: ctx.t('permSalesHelp') },
    { value: 'event.view', label: ctx.t('permEvents'), help: ctx.t('permEventsHelp') },
  ];
  return html` <h1>${view.title}</h1>
    ${view.notice ?? ''}
    ${
      Object.keys(errors).length === 0
        ? ''
        : html`<div class="error" role="alert">
            <p>${ctx.t('errorsTitle')}</p>
            <ul>
              ${Object.values(errors).map((e) => html`<li>${e}</li>`)}
            </ul>
          </div>`
    }
    <form method="post" action="${view.action}" class="card" novalidate>
      ${csrfField(ctx.csrf)}
      <label for="name">${ctx.t('keyName')}</label>
      <input
        type="text"
        id="name"
        name="name"
        maxlength="200"
        required
        value="${values.name}"
        ${described('name', 'name-hint')}
      />
      <p class="hint" id="name-hint">${ctx.t('keyNameHint')}</p>
      ${fieldError('name')}
      <fieldset>
        <legend>${ctx.t('permissions')}</legend>
        ${perms.map(
          (p) =>
            html`<label
              ><input
                type="checkbox"
                name="permission"
                value="${p.value}"
                ${values.permissions.includes(p.value) ? raw(' checked') : ''}
              />
              <span>${p.label}<span class="help">${p.help}</span></span></label
            >`,
        )}
        <p class="hint">${ctx.t('permAlways')}</p>
        ${fieldError('permissions')}
      </fieldset>
      <fieldset>
        <legend>${ctx.t('places')}</legend>
        <label
          ><input
            type="radio"
            name="places"
            value="all"
            id="places-all"
            ${values.places === 'all' ? raw(' checked') : ''}
          /><span>${ctx.t('placesAll')}</span></label
        >
        <label
          ><input
            type="radio"
            name="places"
            value="chosen"
            id="places-chosen"
            ${values.places === 'all' ? '' : raw(' checked')}
          /><span>${ctx.t('placesChosen')}</span></label
        >
        <div class="places">
          ${view.places.map(
            (place) =>
              html`<label
                ><input
                  type="checkbox"
                  name="place"
                  value="${place.id}"
                  ${chosen.includes(place.id) ? raw(' checked') : ''}
                />
                <span>${place.name ?? place.id} <span class="help">${place.id}</span></span></label
              >`,
          )}
        </div>
        ${fieldError('places')}
      </fieldset>
      <label for="expires_on">${ctx.t('validUntil')}</label>
      <input
        type="date"
        id="expires_on"
        name="expires_on"
        min="${view.min}"
        max="${view.max}"
        required
        value="${values.expires_on}"
        ${described('expires_on', 'validity-hint')}
      />
      <p class="hint" id="validity-hint">
        ${ctx.t('validityHint', { max: formatDayText(view.max, ctx.locale) })}
      </p>
      ${fieldError('expires_on')}
      <div class="actions">
        <button type="submit">${view.submit}</button>
        <a href="${PANEL_PREFIX}/keys">${ctx.t('cancel')}</a>
      </div>
    </form>`;
}
