import type { Db } from '../../db/database.js';
import { checkSalesBuckets, rebuildSalesBuckets, type BucketCheck } from './sales-bucket-audit.js';

// The upkeep of the pre-aggregated sales buckets: comparing them with the receipts they sum, and
// rebuilding them from the receipts (the operator's repair, `npm run db:check-buckets -- --rebuild`).

/** Which buckets: one account's, or every account's. */
export interface BucketScope {
  accountId?: string;
}

/** The sales buckets' check and repair, on the primary database. */
export function createSalesBucketService(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** How many buckets differ from the receipts they sum, and the first `limit` of them in key order. */
    check: (scope: BucketScope & { limit: number }): Promise<BucketCheck> => checkSalesBuckets(db, scope),

    /** Replaces the buckets with the sums of the receipts, in one transaction; how many there are now. */
    rebuild: (scope: BucketScope): Promise<number> => rebuildSalesBuckets(db, scope),
  };
}

export type SalesBucketService = ReturnType<typeof createSalesBucketService>;
