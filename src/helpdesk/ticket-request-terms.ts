// The limits of the ticket request and the types of what reading one gives: the catalog it is read
// against, the draft of a valid request, its warnings and the refusal of a field. The reading itself is
// in ticket-request.ts.

/** Limits of the ticket request (docs/ticket-api.md, Limits). */
export const TICKET_LIMITS = {
  externalId: 120,
  description: 20_000,
  requesterName: 120,
  requesterContact: 160,
  ignoredFieldNames: 20,
  ignoredFieldNameLength: 64,
} as const;

/** A warning of the ticket response: the ticket was created, but something was replaced or ignored. */
export interface TicketWarning {
  code:
    | 'category_fallback'
    | 'priority_fallback'
    | 'support_level_fallback'
    | 'cnpj_ignored'
    | 'ignored_fields'
    | 'requester_truncated'
    | 'description_differs';
  message: string;
  fields?: string[];
}

/** What the request is checked against: the catalog as the calling system sees it. */
export interface TicketCatalog {
  /** Ids of the active companies. */
  companyIds: readonly string[];
  /** Identifiers of the active natures. */
  natureIdentifiers: readonly string[];
  /** The system's default category, or null when it has none or it no longer exists. */
  defaultCategoryId: number | null;
  /** Categories the system may choose (its default and those released to it), with their default priority. */
  categories: ReadonlyMap<number, { defaultPriorityId: number | null }>;
  priorityIds: ReadonlySet<number>;
  supportLevelIds: ReadonlySet<number>;
  /** Every category of the catalog, released to the system or not. */
  knownCategoryIds: ReadonlySet<number>;
}

/** A valid ticket request after cleaning and defaults: what would be stored. */
interface TicketDraft {
  externalId: string;
  companyId: string;
  /** Trimmed description. */
  description: string;
  /** Null only when the system has no usable default category (misconfigured_system). */
  categoryId: number | null;
  priorityId: number | null;
  supportLevel: number;
  nature: string | null;
  cnpj: string | null;
  requesterName: string | null;
  requesterContact: string | null;
  warnings: TicketWarning[];
  /**
   * A category, priority or support level was replaced because the catalog has no entry with its id
   * (not because it is not released to the system, nor not an id): one created a moment ago elsewhere.
   */
  unknownIds: boolean;
}

/** Why a ticket request's field is refused: its code in the problem catalogue (a field 422). */
export type FieldRefusalReason =
  | 'invalid_field'
  | 'missing_external_id'
  | 'missing_description'
  | 'missing_company'
  | 'field_too_long'
  | 'invalid_company'
  | 'invalid_nature';

/** A refused field of the ticket request: why, which field, and what to fix (the problem's detail). */
export interface Refusal {
  ok: false;
  reason: FieldRefusalReason;
  param: string;
  detail: string;
}

export type TicketRequestResult = { ok: true; draft: TicketDraft } | Refusal;
