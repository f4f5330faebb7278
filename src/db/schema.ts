import type { Generated, Insertable, Selectable } from 'kysely';

// Booleans are stored as integers 0/1 and instants as integer milliseconds since the epoch, so that one
// schema reads the same on SQLite and PostgreSQL. Lists are JSON text.

/** A company of the group for which tickets can be opened (Ticket options, `companies`). */
interface HdCompanyTable {
  id: string;
  name: string;
  active: number;
}

/** The type of a category: Incidente, Problema, Solicitação de Serviço, Solicitação de Mudança. */
interface HdCategoryTypeTable {
  id: number;
  name: string;
  description: string | null;
}

interface HdPriorityTable {
  id: number;
  name: string;
  description: string | null;
  /** 1 is the most urgent. */
  level: number;
  response_time_hours: number;
}

interface HdCategoryTable {
  id: number;
  name: string;
  description: string | null;
  type_id: number;
  /** The priority used with this category when a ticket names none. */
  default_priority_id: number | null;
}

interface HdSupportLevelTable {
  id: number;
  name: string;
  description: string | null;
}

interface HdNatureTable {
  identifier: string;
  name: string;
  active: number;
}

/** A partner system: its settings and its keys (only the current and the previous one, hashed). */
interface HdSystemTable {
  identifier: string;
  name: string;
  active: number;
  /** JSON array of scope names. */
  scopes: string;
  rate_limit_per_minute: number;
  key_grace_seconds: number;
  default_category_id: number | null;
  /** JSON array of category ids released to the system besides its default. */
  released_category_ids: string;
  current_key_hash: string | null;
  previous_key_hash: string | null;
  /** When the previous key stops; null when there is none. */
  previous_valid_until: number | null;
  /** Last accepted use of the current key (ms); null: never. Kept by a periodic flush (src/audit/key-use.ts). */
  current_key_last_used_at: Generated<number | null>;
  /** Last accepted use of the previous key (ms); null: never. */
  previous_key_last_used_at: Generated<number | null>;
  created_at: number;
  updated_at: number;
}

/** A ticket opened by a system; (system_id, external_id) is the never-expiring duplicate registry. */
interface HdTicketTable {
  /** Sequence behind the ticket number `I-000042`. */
  seq: Generated<number>;
  id: string;
  system_id: string;
  external_id: string;
  /** `api` or `webhook`: the route that created it. */
  source: string;
  company_id: string;
  description: string;
  category_id: number | null;
  priority_id: number | null;
  support_level: number;
  nature: string | null;
  cnpj: string | null;
  requester_name: string | null;
  requester_contact: string | null;
  created_at: number;
}

/** Operator switches such as the maintenance mode, one JSON value per key. */
interface SettingTable {
  key: string;
  value: string;
  updated_at: number;
}

/** A merchant's account: the owner of places, events, receipts and keys. */
export interface PosAccountTable {
  id: string;
  name: string;
  /** ISO 4217 code of the account's money (BRL by default). */
  currency: string;
  active: number;
  /** Where the merchant's e-mail goes (key created, rotated, widened); null: nothing is sent. */
  email: string | null;
  created_at: number;
  updated_at: number;
}

/** A place (point of sale) of an account; its time zone is an IANA name. */
export interface PosPlaceTable {
  account_id: string;
  id: string;
  name: string | null;
  timezone: string;
  /** 1, 0, or null when unknown. */
  active: number | null;
  created_at: number;
  updated_at: number;
}

/** An event registered in a place, usable to filter receipts. */
export interface PosEventTable {
  account_id: string;
  place_id: string;
  id: string;
  name: string;
  /** Case- and accent-folded name, what the events search compares with. */
  name_folded: string;
  starts_at: number | null;
  ends_at: number | null;
  active: number;
  registered_at: number;
}

/** One payment that came in (recebimento); upserted by id within its account. */
export interface PosReceiptTable {
  account_id: string;
  id: string;
  place_id: string;
  event_id: string | null;
  /** When it happened on the store's device (ms). */
  occurred_at: number;
  payment_method: string;
  /** Card brand as the terminal recorded it. */
  brand: string | null;
  amount_cents: number;
  kind: string | null;
  status: string;
  demo: number;
  /** 1 when the receipt counts toward the figures (paid, not demo, a counting kind). */
  counted: number;
  received_at: number;
  updated_at: number;
}

/**
 * A pre-aggregated sales bucket: the counted receipts (`counted = 1`) of one place in one time slot with
 * one stored payment method and brand, kept equal to their sum by deltas in the transaction of every
 * receipt write (src/pos/sales/sales-buckets.ts). Each receipt is in one bucket per slot length under the event
 * key '' (every receipt of the place), and once more under its event's id when it has one.
 */
interface PosSalesBucketTable {
  account_id: string;
  place_id: string;
  /** '' for every receipt of the place, with or without event; else only the receipts of that event. */
  event_id: string;
  /** Length of the slot (ms): one of the layout's slot lengths (src/pos/sales/sales-bucket-layout.ts). */
  slot_ms: number;
  /** Start of the slot (ms since the epoch, UTC), a multiple of its length. */
  slot_start: number;
  /** As stored on the receipts. */
  payment_method: string;
  /** 1 when the receipts recorded a brand (`brand`), 0 when they recorded none (`brand` is then ''). */
  branded: number;
  brand: string;
  /** How many counted receipts; a bucket whose receipts all left is deleted, never kept at zero. */
  receipts: number;
  /**
   * Their exact sum in cents: numeric on PostgreSQL (read as text), a 64-bit integer on SQLite (an
   * overflow fails the write rather than rounding).
   */
  amount_cents: number | string | bigint;
}

/** A merchant's API key: settings, state, and the hashes of its current and previous key text. */
export interface PosKeyTable {
  id: string;
  account_id: string;
  name: string;
  /** JSON array of permissions. */
  permissions: string;
  /** JSON: "all" or an array of place ids. */
  places: string;
  expires_at: number;
  paused: number;
  revoked_at: number | null;
  current_key_hash: string;
  previous_key_hash: string | null;
  previous_valid_until: number | null;
  /** A key ended at once by a rotation that invalidated the current one (answers `replaced`). */
  replaced_key_hash: string | null;
  /** Last accepted use of the current key (ms); null: never. Kept by a periodic flush (src/audit/key-use.ts). */
  current_key_last_used_at: Generated<number | null>;
  /** Last accepted use of the previous key (ms); null: never. */
  previous_key_last_used_at: Generated<number | null>;
  created_at: number;
  updated_at: number;
}

/** A message of the transactional outbox (src/mail/), written in the transaction of what it tells. */
export interface MailOutboxTable {
  /** The order the messages were written in. */
  seq: Generated<number>;
  id: string;
  /** What the message is about, such as `pos_key_created`. */
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** Attempts made so far. */
  attempts: Generated<number>;
  /** When a sender may take it next (first attempt, retry, or end of another sender's lease). */
  next_attempt_at: number;
  /** The sender that holds it now; null when none does. */
  lease_token: string | null;
  /** Why the last attempt failed. */
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  /** When the sender gave up after its last attempt. */
  failed_at: number | null;
}

/** The development mailbox (src/mail/dev-mailbox.ts): delivered messages whole, outside production only. */
interface DevMailboxTable {
  seq: Generated<number>;
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  transport: string;
  delivered_at: number;
}

/** One lifecycle event of a key (src/audit/key-audit-repository.ts), never the key or its hash. */
export interface KeyAuditEventTable {
  seq: Generated<number>;
  /** `system` (help-desk partner system) or `merchant` (merchant's API key). */
  kind: string;
  /** The system identifier, or the merchant's account id. */
  owner_id: string;
  /** The merchant key's credential id; the system identifier for a system. */
  key_id: string;
  event: string;
  occurred_at: number;
  actor_role: string;
  actor_user_id: string | null;
  actor_name: string | null;
  channel: string;
  actor_ip: string | null;
  /** JSON object. */
  details: string;
  /** Set on events written once in a fleet (expiry, a grace's end); unique. */
  once_key: string | null;
}

/** A person of a merchant account who signs in to the panel (issue 13). */
export interface MerchantUserTable {
  id: string;
  account_id: string;
  /** Lower-cased e-mail address, unique. */
  email: string;
  name: string;
  /** scrypt hash (src/identity/password-hash.ts); null until the invitation is accepted. */
  password_hash: string | null;
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A one-time link sent by e-mail: an invitation (72 h) or a password reset (1 h). */
interface MerchantUserLinkTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

/** A password-reset request of the panel waiting for the e-mail sender (any address, a user's or not). */
interface PasswordResetRequestTable {
  seq: Generated<number>;
  email: string;
  requested_at: number;
}

/** A session of a web face (the panel, the console): the session plugin's data as JSON. */
interface WebSessionTable {
  id_hash: string;
  face: string;
  user_id: string | null;
  data: string;
  expires_at: number;
}

/** A person of the operator's staff who signs in to the back-office console (issue 14). */
export interface StaffUserTable {
  id: string;
  /** Lower-cased e-mail address, unique. */
  email: string;
  name: string;
  /** `operator` or `support`. */
  role: string;
  /** scrypt hash (src/identity/password-hash.ts); null until a one-time link is used. */
  password_hash: string | null;
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A one-time link the operator hands to a staff user: to set a first password, or a new one (72 h). */
interface StaffUserLinkTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

/** One change made through the back office (src/audit/back-office-log.ts); never a secret. */
export interface BackOfficeActionTable {
  seq: Generated<number>;
  occurred_at: number;
  actor_role: string;
  actor_user_id: string | null;
  actor_name: string | null;
  channel: string;
  actor_ip: string | null;
  /** An admin operation id or a console action's name. */
  action: string;
  /** What it acted on: a path under /admin/v1/. */
  target: string;
  /** JSON object. */
  details: string;
}

/** Answered requests of one minute, API and outcome, summed over the fleet (src/observability/traffic.ts). */
interface TrafficMinuteTable {
  /** The start of the UTC minute (ms). */
  minute: number;
  /** The API as the metrics name it: `helpdesk`, `pos`, `docs`, `admin`, `console`, `other`. */
  api: string;
  /** `answered` (status below 400), `refused` (4xx) or `failed` (5xx). */
  outcome: string;
  count: number;
}

export interface Database {
  hd_companies: HdCompanyTable;
  hd_category_types: HdCategoryTypeTable;
  hd_priorities: HdPriorityTable;
  hd_categories: HdCategoryTable;
  hd_support_levels: HdSupportLevelTable;
  hd_natures: HdNatureTable;
  hd_systems: HdSystemTable;
  hd_tickets: HdTicketTable;
  settings: SettingTable;
  pos_accounts: PosAccountTable;
  pos_places: PosPlaceTable;
  pos_events: PosEventTable;
  pos_receipts: PosReceiptTable;
  pos_sales_buckets: PosSalesBucketTable;
  pos_keys: PosKeyTable;
  mail_outbox: MailOutboxTable;
  dev_mailbox: DevMailboxTable;
  key_audit_events: KeyAuditEventTable;
  merchant_users: MerchantUserTable;
  merchant_user_links: MerchantUserLinkTable;
  password_reset_requests: PasswordResetRequestTable;
  web_sessions: WebSessionTable;
  staff_users: StaffUserTable;
  staff_user_links: StaffUserLinkTable;
  back_office_actions: BackOfficeActionTable;
  traffic_minutes: TrafficMinuteTable;
}

export type HdSystemRow = Selectable<HdSystemTable>;
export type HdTicketRow = Selectable<HdTicketTable>;
export type NewHdTicket = Insertable<HdTicketTable>;
