// What a partner system's key is and may do (docs/ticket-api.md, Authentication; docs/api-conventions.md).

/** Partner system keys start with this prefix, followed by 43 base64url characters. */
export const KEY_PREFIX = 'gtes_';

/** The scopes a system may hold; each route requires one. */
export const SCOPES = ['help-desk-ticket.create', 'lead.create'] as const;
export type Scope = (typeof SCOPES)[number];
