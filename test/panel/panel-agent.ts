import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helper.js';

// A merchant's browser without the browser, for the panel's request-level tests: it signs a panel user
// in through the sign-in form, keeps the session cookie (and the `lang` cookie, when given), and posts
// forms url-encoded, as a browser does.

/** The password the agent's users are given. */
const PANEL_PASSWORD = 'uma frase longa e segura';

export interface PanelAgent {
  get: (url: string) => Promise<LightMyRequestResponse>;
  /** Posts the fields url-encoded (a form's `_csrf` is the caller's: `csrf(page.body)`). */
  post: (url: string, fields: Record<string, string>) => Promise<LightMyRequestResponse>;
  /** The CSRF token of the first form of a page; '' when it has none. */
  csrf: (page: string) => string;
}

/** A panel user of `account` (created with PANEL_PASSWORD), signed in; `lang: 'en'` reads in English. */
export async function signedInPanelUser(
  t: TestApp,
  user: { account: string; email: string; lang?: 'en' },
): Promise<PanelAgent> {
  await t.services.merchantUsers.ensureWithPassword(user.account, user.email, 'Ana', PANEL_PASSWORD);
  const jar = new Map<string, string>(user.lang === undefined ? [] : [['lang', user.lang]]);
  const remember = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies as { name: string; value: string }[])
      jar.set(cookie.name, cookie.value);
    return response;
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const agent: PanelAgent = {
    get: async (url) => remember(await t.call({ method: 'GET', url, headers: { cookie: cookie() } })),
    post: async (url, fields) =>
      remember(
        await t.call({
          method: 'POST',
          url,
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        }),
      ),
    csrf: (page) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '',
  };
  const form = await agent.get('/panel/sign-in');
  const done = await agent.post('/panel/sign-in', {
    _csrf: agent.csrf(form.body),
    email: user.email,
    password: PANEL_PASSWORD,
  });
  expect(done.statusCode).toBe(303);
  return agent;
}
