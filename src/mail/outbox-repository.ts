import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import type { MailOutboxTable } from '../db/schema.js';
import { uuidv7 } from '../lib/identifiers.js';
import type { MailMessage, OutgoingMail } from './mail-message.js';

// The outbox table (migration 0006): a message is written in the transaction of the change it tells
// about, so it exists if and only if the change was committed; senders take the due ones with a lease,
// so that in a fleet each message is handed to one sender at a time.

/** An outbox message as stored. */
export type OutboxRow = Selectable<MailOutboxTable>;

/** Writes a message to send as soon as a sender polls; `db` is the change's transaction. Returns its id. */
export async function enqueueMail(db: Db, message: MailMessage, now: number): Promise<string> {
  const id = uuidv7(now);
  await db
    .insertInto('mail_outbox')
    .values({
      id,
      kind: message.kind,
      recipient: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      next_attempt_at: now,
      created_at: now,
    })
    .execute();
  return id;
}

/**
 * Takes up to `limit` due messages for the sender `token` until `now + leaseMs`, counting the attempt.
 * A message is due when it is neither sent nor given up and its next attempt has come (a retry, or the
 * end of the lease of a sender that never said how its attempt went). Two senders never take the same
 * message within a lease: PostgreSQL skips the rows another sender is taking, and the due condition is
 * checked again on the row being updated; SQLite writes one statement at a time.
 */
export async function claimDueMail(
  db: Db,
  claim: { now: number; leaseMs: number; limit: number; token: string },
): Promise<OutgoingMail[]> {
  const { now, leaseMs, limit, token } = claim;
  const rows = await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      lease_token: token,
      attempts: eb('attempts', '+', 1),
      next_attempt_at: now + leaseMs,
    }))
    .where('id', 'in', (eb) => {
      let due = eb
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .orderBy('seq')
        .limit(limit);
      if (isPostgres(db)) due = due.forUpdate().skipLocked();
      return due;
    })
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .returningAll()
    .execute();
  return rows
    .sort((a, b) => a.seq - b.seq)
    .map((row) => ({
      id: row.id,
      attempt: row.attempts,
      kind: row.kind,
      to: row.recipient,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
    }));
}

/**
 * Records that the sender `token` delivered the message. False when its lease was lost meanwhile. The
 * bodies are dropped once delivered: a message may carry a one-time link (an invitation, a password
 * reset) that must not outlive its delivery in a table; the row keeps who, what kind, the subject, when.
 */
export async function markMailSent(db: Db, id: string, token: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ sent_at: now, lease_token: null, last_error: null, text_body: '', html_body: '' })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a failed attempt of the sender `token`: the next one at `retryAt`, or none (`retryAt` null:
 * the sender gave up, and the message keeps its error for the operator).
 */
export async function markMailFailed(
  db: Db,
  id: string,
  token: string,
  failure: { now: number; error: string; retryAt: number | null },
): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({
      lease_token: null,
      last_error: failure.error,
      ...(failure.retryAt === null ? { failed_at: failure.now } : { next_attempt_at: failure.retryAt }),
    })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Every outbox message, oldest first (for tests and the operator's investigations). */
export async function listOutbox(db: Db): Promise<OutboxRow[]> {
  return db.selectFrom('mail_outbox').selectAll().orderBy('seq').execute();
}
