import type { Db } from '../../db/database.js';
import { withQueryTimeout } from '../../db/query-timeout.js';
import { findEvent } from '../places/event-repository.js';
import { reachablePlaceCurrency, type KeyReach } from '../keys/place-reach.js';
import type { LimitRefusal } from '../api/limit-decision.js';
import type { PosLimits, PosQuota } from '../api/pos-limits.js';
import { salesByPaymentMethod, type SalesByPaymentMethod } from './sales-query.js';
import type { SalesReader } from './sales-reader.js';

// The sales figures as a service: what GET /v1/api-public/sales/by-payment-method does once its gates
// have passed, and what the merchant panel's two reports call with the same figures (docs/pos-api.md, the
// route's section: "the figures match the panel's two financial reports").

/** One sales question: a place reached by the key, optionally one event, a checked period. */
export interface SalesRequest {
  /** The account and the places the asker reaches. */
  reach: KeyReach;
  placeId: string;
  eventId: string | null;
  /** Start of the period, included (ms); end, excluded. Already checked (order, 120 days). */
  from: number;
  to: number;
  /**
   * The API call's balance: the account's limit of sales queries in progress is admitted against it
   * (Limits). Without it the query is not counted among the account's queries in progress.
   */
  quota?: PosQuota;
}

/** The answer, or why there is none, as a value (the API maps it to its problems). */
export type SalesOutcome =
  | { ok: true; figures: SalesByPaymentMethod }
  /** 404: the place is not the account's or not reached by the key; the event is not the place's. */
  | { ok: false; reason: 'unknown_place' | 'unknown_event' }
  /** 429 or 503: the account already has its queries in progress, or the shared store is unreachable. */
  | { ok: false; reason: 'limited'; refusal: LimitRefusal }
  /** 503: the query did not finish within its time limit. */
  | { ok: false; reason: 'timed_out' };

/** The sales service over a reader of receipts (the pre-aggregated buckets; the raw reader in comparisons). */
export function createSalesService(deps: {
  readDb: Db;
  limits: Pick<PosLimits, 'beginSalesQuery'>;
  reader: SalesReader;
  queryTimeoutMs: number;
  /** Where each query's time is reported (docs/operations.md, Metrics); default: nowhere. */
  timing?: { salesQuery(seconds: number, outcome: 'ok' | 'timed_out'): void };
}) {
  const { readDb, limits, reader, queryTimeoutMs } = deps;
  return {
    /**
     * Receipts by payment method: the place is checked first (with both place and event wrong, the place
     * is reported), then the event, then the account's queries in progress; the query runs within its
     * time limit and its place among the queries in progress is freed however it ends.
     */
    async byPaymentMethod(request: SalesRequest): Promise<SalesOutcome> {
      const { reach, placeId, eventId } = request;
      const currency = await reachablePlaceCurrency(readDb, reach, placeId);
      if (currency === undefined) return { ok: false, reason: 'unknown_place' };
      if (eventId !== null && (await findEvent(readDb, reach.account_id, placeId, eventId)) === undefined)
        return { ok: false, reason: 'unknown_event' };
      const admitted = request.quota === undefined ? undefined : await limits.beginSalesQuery(request.quota);
      if (admitted !== undefined && !admitted.ok) return { ok: false, reason: 'limited', refusal: admitted };
      const started = performance.now();
      try {
        // Without parallel workers: see the bucket reader (bucket-sales-reader.ts, withoutParallelWorkers).
        const figures = await withQueryTimeout(
          readDb,
          queryTimeoutMs,
          (db) =>
            salesByPaymentMethod(
              db,
              { accountId: reach.account_id, placeId, eventId, from: request.from, to: request.to },
              currency,
              reader,
            ),
          { parallelWorkers: false },
        );
        deps.timing?.salesQuery(
          (performance.now() - started) / 1000,
          figures === undefined ? 'timed_out' : 'ok',
        );
        return figures === undefined ? { ok: false, reason: 'timed_out' } : { ok: true, figures };
      } finally {
        await admitted?.release();
      }
    },
  };
}

export type SalesService = ReturnType<typeof createSalesService>;
