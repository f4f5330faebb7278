// The payment methods of the receipts-by-payment-method response (docs/pos-api.md, "Payment method codes"):
// codes to program against and Portuguese labels for display, in the document's order, which is also the
// order of the response's `data`. Codes may be added; an unknown stored code counts as `other`.

/** The method table, in document order, with the labels exactly as written. */
export const PAYMENT_METHODS = [
  { code: 'cash', label: 'Dinheiro' },
  { code: 'tef_virtual_wallet', label: 'TEF - Carteira digital' },
  { code: 'tef_credit', label: 'TEF - Crédito' },
  { code: 'tef_debit', label: 'TEF - Débito' },
  { code: 'tef_voucher', label: 'TEF - Voucher' },
  { code: 'tef_voucher_2', label: 'TEF - Voucher 2' },
  { code: 'tef_others', label: 'TEF - Outros' },
  { code: 'tef_pix', label: 'TEF - Pix' },
  { code: 'tef_unspecified', label: 'TEF - Não informado' },
  { code: 'pos', label: 'POS' },
  { code: 'voucher', label: 'Voucher' },
  { code: 'not_identified', label: 'Não identificado' },
  { code: 'other', label: 'Outros' },
] as const;

export type PaymentMethodCode = (typeof PAYMENT_METHODS)[number]['code'];

const KNOWN_CODES: ReadonlySet<string> = new Set(PAYMENT_METHODS.map((method) => method.code));

/** The TEF methods of the table: the only ones whose line carries a breakdown by card brand. */
const TEF_METHODS: ReadonlySet<PaymentMethodCode> = new Set(
  PAYMENT_METHODS.map((method) => method.code).filter((code) => code.startsWith('tef_')),
);

/** True for a code of the table; a stored code outside it is reported as `other`. */
function isPaymentMethodCode(code: string): code is PaymentMethodCode {
  return KNOWN_CODES.has(code);
}

/**
 * The code under which a stored payment method is reported: itself when it is in the table, `other`
 * otherwise (codes are compared exactly, so `TEF_CREDIT` or `tef_new` are `other` too).
 */
export function methodCode(stored: string): PaymentMethodCode {
  return isPaymentMethodCode(stored) ? stored : 'other';
}

/** True when the method's line breaks its receipts down by brand (`data[].brands`). */
export function isTefMethod(code: PaymentMethodCode): boolean {
  return TEF_METHODS.has(code);
}
