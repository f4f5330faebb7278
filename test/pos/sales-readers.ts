import { bucketSalesReader } from '../../src/pos/bucket-sales-reader.js';
import { rawSalesReader } from '../../src/pos/raw-sales-reader.js';
import type { SalesReader } from '../../src/pos/sales-reader.js';

/** Every implementation of the SalesReader port: each one must pass the reader contract test. */
export const SALES_READERS: readonly SalesReader[] = [rawSalesReader, bucketSalesReader];
