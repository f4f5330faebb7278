import type { LightMyRequestResponse } from 'fastify';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import type { StaffRole } from '../../src/staff/staff-user-input.js';
import type { StaffUser } from '../../src/staff/staff-user-service.js';
import type { TestApp } from '../helper.js';

// A staff user's browser without the browser, for the console's request-level tests: it keeps the
// session cookie, reads each form's CSRF token from the page it came from, and posts forms url-encoded,
// as a browser does; or posts a forged form (another token, or none) to prove the gate and the CSRF
// check refuse it.

/** A form's fields: a list sends the field once per value (checkboxes). */
export type FormFields = Record<string, string | readonly string[]>;

export interface ConsoleAgent {
  /** GET a console path (`/console/systems`). */
  get(path: string): Promise<LightMyRequestResponse>;
  /** Posts a form the way its page does: the CSRF token read from `from` (a GET of the page first). */
  post(path: string, fields: FormFields, from?: string): Promise<LightMyRequestResponse>;
  /** Posts a form with this CSRF token as is (a forged post). */
  postWithToken(path: string, fields: FormFields, token: string): Promise<LightMyRequestResponse>;
  /** The CSRF token of a page the user may open (to forge a post to another with a valid token). */
  csrfOf(path: string): Promise<string>;
  /** The Cookie header the agent sends (for a request it cannot make itself, an upload). */
  cookieHeader(): string;
}

function encode(fields: FormFields): string {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of typeof value === 'string' ? [value] : value) body.append(name, one);
  }
  return body.toString();
}

/** The CSRF token of the first form of a page. */
export function csrfIn(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (token === undefined) throw new Error('no CSRF token on the page');
  return token;
}

/** A signed-out agent of the console on the app's admin listener. */
export function consoleAgent(t: Pick<TestApp, 'app'>): ConsoleAgent & {
  signIn(email: string, password: string): Promise<LightMyRequestResponse>;
} {
  const cookies = new Map<string, string>();
  const keep = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0))
        cookies.delete(cookie.name);
      else cookies.set(cookie.name, cookie.value);
    }
    return response;
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const get = async (path: string) =>
    keep(await t.app.admin.inject({ method: 'GET', url: path, headers: { cookie: cookieHeader() } }));
  const postWithToken = async (path: string, fields: FormFields, token: string) =>
    keep(
      await t.app.admin.inject({
        method: 'POST',
        url: path,
        headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: encode({ ...fields, _csrf: token }),
      }),
    );
  const csrfOf = async (path: string) => csrfIn((await get(path)).body);
  return {
    get,
    postWithToken,
    csrfOf,
    cookieHeader,
    post: async (path, fields, from = path) => postWithToken(path, fields, await csrfOf(from)),
    signIn: async (email, password) =>
      postWithToken('/console/sign-in', { email, password }, await csrfOf('/console/sign-in')),
  };
}

/** A staff user whose password is set through the one-time link, as its page sets it. */
export async function staffWithPassword(
  t: Pick<TestApp, 'services'>,
  role: StaffRole,
  options: { name?: string; email?: string; password?: string } = {},
): Promise<{ user: StaffUser; email: string; name: string; password: string }> {
  const email = options.email ?? `${role}@operator.example`;
  const password = options.password ?? `${role} passphrase for the console`;
  const name = options.name ?? (role === 'operator' ? 'Olga Operadora' : 'Sérgio Suporte');
  const { user, link } = await t.services.staffUsers.create({ email, name, role }, SERVICE_ACTOR);
  const done = await t.services.staffUsers.setPasswordWithLink(
    new URL(link.url).searchParams.get('token') ?? '',
    password,
  );
  if (!done.ok) throw new Error(`the ${role}'s password was not set: ${done.reason}`);
  return { user: { ...user, active: true }, email, name, password };
}

/** A staff user with a password, and their agent signed in. */
export async function signedInStaff(
  t: Pick<TestApp, 'app' | 'services'>,
  role: StaffRole,
  options: { name?: string; email?: string; password?: string } = {},
): Promise<{ user: StaffUser; agent: ReturnType<typeof consoleAgent>; email: string; password: string }> {
  const { user, email, password } = await staffWithPassword(t, role, options);
  const agent = consoleAgent(t);
  const signedIn = await agent.signIn(email, password);
  if (signedIn.statusCode !== 303) throw new Error(`the ${role} could not sign in: ${signedIn.statusCode}`);
  return { user, agent, email, password };
}
