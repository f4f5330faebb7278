import { z } from 'zod';

// Where a page of a newest-first trail (the key audit trail, the back-office action log) starts: the
// instant and sequence of the previous page's last row, as `<ms>.<seq>`. It is not signed: the back
// office's callers may read the whole trail, so a cursor they write themselves shows them nothing they
// could not read.

/** A row's place in the newest-first order: by instant, then by sequence. */
export interface AuditPosition {
  occurredAt: number;
  seq: number;
}

const CURSOR = /^(\d{1,16})\.(\d{1,16})$/;

/** The `cursor` of a reading: the `next_cursor` of the previous page. */
export const auditCursorText = z.string().regex(CURSOR, 'must be the next_cursor of a previous page');

/** The cursor text of a position. */
export function auditCursor(position: AuditPosition): string {
  return `${position.occurredAt}.${position.seq}`;
}

/** The position a cursor text points after (its shape was checked by `auditCursorText`). */
export function auditPosition(cursor: string): AuditPosition {
  const [, occurredAt = '0', seq = '0'] = CURSOR.exec(cursor) ?? [];
  return { occurredAt: Number(occurredAt), seq: Number(seq) };
}
