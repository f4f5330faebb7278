import { formatInstant } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { staffUrl, ROLE_NAME, stateOf } from './staff-views.js';

// The staff users, with a link to a fresh set-password link and to disabling each (GET /console/staff).

export function registerStaffListPage(kit: ConsoleKit): void {
  const { staffUsers } = kit.services;

  kit.page('/staff', 'staff', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const users = await staffUsers.list();
    const body = html`<h1>${t('staffTitle')}</h1>
      <p>${t('staffIntro')}</p>
      <p><a class="button" href="${CONSOLE_PREFIX}/staff/new">${t('staffAdd')}</a></p>
      <div class="table-wrap">
        <table class="stack" id="staff-users">
          <thead>
            <tr>
              <th scope="col">${t('staffColName')}</th>
              <th scope="col">${t('staffColEmail')}</th>
              <th scope="col">${t('staffColRole')}</th>
              <th scope="col">${t('staffColState')}</th>
              <th scope="col">${t('staffColCreated')}</th>
              <th scope="col">${t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            ${users.map((user) => {
              const self = user.id === ctx.user.id;
              const live = user.disabledAt === null;
              return html`<tr data-user="${user.email}">
                <th scope="row">
                  ${user.name}${self ? html` <span class="help">${t('staffYou')}</span>` : ''}
                </th>
                <td data-label="${t('staffColEmail')}">${user.email}</td>
                <td data-label="${t('staffColRole')}">${t(ROLE_NAME[user.role])}</td>
                <td data-label="${t('staffColState')}">${stateOf(t, locale, user)}</td>
                <td data-label="${t('staffColCreated')}">${formatInstant(user.createdAt, locale)}</td>
                <td data-label="${t('actions')}">
                  ${
                    live
                      ? html`<ul class="row-actions">
                          <li>
                            <a
                              href="${staffUrl(user.id, 'link')}"
                              aria-label="${t('staffLinkActionFor', { name: user.name })}"
                              >${t('staffLinkAction')}</a
                            >
                          </li>
                          ${
                            self
                              ? ''
                              : html`<li>
                                  <a
                                    href="${staffUrl(user.id, 'disable')}"
                                    aria-label="${t('staffDisableActionFor', { name: user.name })}"
                                    >${t('staffDisableAction')}</a
                                  >
                                </li>`
                          }
                        </ul>`
                      : '—'
                  }
                </td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>`;
    return kit.send(request, reply, ctx, t('staffTitle'), body);
  });
}
