import { html, type SafeHtml } from './html.js';
import type { Locale } from './i18n.js';

// The frame of every page of a web face: language, title, a skip link to the content, the face's
// navigation, the signed-in user with a sign-out button, a language switch, and one message after a
// redirect, announced to screen readers. Forms carry the CSRF token; nothing inline is scripted.

/** One link of the face's navigation. */
export interface NavItem {
  href: string;
  label: string;
  current: boolean;
}

/** What the frame shows around a page's content. */
export interface LayoutInput {
  locale: Locale;
  /** The page's own title (before the face's name in the window title). */
  title: string;
  faceName: string;
  /** The face's home, where its name links. */
  home: string;
  nav: NavItem[];
  /** The signed-in user's name, null on the sign-in pages. */
  userName: string | null;
  csrfToken: string;
  flash: string | null;
  body: SafeHtml;
  stylesheet: string;
  /** The tab's icon (an SVG of the face's files). */
  icon: string;
  scripts: string[];
  labels: {
    skip: string;
    signOut: string;
    language: string;
    signedInAs: string;
    navigation: string;
  };
  /** The page's own path and query, where the language switch comes back to. */
  currentUrl: string;
  /** Where the sign-out and language forms post. */
  signOutAction: string;
  languageAction: string;
}

/** The hidden CSRF field of a form. */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}" />`;
}

/** A whole page. */
export function layout(input: LayoutInput): string {
  const other: Locale = input.locale === 'pt-BR' ? 'en' : 'pt-BR';
  const otherName = other === 'en' ? 'English' : 'Português';
  return html`<!doctype html>
    <html lang="${input.locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${input.title} · ${input.faceName}</title>
        <link rel="icon" href="${input.icon}" type="image/svg+xml" />
        <link rel="stylesheet" href="${input.stylesheet}" />
        ${input.scripts.map((src) => html`<script src="${src}" defer></script>`)}
      </head>
      <body>
        <a class="skip" href="#main">${input.labels.skip}</a>
        <header class="top">
          <a class="brand" href="${input.home}">${input.faceName}</a>
          ${
            input.nav.length === 0
              ? ''
              : html`<nav aria-label="${input.labels.navigation}">
                  <ul>
                    ${input.nav.map(
                      (item) =>
                        html`<li>
                          <a href="${item.href}" ${item.current ? html` aria-current="page"` : ''}
                            >${item.label}</a
                          >
                        </li>`,
                    )}
                  </ul>
                </nav>`
          }
          <div class="session">
            <form method="post" action="${input.languageAction}" class="inline">
              ${csrfField(input.csrfToken)}
              <input type="hidden" name="lang" value="${other}" />
              <input type="hidden" name="back" value="${input.currentUrl}" />
              <button
                type="submit"
                class="link"
                lang="${other}"
                aria-label="${input.labels.language}: ${otherName}"
              >
                ${otherName}
              </button>
            </form>
            ${
              input.userName === null
                ? ''
                : html`<span class="who">${input.labels.signedInAs} <strong>${input.userName}</strong></span>
                    <form method="post" action="${input.signOutAction}" class="inline">
                      ${csrfField(input.csrfToken)}
                      <button type="submit" class="secondary">${input.labels.signOut}</button>
                    </form>`
            }
          </div>
        </header>
        <main id="main" tabindex="-1">
          ${input.flash === null ? '' : html`<div class="flash" role="status">${input.flash}</div>`}
          ${input.body}
        </main>
      </body>
    </html>`.text;
}
