import type { Actor } from '../audit/actor.js';
import type { Db } from '../db/database.js';
import { Problem } from '../errors/problem.js';
import { DEMO_SYSTEM } from '../helpdesk/demo.js';
import { systemOutcomeValue } from '../helpdesk/system-refusal.js';
import { panelDemoUserExists, renewPanelDemoPassword } from '../panel/panel-demo.js';
import { DEMO_ACCOUNT, DEMO_KEY } from '../pos/demo.js';
import { keyOutcomeValue } from '../pos/keys/merchant-key-problem.js';
import type { Services } from '../services.js';

// New credentials for the demo (`partner-gateway demo credentials`, docs/getting-started.md, The demo's
// credentials): the first start prints the demo's keys and panel password once and stores only their
// hashes, so a reader who lost them gets new ones. Through the services the admin API uses, so that the
// audit trail records each rotation: the partner system's key is rotated and its previous key ended at
// once; the merchant's demo key is rotated with `invalidate_current` (created again when it was revoked
// or expired); the demo panel user gets a new password. The old secrets stop working.

/** The demo's secrets as printed: each null when that part of the demo does not exist. */
export interface DemoCredentials {
  /** The demo partner system's key (`gtes_…`). */
  ticketKey: string | null;
  /** The demo merchant's key (`gtpk_…`). */
  posKey: string | null;
  /** The demo merchant's panel user. */
  panel: { email: string; password: string } | null;
}

/** Who re-issues: the operator, on the command line of the service's machine. */
const CLI_OPERATOR: Actor = Object.freeze({ role: 'operator', channel: 'cli', ip: null });

type DemoServices = Pick<Services, 'systems' | 'merchantKeys' | 'merchantUsers'>;

/** The demo partner system's new key, the previous one ended; null when there is no system "demo". */
async function renewTicketKey(services: DemoServices, actor: Actor): Promise<string | null> {
  const rotated = await services.systems.rotateKey(DEMO_SYSTEM, actor);
  if (!rotated.ok && rotated.reason === 'unknown_system') return null;
  const { key } = systemOutcomeValue(rotated);
  systemOutcomeValue(await services.systems.stopPreviousKey(DEMO_SYSTEM, actor));
  return key;
}

/** The demo merchant's keys; null when there is no account "demo". */
async function demoKeys(services: DemoServices) {
  try {
    return await services.merchantKeys.list(DEMO_ACCOUNT);
  } catch (error) {
    if (error instanceof Problem && error.code === 'not_found') return null;
    throw error;
  }
}

/** The demo merchant's new key, the old text ended at once; null when there is no account "demo". */
async function renewPosKey(services: DemoServices, actor: Actor): Promise<string | null> {
  const keys = await demoKeys(services);
  if (keys === null) return null;
  const { merchantKeys } = services;
  const current = keys.find(
    (key) => key.name === DEMO_KEY.name && (key.state === 'active' || key.state === 'paused'),
  );
  if (current === undefined) {
    const input = { ...DEMO_KEY, permissions: [...DEMO_KEY.permissions] };
    return keyOutcomeValue(await merchantKeys.create(DEMO_ACCOUNT, input, actor)).key;
  }
  if (current.paused) keyOutcomeValue(await merchantKeys.reactivate(DEMO_ACCOUNT, current.id, actor));
  const rotated = await merchantKeys.rotate(DEMO_ACCOUNT, current.id, { invalidate_current: true }, actor);
  return keyOutcomeValue(rotated).key;
}

/**
 * Re-issues the demo's credentials; null when the database holds no demo (neither the partner system
 * "demo" nor the account "demo"). The panel user gets a password when it exists, or when `panel` (the
 * panel is on) and the demo account does.
 */
export async function reissueDemoCredentials(
  services: DemoServices,
  options: { panel: boolean; actor?: Actor },
): Promise<DemoCredentials | null> {
  const actor = options.actor ?? CLI_OPERATOR;
  const ticketKey = await renewTicketKey(services, actor);
  const posKey = await renewPosKey(services, actor);
  if (ticketKey === null && posKey === null) return null;
  const renewPanel = posKey !== null && (options.panel || (await panelDemoUserExists(services)));
  const panel = renewPanel ? await renewPanelDemoPassword(services) : null;
  return { ticketKey, posKey, panel };
}

/** Whether the database holds the demo: the partner system "demo" or the merchant account "demo". */
export async function demoPresent(db: Db): Promise<boolean> {
  const [system, account] = await Promise.all([
    db.selectFrom('hd_systems').select('identifier').where('identifier', '=', DEMO_SYSTEM).executeTakeFirst(),
    db.selectFrom('pos_accounts').select('id').where('id', '=', DEMO_ACCOUNT).executeTakeFirst(),
  ]);
  return system !== undefined || account !== undefined;
}
