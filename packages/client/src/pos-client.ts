import type { components } from './generated/pos.js';
import { createTransport, withResponse, type ClientOptions, type WithResponse } from './transport.js';

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
  ping(): Promise<WithResponse<Ping>>;
  /** GET /places. */
  places(): Promise<WithResponse<Places>>;
  /** GET /events, page after page, following `next_cursor` until it is null. */
  events(query: EventsQuery): AsyncIterableIterator<WithResponse<EventsPage>>;
  /**
   * GET /sales/by-payment-method. Calls of one client run one after another, never two at once (the
   * documents: "Do not fire sales queries in parallel").
   */
  salesByPaymentMethod(query: SalesQuery): Promise<WithResponse<SalesByPaymentMethod>>;
}

const PREFIX = '/v1/api-public';

/** A client of the POS data API, with one merchant key. */
export function createPosClient(options: ClientOptions): PosClient {
  const transport = createTransport(options);
  const get = async <T extends object>(path: string, query?: Record<string, string | number | undefined>) => {
    const { body, facts } = await transport.send<T>({ method: 'GET', path: PREFIX + path, query });
    return withResponse(body, facts);
  };
  // The tail of the sales queries of this client: each waits for the previous one to end, however it ended.
  let salesTail: Promise<unknown> = Promise.resolve();

  return {
    ping: () => get<Ping>('/ping'),
    places: () => get<Places>('/places'),
    async *events(query) {
      let cursor: string | undefined;
      do {
        const page = await get<EventsPage>('/events', {
          place: query.place,
          search: query.search,
          limit: query.limit,
          cursor,
        });
        yield page;
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
    },
    salesByPaymentMethod(query) {
      const run = salesTail.then(() =>
        get<SalesByPaymentMethod>('/sales/by-payment-method', {
          place: query.place,
          from: query.from,
          to: query.to,
          event: query.event,
        }),
      );
      salesTail = run.catch(() => undefined);
      return run;
    },
  };
}
