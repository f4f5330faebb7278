import type { Db } from '../db/database.js';
import { notFound } from '../errors/refusals.js';
import { auditFilters, type KeyAuditQueryInput } from './key-audit-input.js';
import {
  listKeyEvents,
  type KeyAuditEvent,
  type KeyAuditPosition,
  type KeyKind,
} from './key-audit-repository.js';

// Reading the key audit trail (docs/back-office.md, Audit trail and last use): across all keys, per partner system,
// per merchant account, per merchant key; newest first, one page at a time. Writing is the key services'
// own (in the transaction of each change) and the sweeps'.

/** A page of the trail and where the next one starts. */
export interface KeyAuditPage {
  events: KeyAuditEvent[];
  next: KeyAuditPosition | null;
}

/** The trail's reading service; 404 for a system, account or key that does not exist. */
export function createKeyAuditService(deps: { db: Db }) {
  const { db } = deps;

  const exists = async (query: Promise<unknown>) => (await query) !== undefined;

  return {
    /** Every key's events, or one kind's. */
    all: (input: KeyAuditQueryInput & { kind?: KeyKind | undefined }): Promise<KeyAuditPage> =>
      listKeyEvents(db, {
        ...(input.kind === undefined ? {} : { kind: input.kind }),
        ...auditFilters(input),
      }),

    /** The events of a partner system's key. */
    async ofSystem(identifier: string, input: KeyAuditQueryInput): Promise<KeyAuditPage> {
      const found = db.selectFrom('hd_systems').select('identifier').where('identifier', '=', identifier);
      if (!(await exists(found.executeTakeFirst()))) throw notFound(`system "${identifier}"`);
      return listKeyEvents(db, { kind: 'system', ownerId: identifier, ...auditFilters(input) });
    },

    /** The events of every key of a merchant account. */
    async ofAccount(accountId: string, input: KeyAuditQueryInput): Promise<KeyAuditPage> {
      const found = db.selectFrom('pos_accounts').select('id').where('id', '=', accountId);
      if (!(await exists(found.executeTakeFirst()))) throw notFound(`account "${accountId}"`);
      return listKeyEvents(db, { kind: 'merchant', ownerId: accountId, ...auditFilters(input) });
    },

    /** The events of one merchant key. */
    async ofMerchantKey(accountId: string, keyId: string, input: KeyAuditQueryInput): Promise<KeyAuditPage> {
      const found = db
        .selectFrom('pos_keys')
        .select('id')
        .where('account_id', '=', accountId)
        .where('id', '=', keyId);
      if (!(await exists(found.executeTakeFirst())))
        throw notFound(`key "${keyId}" in account "${accountId}"`);
      return listKeyEvents(db, { kind: 'merchant', ownerId: accountId, keyId, ...auditFilters(input) });
    },
  };
}

export type KeyAuditService = ReturnType<typeof createKeyAuditService>;
