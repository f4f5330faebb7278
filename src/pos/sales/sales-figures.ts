import { foldBrand } from './brand.js';
import { formatMoney } from '../receipts/money.js';
import type { PaymentMethodCode } from '../receipts/payment-methods.js';
import { PAYMENT_METHODS, isTefMethod, methodCode } from '../receipts/payment-methods.js';

// The figures of the receipts-by-payment-method response (docs/pos-api.md, "Receipts-by-payment-method
// response", "Brand rules", payment method table; docs/pos-api.md, Settled details), computed from receipts
// the database has already filtered (only those that count, "What counts toward the total") and grouped.
// Money stays integer cents (bigint) until it is written as text.

/** One group of counted receipts as the database returns it: method and brand as stored. */
export interface ReceiptGroup {
  paymentMethod: string;
  brand: string | null;
  count: number;
  amountCents: bigint | number;
}

/** A `data[].brands[]` item; `share` is of the period's total, not of the method line. */
interface BrandFigures {
  brand: string | null;
  count: number;
  amount: string;
  share: string;
}

/** A `data[]` item. */
interface MethodFigures {
  payment_method: PaymentMethodCode;
  label: string;
  count: number;
  amount: string;
  share: string;
  brands: BrandFigures[];
}

/** The `total` and `data` members of the response. */
export interface SalesFigures {
  total: { count: number; amount: string };
  data: MethodFigures[];
}

interface Sum {
  count: number;
  cents: bigint;
}

/**
 * A share as the response writes it: `amount` as a percentage of `total`, three decimals, rounded half
 * away from zero from exact integer arithmetic; `"0.000"` when the total is zero (docs/pos-api.md, Settled
 * details). Negative and above 100 when receipts are negative ("Receipts-by-payment-method response").
 */
export function shareText(amountCents: bigint, totalCents: bigint): string {
  if (totalCents === 0n) return '0.000';
  // Thousandths of a percent: amount * 100 * 1000 / total.
  let numerator = amountCents * 100_000n;
  let denominator = totalCents;
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let thousandths = magnitude / denominator;
  if ((magnitude % denominator) * 2n >= denominator) thousandths += 1n;
  // A share that rounds to zero is written "0.000", never "-0.000".
  const sign = negative && thousandths !== 0n ? '-' : '';
  return `${sign}${thousandths / 1000n}.${(thousandths % 1000n).toString().padStart(3, '0')}`;
}

function add(sums: Map<string | null, Sum>, key: string | null, count: number, cents: bigint): void {
  const sum = sums.get(key);
  if (sum === undefined) sums.set(key, { count, cents });
  else {
    sum.count += count;
    sum.cents += cents;
  }
}

/**
 * Amount descending, then brand name in binary (UTF-16 code unit) order; the no-brand line is last
 * whatever its amount ("Brand rules": "no-brand last" stands apart from the tie rule).
 */
function compareBrands(a: [string | null, Sum], b: [string | null, Sum]): number {
  const [nameA, sumA] = a;
  const [nameB, sumB] = b;
  if (nameA === null || nameB === null) return (nameA === null ? 1 : 0) - (nameB === null ? 1 : 0);
  if (sumA.cents !== sumB.cents) return sumA.cents > sumB.cents ? -1 : 1;
  if (nameA === nameB) return 0;
  return nameA < nameB ? -1 : 1;
}

/**
 * The `total` and `data` of the receipts-by-payment-method response from groups of counted receipts:
 * only methods with receipts, in the order of the method table, unknown stored codes summed into
 * `other`; for TEF methods a breakdown by folded brand (see `foldBrand`), empty for the others. Groups
 * may repeat a method or brand (e.g. two spellings of one brand); they are summed. Throws a RangeError
 * on a count that is not a whole non-negative number or an amount that is not whole cents.
 */
export function salesFigures(groups: readonly ReceiptGroup[]): SalesFigures {
  const methods = new Map<PaymentMethodCode, { sum: Sum; brands: Map<string | null, Sum> }>();
  let totalCount = 0;
  let totalCents = 0n;
  for (const group of groups) {
    if (!Number.isSafeInteger(group.count) || group.count < 0) {
      throw new RangeError(`A receipt group's count must be a whole number of receipts, got ${group.count}.`);
    }
    // BigInt refuses a fractional amount: cents are never guessed.
    const cents = BigInt(group.amountCents);
    const code = methodCode(group.paymentMethod);
    let method = methods.get(code);
    if (method === undefined) {
      method = { sum: { count: 0, cents: 0n }, brands: new Map() };
      methods.set(code, method);
    }
    method.sum.count += group.count;
    method.sum.cents += cents;
    if (isTefMethod(code)) add(method.brands, foldBrand(group.brand), group.count, cents);
    totalCount += group.count;
    totalCents += cents;
  }

  const data: MethodFigures[] = [];
  for (const { code, label } of PAYMENT_METHODS) {
    const method = methods.get(code);
    // "Only methods that had receipts": a group of zero receipts makes no line.
    if (method === undefined || method.sum.count === 0) continue;
    const brands = [...method.brands]
      .filter(([, sum]) => sum.count !== 0)
      .sort(compareBrands)
      .map(([brand, sum]) => ({
        brand,
        count: sum.count,
        amount: formatMoney(sum.cents),
        share: shareText(sum.cents, totalCents),
      }));
    data.push({
      payment_method: code,
      label,
      count: method.sum.count,
      amount: formatMoney(method.sum.cents),
      share: shareText(method.sum.cents, totalCents),
      brands,
    });
  }
  return { total: { count: totalCount, amount: formatMoney(totalCents) }, data };
}
