import type { Selectable } from 'kysely';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { BackOfficeActionTable } from '../db/schema.js';
import { invalidInput } from '../errors/refusals.js';
import type { Actor, ActorChannel, ActorRole } from './actor.js';
import { auditCursor, auditCursorText, auditPosition, type AuditPosition } from './audit-cursor.js';

// The back-office action log (issue 14: "every action is recorded in the audit trail with the staff
// user"): one row per change made through the back office, whoever made it: a successful non-GET call
// of the admin API or the CLI (written by the admin registrar, src/admin/register-admin-routes.ts), a
// staff user change (by the staff user service, in its transaction), an action in the console (by the
// console). Read newest first by the operator. Never a secret: members named like one are hidden.

/** One change to record. */
export interface BackOfficeEntry {
  /** The operation: an admin operation id (`putHelpDeskCompany`) or a console action's name. */
  action: string;
  /** What it acted on, as a path under /admin/v1/ (`helpdesk/companies/acme`). */
  target: string;
  /** What was sent or changed (a JSON object); never a key, a link, a password or a hash. */
  details?: Record<string, unknown>;
}

/** A recorded change. */
export interface BackOfficeAction extends Required<BackOfficeEntry> {
  /** The row's sequence: ties of `occurredAt` are ordered by it. */
  seq: number;
  occurredAt: number;
  actor: Actor;
}

/** A reading of the log: one page, newest first, optionally of one action or one staff user. */
export interface BackOfficeQuery {
  /** Actions on the page, 1 to 200 (default 50). */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Only this action. */
  action?: string;
  /** Only the actions of this staff user (the actor's user id). */
  userId?: string;
}

/** A page of the log and the cursor of the next one (null on the last page). */
export interface BackOfficePage {
  actions: BackOfficeAction[];
  nextCursor: string | null;
}

export const BACK_OFFICE_PAGE_DEFAULT = 50;
export const BACK_OFFICE_PAGE_MAX = 200;

/**
 * Member names that hold secrets: `password`, `token`, `secret`, `hash` or `url` (a one-time link) as a
 * word of the name, or `key` itself (a key's text; `key_grace_seconds` is a setting).
 */
const SECRET_MEMBER = /(?:^|_)(?:password|token|secret|hash|url)(?:$|_)|^key$/i;

/** `value` with every member whose name says it holds a secret (or a link) replaced by `[hidden]`. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, member]) => [
      name,
      SECRET_MEMBER.test(name) ? '[hidden]' : withoutSecrets(member),
    ]),
  );
}

function toAction(row: Selectable<BackOfficeActionTable>): BackOfficeAction {
  return {
    seq: row.seq,
    occurredAt: row.occurred_at,
    actor: {
      role: row.actor_role as ActorRole,
      userId: row.actor_user_id,
      displayName: row.actor_name,
      channel: row.channel as ActorChannel,
      ip: row.actor_ip,
    },
    action: row.action,
    target: row.target,
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}

/** The back-office action log. */
export function createBackOfficeLog(deps: { db: Db; clock: Clock }) {
  const { clock } = deps;
  const insertEntry = async (db: Db, actor: Actor, entry: BackOfficeEntry): Promise<void> => {
    await db
      .insertInto('back_office_actions')
      .values({
        occurred_at: clock.now(),
        actor_role: actor.role,
        actor_user_id: actor.userId ?? null,
        actor_name: actor.displayName ?? null,
        channel: actor.channel,
        actor_ip: actor.ip,
        action: entry.action,
        target: entry.target,
        details: JSON.stringify(withoutSecrets(entry.details ?? {})),
      })
      .execute();
  };
  return {
    /**
     * Records a change made by `actor`, in `db`: a transaction, so that the row is written with the
     * change (or neither), or the database, after it.
     */
    async record(db: Db, actor: Actor, entry: BackOfficeEntry): Promise<void> {
      await insertEntry(db, actor, entry);
    },

    /** Records a change made by `actor` on its own, after the change (a sign-in, a console action). */
    async append(actor: Actor, entry: BackOfficeEntry): Promise<void> {
      await insertEntry(deps.db, actor, entry);
    },

    /** One page of the log, newest first (by instant, then by sequence). A malformed cursor: 422. */
    async list(query: BackOfficeQuery = {}): Promise<BackOfficePage> {
      const limit = query.limit ?? BACK_OFFICE_PAGE_DEFAULT;
      if (!Number.isInteger(limit) || limit < 1 || limit > BACK_OFFICE_PAGE_MAX) {
        throw invalidInput('limit', `must be a whole number from 1 to ${BACK_OFFICE_PAGE_MAX}`);
      }
      let after: AuditPosition | undefined;
      if (query.cursor !== undefined) {
        const cursor = auditCursorText.safeParse(query.cursor);
        if (!cursor.success) throw invalidInput('cursor', 'must be the next_cursor of a previous page');
        after = auditPosition(cursor.data);
      }
      let select = deps.db
        .selectFrom('back_office_actions')
        .selectAll()
        .orderBy('occurred_at', 'desc')
        .orderBy('seq', 'desc')
        .limit(limit + 1);
      if (query.action !== undefined) select = select.where('action', '=', query.action);
      if (query.userId !== undefined) select = select.where('actor_user_id', '=', query.userId);
      if (after !== undefined) {
        const { occurredAt, seq } = after;
        select = select.where((eb) =>
          eb.or([
            eb('occurred_at', '<', occurredAt),
            eb.and([eb('occurred_at', '=', occurredAt), eb('seq', '<', seq)]),
          ]),
        );
      }
      const rows = await select.execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        actions: page.map(toAction),
        nextCursor:
          rows.length > limit && last !== undefined
            ? auditCursor({ occurredAt: last.occurred_at, seq: last.seq })
            : null,
      };
    },
  };
}

export type BackOfficeLog = ReturnType<typeof createBackOfficeLog>;
