/**
 * Identifiers of accounts, places, events, receipts and credentials: 1 to 64 ASCII letters or digits
 * (admin-api.md, intro; DECISIONS, POS data API).
 */
export const POS_IDENTIFIER = /^[A-Za-z0-9]{1,64}$/;
