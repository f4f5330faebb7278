import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Booleans are stored as integers 0/1 and instants as integer milliseconds since the epoch, so that one
// schema reads the same on SQLite and PostgreSQL. Lists are JSON text.

/** A company of the group for which tickets can be opened (Ticket options, `companies`). */
export interface HdCompanyTable {
  id: string;
  name: string;
  active: number;
}

/** The type of a category: Incidente, Problema, Solicitação de Serviço, Solicitação de Mudança. */
export interface HdCategoryTypeTable {
  id: number;
  name: string;
  description: string | null;
}

export interface HdPriorityTable {
  id: number;
  name: string;
  description: string | null;
  /** 1 is the most urgent. */
  level: number;
  response_time_hours: number;
}

export interface HdCategoryTable {
  id: number;
  name: string;
  description: string | null;
  type_id: number;
  /** The priority used with this category when a ticket names none. */
  default_priority_id: number | null;
}

export interface HdSupportLevelTable {
  id: number;
  name: string;
  description: string | null;
}

export interface HdNatureTable {
  identifier: string;
  name: string;
  active: number;
}

/** A partner system: its settings and its keys (only the current and the previous one, hashed). */
export interface HdSystemTable {
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
  created_at: number;
  updated_at: number;
}

/** A ticket opened by a system; (system_id, external_id) is the never-expiring duplicate registry. */
export interface HdTicketTable {
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
export interface SettingTable {
  key: string;
  value: string;
  updated_at: number;
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
}

export type HdSystemRow = Selectable<HdSystemTable>;
export type HdTicketRow = Selectable<HdTicketTable>;
export type NewHdTicket = Insertable<HdTicketTable>;
export type HdSystemUpdate = Updateable<HdSystemTable>;
