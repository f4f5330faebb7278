// Who acted, for the key audit trail (docs/back-office.md, Audit trail and last use): every face builds one and hands
// it to the services, which write it with the change. The admin API builds it from its credential and the
// `X-Admin-Client` header; the merchant panel and the back-office console will pass their user.

/** The kind of person or process behind a change. */
export type ActorRole =
  /** The operator's admin token (`ADMIN_TOKEN`). */
  | 'operator'
  /** The operator's support staff (`SUPPORT_TOKEN`). */
  | 'support'
  /** A merchant's user, in the merchant panel. */
  | 'merchant_user'
  /** The operator's staff, in the back-office console. */
  | 'staff'
  /** The service itself: the demo's seeds, the sweeper that records expiries and ends of grace. */
  | 'system';

/** Through which face the change came. */
export type ActorChannel = 'admin_api' | 'cli' | 'panel' | 'console' | 'service';

export const ACTOR_ROLES = ['operator', 'support', 'merchant_user', 'staff', 'system'] as const;
export const ACTOR_CHANNELS = ['admin_api', 'cli', 'panel', 'console', 'service'] as const;

/** Who made a change, as the audit trail records it. */
export interface Actor {
  readonly role: ActorRole;
  /** The user's id in the panel or console; absent for a token. */
  readonly userId?: string | null;
  /** The user's display name, as it was when they acted. */
  readonly displayName?: string | null;
  readonly channel: ActorChannel;
  /** The client's address (the socket's, or the one a trusted proxy forwarded); null for the service. */
  readonly ip: string | null;
}

/** The service acting on its own: time-based events, demo seeds. */
export const SERVICE_ACTOR: Actor = Object.freeze({ role: 'system', channel: 'service', ip: null });
