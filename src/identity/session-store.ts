import { createHash } from 'node:crypto';
import type { FastifySessionObject, SessionStore } from '@fastify/session';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';

// Where the web faces keep their sessions: the service's database (table web_sessions), so that every
// process of a fleet reads the same session and a sign-out or a password change ends it everywhere.
// Only a hash of the session id is stored, and only a signed-in user's session: a visitor's (before
// sign-in) has nothing to keep, since the CSRF secret and one-time messages live in cookies of their own.

/** A session's lifetime when its cookie has no expiry of its own. */
const DEFAULT_LIFETIME_MS = 8 * 3_600_000;

function idHash(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}

/** The session data's user id, when the face put one there (`userId`). */
function userOf(session: Record<string, unknown>): string | null {
  return typeof session.userId === 'string' ? session.userId : null;
}

/**
 * Deletes every session of a face's user (in `db`, which may be a transaction: a staff user disabled
 * loses the console in the same commit), but the one whose id is `exceptSessionId`.
 */
export async function deleteUserSessions(
  db: Db,
  face: string,
  userId: string,
  exceptSessionId?: string,
): Promise<void> {
  let query = db.deleteFrom('web_sessions').where('face', '=', face).where('user_id', '=', userId);
  if (exceptSessionId !== undefined) query = query.where('id_hash', '!=', idHash(exceptSessionId));
  await query.execute();
}

/** A session store (the @fastify/session interface) over the database, for one face. */
export function createDbSessionStore(deps: { db: Db; clock: Clock; face: string }): SessionStore & {
  /** Ends every session of a user of this face (after a password change or reset), except one. */
  endUserSessions(userId: string, exceptSessionId?: string): Promise<void>;
} {
  const { db, clock, face } = deps;
  const settle = <T>(promise: Promise<T>, callback: (error?: unknown, value?: T) => void) => {
    promise.then(
      (value) => {
        callback(undefined, value);
      },
      (error: unknown) => {
        callback(error);
      },
    );
  };
  return {
    set(sessionId, session, callback) {
      const data = session as unknown as Record<string, unknown> & { cookie?: { expires?: Date | null } };
      const expires = data.cookie?.expires;
      const userId = userOf(data);
      // The empty session that a sign-in regenerates before it puts the user in is not written either.
      if (userId === null) {
        callback();
        return;
      }
      const expiresAt = expires instanceof Date ? expires.getTime() : clock.now() + DEFAULT_LIFETIME_MS;
      const row = {
        id_hash: idHash(sessionId),
        face,
        user_id: userId,
        data: JSON.stringify(session),
        expires_at: expiresAt,
      };
      settle(
        db
          .insertInto('web_sessions')
          .values(row)
          .onConflict((oc) =>
            oc
              .column('id_hash')
              .doUpdateSet({ user_id: row.user_id, data: row.data, expires_at: row.expires_at }),
          )
          .execute(),
        (error) => {
          callback(error);
        },
      );
    },
    get(sessionId, callback) {
      settle(
        (async () => {
          const row = await db
            .selectFrom('web_sessions')
            .select(['data', 'expires_at'])
            .where('id_hash', '=', idHash(sessionId))
            .where('face', '=', face)
            .executeTakeFirst();
          if (row === undefined || row.expires_at <= clock.now()) return null;
          const data = JSON.parse(row.data) as { cookie?: { expires?: string | Date | null } };
          if (typeof data.cookie?.expires === 'string') data.cookie.expires = new Date(data.cookie.expires);
          return data as unknown as FastifySessionObject;
        })(),
        (error, value) => {
          callback(error, value ?? null);
        },
      );
    },
    destroy(sessionId, callback) {
      settle(db.deleteFrom('web_sessions').where('id_hash', '=', idHash(sessionId)).execute(), (error) => {
        callback(error);
      });
    },
    async endUserSessions(userId, exceptSessionId) {
      await deleteUserSessions(db, face, userId, exceptSessionId);
    },
  };
}

export type DbSessionStore = ReturnType<typeof createDbSessionStore>;
