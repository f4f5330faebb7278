/** Permissions a merchant key may carry, one per data route in service (docs/pos-api.md, Authentication). */
export const POS_PERMISSIONS = ['sale-by-payment-method.view', 'event.view'] as const;
export type PosPermission = (typeof POS_PERMISSIONS)[number];
