/**
 * Identifiers of accounts, places, events, receipts and credentials: 1 to 64 ASCII letters or digits
 * (docs/admin-rules.md, intro; docs/pos-api.md, Settled details).
 */
export const POS_IDENTIFIER = /^[A-Za-z0-9]{1,64}$/;
