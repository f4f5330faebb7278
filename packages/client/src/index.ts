// The typed client of the partner help-desk ticket API and the point-of-sale data API: ESM, no
// dependency beyond the platform's fetch, its types generated from the service's OpenAPI documents.
// Every call returns its resource, with the answer's facts on its non-enumerable `lastResponse`.

export { ApiError, kindOfStatus, TicketNotAcknowledgedError } from './api-error.js';
export type { ErrorKind, ProblemBody } from './api-error.js';
export { createPosClient } from './pos-client.js';
export type {
  EventsPage,
  EventsQuery,
  Ping,
  Places,
  PosClient,
  SalesByPaymentMethod,
  SalesQuery,
} from './pos-client.js';
export { createTicketsClient } from './tickets-client.js';
export type {
  KnownTicketWarningCode,
  Ticket,
  TicketOptions,
  TicketRequest,
  TicketResponseFacts,
  TicketResult,
  TicketsClient,
  TicketsClientOptions,
  TicketWarning,
} from './tickets-client.js';
export type { RateLimit } from './rate-limit.js';
export { UnexpectedResponseError } from './transport.js';
export type { ClientOptions, Deprecation, ResponseFacts, RetryPolicy, WithResponse } from './transport.js';
