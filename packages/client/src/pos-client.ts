import type { components } from './generated/pos.js';
import { createTransport, type ApiResult, type ClientOptions } from './transport.js';

type Schemas = components['schemas'];

/** Who the key belongs to, its account and its limits. */
export type Ping = Schemas['Ping'];
/** The places the key reaches. */
export type Places = Schemas['Places'];
/** One page of a place's events. */
export type EventsPage = Schemas['Events'];
/** Receipts of a place by payment method; money as decimal strings (`"12.50"`). */
export type SalesByPaymentMethod = Schemas['SalesByPaymentMethod'];

/** Which events to read. */
export interface EventsQuery {
  /** One place id from `places()`. */
  place: string;
  /** Part of the event name (1 to 100 characters), case- and accent-insensitive. */
  search?: string;
  /** Page size, 1 to 100 (default 50). */
  limit?: number;
}

/** Which receipts to sum: one place, `from` included, `to` excluded, ISO 8601 with an offset. */
export interface SalesQuery {
  place: string;
  from: string;
  to: string;
  /** One event of that place. */
  event?: string;
}

/** A client of the point-of-sale data API. */
export interface PosClient {
  /** GET /ping: who the key belongs to. */
  ping(): Promise<ApiResult<Ping>>;
  /** GET /places. */
  places(): Promise<ApiResult<Places>>;
  /** GET /events, page after page, following `next_cursor` until it is null. */
  events(query: EventsQuery): AsyncIterableIterator<ApiResult<EventsPage>>;
  /**
   * GET /sales/by-payment-method. Calls of one client run one after another, never two at once (the
   * documents: "Do not fire sales queries in parallel").
   */
  salesByPaymentMethod(query: SalesQuery): Promise<ApiResult<SalesByPaymentMethod>>;
}

const PREFIX = '/v1/api-public';

/** A client of the POS data API, with one merchant key. */
export function createPosClient(options: ClientOptions): PosClient {
  const transport = createTransport(options);
  // The tail of the sales queries of this client: each waits for the previous one to end, however it ended.
  let salesTail: Promise<unknown> = Promise.resolve();

  return {
    ping: () => transport.send<Ping>({ method: 'GET', path: `${PREFIX}/ping` }),
    places: () => transport.send<Places>({ method: 'GET', path: `${PREFIX}/places` }),
    async *events(query) {
      let cursor: string | undefined;
      do {
        const page = await transport.send<EventsPage>({
          method: 'GET',
          path: `${PREFIX}/events`,
          query: { place: query.place, search: query.search, limit: query.limit, cursor },
        });
        yield page;
        cursor = page.body.next_cursor ?? undefined;
      } while (cursor !== undefined);
    },
    salesByPaymentMethod(query) {
      const run = salesTail.then(() =>
        transport.send<SalesByPaymentMethod>({
          method: 'GET',
          path: `${PREFIX}/sales/by-payment-method`,
          query: { place: query.place, from: query.from, to: query.to, event: query.event },
        }),
      );
      salesTail = run.catch(() => undefined);
      return run;
    },
  };
}
