// What a receipt is, and which receipts count toward the figures (docs/pos-api.md, "What counts toward
// the total"; docs/pos-api.md, Settled details; docs/admin-rules.md, receipt kinds and statuses).

/** Transaction types a device records; null is a receipt without a transaction type. */
export const RECEIPT_KINDS = [
  'sale',
  'tab',
  'cashless_topup',
  'cashless_activation',
  'cashless_consumption',
  'withdrawal',
  'supply',
  'refund_item',
  'refund_product',
  'refund_cashless',
  'cashless_return',
] as const;
type ReceiptKind = (typeof RECEIPT_KINDS)[number];

export const RECEIPT_STATUSES = ['paid', 'unpaid', 'cancelled'] as const;

/** Kinds whose paid, non-demo receipts count: sales, tabs, cashless top-ups and activations. */
const COUNTING_KINDS: ReadonlySet<string> = new Set<ReceiptKind>([
  'sale',
  'tab',
  'cashless_topup',
  'cashless_activation',
]);

/**
 * True when a receipt counts toward the totals: paid, not a demonstration, and of a counting kind.
 * Everything else is stored but counts nowhere (refunds are not subtracted: the total is gross).
 */
export function countsTowardFigures(receipt: {
  kind: string | null;
  status: string;
  demo: boolean;
}): boolean {
  return (
    receipt.status === 'paid' && !receipt.demo && receipt.kind !== null && COUNTING_KINDS.has(receipt.kind)
  );
}
