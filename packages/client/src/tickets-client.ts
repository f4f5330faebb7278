import { ApiError, TicketNotAcknowledgedError } from './api-error.js';
import type { components } from './generated/help-desk.js';
import {
  createTransport,
  withResponse,
  type ApiResult,
  type ClientOptions,
  type ResponseFacts,
  type WithResponse,
} from './transport.js';

type Schemas = components['schemas'];

/** A ticket as sent: `external_id`, `company`, `description`, and the optional fields of the documents. */
export type TicketRequest = Schemas['TicketRequest'];
/** The choices for a ticket: companies, categories, priorities, support levels, natures. */
export type TicketOptions = Schemas['TicketOptions'];

/** The warning codes the documents list today. */
export type KnownTicketWarningCode =
  | 'category_fallback'
  | 'priority_fallback'
  | 'support_level_fallback'
  | 'cnpj_ignored'
  | 'ignored_fields'
  | 'requester_truncated'
  | 'description_differs';

/** A warning of a ticket: a known code, or a new one as plain text (log it and continue). */
export interface TicketWarning {
  code: KnownTicketWarningCode | (string & {});
  /** English, may change: logic uses `code`. */
  message: string;
  /** The fields concerned (`ignored_fields`, `requester_truncated`). */
  fields?: string[];
}

/** The ticket the service acknowledged. */
export type Ticket = Omit<Schemas['TicketResponse'], 'warnings'> & { warnings: TicketWarning[] };

/** The facts of the answer to a ticket: those of every answer, and whether it opened the ticket. */
export interface TicketResponseFacts extends ResponseFacts {
  /** True on the first time (201); false when the ticket already existed (200, `duplicate: true`). */
  created: boolean;
}

/** An acknowledged ticket, with its answer's facts as `lastResponse`. */
export type TicketResult = WithResponse<Ticket, TicketResponseFacts>;

/** The options of the tickets client: the common ones and how long the ticket options are kept. */
export interface TicketsClientOptions extends ClientOptions {
  /** How long `options()` answers from its cache, in ms (default 3 hours: "a few hours"). */
  optionsMaxAgeMs?: number;
}

/** A client of the partner help-desk ticket API. */
export interface TicketsClient {
  /**
   * The ticket options, from a cache kept `optionsMaxAgeMs` and dropped when a ticket comes back with
   * `category_fallback` or `priority_fallback`, or is refused with `invalid_nature`.
   */
  options(options?: { refresh?: boolean }): Promise<WithResponse<TicketOptions>>;
  /** Opens a ticket (POST help-desk-ticket), resending it after 429 and 503 as the documents say. */
  createTicket(ticket: TicketRequest): Promise<TicketResult>;
  /** Opens a ticket through the webhook route of `system`, with the same retries. */
  createTicketByWebhook(system: string, ticket: TicketRequest): Promise<TicketResult>;
}

const PREFIX = '/v1/api-external-system';

/** Warnings and errors after which the cached options are out of date (the documents' refetch rule). */
const STALE_OPTIONS_WARNINGS = new Set(['category_fallback', 'priority_fallback']);
const STALE_OPTIONS_ERROR = 'invalid_nature';

/** Whether a failure leaves the ticket unacknowledged: worth keeping and resending as it was. */
function unacknowledged(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true; // no answer: it may or may not have arrived
  return error.status === 429 || error.status >= 500;
}

/** A client of the ticket API, with the key of one partner system. */
export function createTicketsClient(options: TicketsClientOptions): TicketsClient {
  const transport = createTransport(options);
  const now = options.now ?? Date.now;
  const maxAge = options.optionsMaxAgeMs ?? 3 * 3_600_000;
  let cached: { at: number; result: Promise<WithResponse<TicketOptions>> } | undefined;

  async function send(path: string, ticket: TicketRequest): Promise<TicketResult> {
    const tries = { count: 0 };
    let result: ApiResult<Ticket>;
    try {
      result = await transport.send<Ticket>({ method: 'POST', path, json: ticket }, tries);
    } catch (error) {
      if (error instanceof ApiError && error.code === STALE_OPTIONS_ERROR) cached = undefined;
      if (unacknowledged(error)) {
        throw new TicketNotAcknowledgedError({
          externalId: ticket.external_id,
          attempts: tries.count,
          cause: error,
        });
      }
      throw error;
    }
    const { body, facts } = result;
    if (body.warnings.some((warning) => STALE_OPTIONS_WARNINGS.has(warning.code))) cached = undefined;
    return withResponse(body, { ...facts, created: facts.status === 201 });
  }

  return {
    options({ refresh = false } = {}) {
      if (refresh || cached === undefined || now() - cached.at >= maxAge) {
        const result = transport
          .send<TicketOptions>({ method: 'GET', path: `${PREFIX}/help-desk-ticket-options` })
          .then(({ body, facts }) => withResponse(body, facts));
        const entry = { at: now(), result };
        cached = entry;
        // A failed fetch is not kept: the next call asks again.
        result.catch(() => {
          if (cached === entry) cached = undefined;
        });
      }
      return cached.result;
    },
    createTicket: (ticket) => send(`${PREFIX}/help-desk-ticket`, ticket),
    createTicketByWebhook: (system, ticket) =>
      send(`${PREFIX}/webhook/${encodeURIComponent(system)}`, ticket),
  };
}
