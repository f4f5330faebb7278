import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { uuidv7 } from '../lib/identifiers.js';
import type { CatalogService } from './catalog-service.js';
import type { PartnerSystem } from './system-repository.js';
import { findTicketByExternalId, listTickets, type Ticket, type TicketQuery } from './ticket-repository.js';
import { createTicketInserts } from './ticket-inserts.js';
import {
  readTicketRequest,
  type Refusal,
  type TicketCatalog,
  type TicketRequestResult,
  type TicketWarning,
} from './ticket-request.js';

/** What opening a ticket came to: a new ticket (201), the existing one (200), or a refusal. */
export type TicketOutcome =
  | { ok: true; kind: 'created' | 'duplicate'; ticket: Ticket; warnings: TicketWarning[] }
  /** A field of the request is refused (a field 422): which, and what to fix. */
  | Refusal
  /** The system has no usable default category, so it cannot open new tickets (503). */
  | { ok: false; reason: 'misconfigured_system' };

/** The refusals of a company or nature the catalog has no active entry with (createHelpDeskTicket). */
const CATALOG_REFUSALS = new Set(['invalid_company', 'invalid_nature']);

/**
 * Whether the answer rests on an id the copy of the catalog does not have: a company or nature refused,
 * a category, priority or support level replaced by a default, or the system's own default category
 * missing. Such an id may have been created a moment ago through another process of the fleet, whose
 * answer would then differ; so it is checked against a copy read after the call arrived.
 */
function restsOnUnknownId(request: TicketRequestResult, catalog: TicketCatalog, system: PartnerSystem) {
  if (system.defaultCategoryId !== null && catalog.defaultCategoryId === null) return true;
  if (!request.ok) return CATALOG_REFUSALS.has(request.reason);
  return request.draft.unknownIds;
}

/**
 * Opens tickets for partner systems (the registry of `external_id` is shared by both ticket routes) and
 * lists them for the back office.
 */
export function createTicketService(deps: {
  db: Db;
  clock: Clock;
  catalog: Pick<CatalogService, 'ticketCatalog'>;
  /** Where created and duplicate tickets are counted (docs/operations.md, Metrics); default: nowhere. */
  counts?: { ticketOpened(outcome: 'created' | 'duplicate'): void };
}) {
  const { db, clock } = deps;
  const counted = (outcome: TicketOutcome): TicketOutcome => {
    if (outcome.ok) deps.counts?.ticketOpened(outcome.kind);
    return outcome;
  };
  const openTicket = createTicketInserts(db);

  function duplicateOf(ticket: Ticket, description: string): TicketOutcome {
    const warnings: TicketWarning[] =
      ticket.description === description
        ? []
        : [
            {
              code: 'description_differs',
              message:
                'This external_id was sent before with another description; the existing ticket is returned unchanged.',
            },
          ];
    return { ok: true, kind: 'duplicate', ticket, warnings };
  }

  return {
    /** Validates the body text of a ticket request and opens the ticket, once per `external_id`. */
    async open(system: PartnerSystem, bodyText: string, source: Ticket['source']): Promise<TicketOutcome> {
      let catalog = await deps.catalog.ticketCatalog(system);
      let request = readTicketRequest(bodyText, catalog);
      if (restsOnUnknownId(request, catalog, system)) {
        catalog = await deps.catalog.ticketCatalog(system, { fresh: true });
        request = readTicketRequest(bodyText, catalog);
      }
      if (!request.ok) return request;
      const draft = request.draft;

      // docs/ticket-api.md (Settled details): a system without a usable default category "cannot open
      // tickets", so every new ticket is refused, even one that names a released category. Resubmissions
      // still answer 200 with the existing ticket.
      if (catalog.defaultCategoryId === null || draft.categoryId === null) {
        const existing = await findTicketByExternalId(db, system.identifier, draft.externalId);
        if (existing !== undefined) return counted(duplicateOf(existing, draft.description));
        return { ok: false, reason: 'misconfigured_system' };
      }

      const now = clock.now();
      const opened = await openTicket({
        id: uuidv7(now),
        system_id: system.identifier,
        external_id: draft.externalId,
        source,
        company_id: draft.companyId,
        description: draft.description,
        category_id: draft.categoryId,
        priority_id: draft.priorityId,
        support_level: draft.supportLevel,
        nature: draft.nature,
        cnpj: draft.cnpj,
        requester_name: draft.requesterName,
        requester_contact: draft.requesterContact,
        created_at: now,
      });
      if (opened.created)
        return counted({ ok: true, kind: 'created', ticket: opened.ticket, warnings: draft.warnings });
      return counted(duplicateOf(opened.ticket, draft.description));
    },

    /** Tickets, newest first, one page (docs/admin-rules.md, Help desk: GET tickets). */
    list(query: TicketQuery): Promise<{ tickets: Ticket[]; nextBeforeSeq: number | null }> {
      return listTickets(db, query);
    },
  };
}

export type TicketService = ReturnType<typeof createTicketService>;

/** The ticket response body (docs/ticket-api.md, Ticket response). */
export function ticketResponseBody(ticket: Ticket, duplicate: boolean, warnings: readonly TicketWarning[]) {
  return {
    ticket: ticket.number,
    id: ticket.id,
    duplicate,
    warnings,
    applied: {
      category_id: ticket.categoryId,
      priority_id: ticket.priorityId,
      support_level: ticket.supportLevel,
      nature: ticket.nature,
      company: ticket.companyId,
    },
  };
}
