import { randomBytes } from 'node:crypto';
import { DEMO_ACCOUNT } from '../pos/demo.js';
import type { Services } from '../services.js';

// The demo merchant's panel user (issue 13: "the first start prints its e-mail and password beside the
// keys"): created with the point-of-sale demo, by the server's first start and by the CLI's `demo`; its
// password is random and shown this once, like the keys.

const DEMO_PANEL_EMAIL = 'demo@example.com';

/** Creates the demo user of the demo account; returns the e-mail and password to print. */
export async function seedPanelDemoUser(
  services: Pick<Services, 'merchantUsers'>,
): Promise<{ email: string; password: string }> {
  const password = randomBytes(12).toString('base64url');
  await services.merchantUsers.ensureWithPassword(DEMO_ACCOUNT, DEMO_PANEL_EMAIL, 'Demo', password);
  return { email: DEMO_PANEL_EMAIL, password };
}
