import { bucketSalesReader } from '../../src/pos/sales/bucket-sales-reader.js';
import { rawSalesReader } from '../../src/pos/sales/raw-sales-reader.js';
import type { SalesReader } from '../../src/pos/sales/sales-reader.js';

/** Every implementation of the SalesReader port: each one must pass the reader contract test. */
export const SALES_READERS: readonly SalesReader[] = [rawSalesReader, bucketSalesReader];
