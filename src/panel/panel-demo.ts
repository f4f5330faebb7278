import { randomBytes } from 'node:crypto';
import { DEMO_ACCOUNT } from '../pos/demo.js';
import type { Services } from '../services.js';

// The demo merchant's panel user (issue 13: "the first start prints its e-mail and password beside the
// keys"): created with the point-of-sale demo, by the server's first start and by the CLI's `demo`; its
// password is random and shown this once, like the keys. `partner-gateway demo credentials` gives it a
// new one.

const DEMO_PANEL_EMAIL = 'demo@example.com';
const DEMO_PANEL_NAME = 'Demo';

const newPassword = () => randomBytes(12).toString('base64url');

/** Creates the demo user of the demo account; returns the e-mail and password to print. */
export async function seedPanelDemoUser(
  services: Pick<Services, 'merchantUsers'>,
): Promise<{ email: string; password: string }> {
  const password = newPassword();
  await services.merchantUsers.ensureWithPassword(DEMO_ACCOUNT, DEMO_PANEL_EMAIL, DEMO_PANEL_NAME, password);
  return { email: DEMO_PANEL_EMAIL, password };
}

/** Whether the demo account has its panel user (a demo created with the panel on). */
export async function panelDemoUserExists(services: Pick<Services, 'merchantUsers'>): Promise<boolean> {
  const users = await services.merchantUsers.list(DEMO_ACCOUNT);
  return users.some((user) => user.email === DEMO_PANEL_EMAIL);
}

/** Gives the demo user a new random password (creating the user when missing); returns what to print. */
export async function renewPanelDemoPassword(
  services: Pick<Services, 'merchantUsers'>,
): Promise<{ email: string; password: string }> {
  const password = newPassword();
  await services.merchantUsers.ensureWithPassword(DEMO_ACCOUNT, DEMO_PANEL_EMAIL, DEMO_PANEL_NAME, password, {
    replace: true,
  });
  return { email: DEMO_PANEL_EMAIL, password };
}
