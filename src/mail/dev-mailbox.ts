import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { MailTransport } from './mail-transport.js';

// The development mailbox (docs/operations.md, Reading e-mail locally): outside production
// (`NODE_ENV` other than `production`), every message the outbox's sender delivers is also kept here
// whole, subject, bodies and one-time links intact, so that an invitation or a password reset can be
// finished on a developer's machine, where the log transport cuts every link. It is a table (migration
// 0011), not the process's memory, so that the console and the command line read what any process of
// the service sent, on SQLite and PostgreSQL alike; it keeps the newest `DEV_MAILBOX_SIZE` messages,
// pruned as it is written. In production the services build no mailbox: nothing is written to the
// table, and the outbox drops the bodies on delivery as it always does (outbox-repository.ts).

/** How many messages the mailbox keeps: the newest. */
export const DEV_MAILBOX_SIZE = 200;

/** A message of the mailbox, as a list shows it. */
export interface MailboxEntry {
  /** The outbox message's id. */
  readonly id: string;
  /** What it is about (`merchant_user_invited`, `pos_key_created`, …). */
  readonly kind: string;
  readonly to: string;
  readonly subject: string;
  /** When the sender delivered it (ms). */
  readonly deliveredAt: number;
  /** The transport that took it: `log` (no `SMTP_URL`) or `smtp`. */
  readonly transport: string;
}

/** A whole message of the mailbox. */
export interface MailboxMessage extends MailboxEntry {
  readonly text: string;
  readonly html: string;
}

/** What a list may be narrowed to. */
export interface MailboxQuery {
  /** At most this many, newest first (1 to `DEV_MAILBOX_SIZE`). */
  limit?: number;
  /** Only the messages to this address (case does not matter). */
  to?: string;
}

/** The mailbox's log line on a failed write (pino's signature). */
interface MailboxLog {
  warn(fields: object, message: string): void;
}

/** An http(s) URL in a text; punctuation that ends a sentence after it is not part of it. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"]*[^\s<>".,;:!?)\]'’”]/gi;

/** A text cut into its plain runs and its http(s) URLs, in order (for a page that makes links of them). */
export function splitLinks(text: string): ({ text: string } | { url: string })[] {
  const parts: ({ text: string } | { url: string })[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ url: match[0] });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** Every http(s) URL of a text, in order, each once (a message's links). */
export function linksIn(text: string): string[] {
  return [...new Set(splitLinks(text).flatMap((part) => ('url' in part ? [part.url] : [])))];
}

const ENTRY_COLUMNS = ['id', 'kind', 'recipient', 'subject', 'delivered_at', 'transport'] as const;

function entryOf(row: {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  delivered_at: number;
  transport: string;
}): MailboxEntry {
  return {
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    deliveredAt: row.delivered_at,
    transport: row.transport,
  };
}

/** The mailbox over the service's database. */
export function createDevMailbox(deps: { db: Db; clock: Clock; size?: number }) {
  const { db, clock } = deps;
  const size = deps.size ?? DEV_MAILBOX_SIZE;

  /** Keeps a delivered message (once per id), then drops all but the newest `size`. */
  async function keep(
    mail: { id: string; kind: string; to: string; subject: string; text: string; html: string },
    transport: string,
  ): Promise<void> {
    await db
      .insertInto('dev_mailbox')
      .values({
        id: mail.id,
        kind: mail.kind,
        recipient: mail.to,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        transport,
        delivered_at: clock.now(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    // Everything older than the newest `size`: one statement, right with several processes writing.
    await db
      .deleteFrom('dev_mailbox')
      .where('seq', '<=', (eb) =>
        eb.selectFrom('dev_mailbox').select('seq').orderBy('seq', 'desc').limit(1).offset(size),
      )
      .execute();
  }

  return {
    /** How many messages it keeps. */
    size,
    keep,
    /** The messages, newest first. */
    async list(query: MailboxQuery = {}): Promise<MailboxEntry[]> {
      let select = db
        .selectFrom('dev_mailbox')
        .select(ENTRY_COLUMNS)
        .orderBy('seq', 'desc')
        .limit(Math.min(Math.max(1, query.limit ?? size), size));
      const to = query.to?.trim().toLowerCase();
      if (to !== undefined) select = select.where((eb) => eb(eb.fn('lower', ['recipient']), '=', to));
      return (await select.execute()).map(entryOf);
    },
    /** One message, whole; undefined when the mailbox holds none of that id (never sent, or pruned). */
    async find(id: string): Promise<MailboxMessage | undefined> {
      const row = await db
        .selectFrom('dev_mailbox')
        .select([...ENTRY_COLUMNS, 'text_body', 'html_body'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row === undefined ? undefined : { ...entryOf(row), text: row.text_body, html: row.html_body };
    },
    /**
     * `transport` that also keeps each message it delivered. A message the mailbox cannot keep (the
     * database failing) is still delivered, and the failure logged: the mailbox never sends one twice.
     */
    around(transport: MailTransport, log: MailboxLog): MailTransport {
      return {
        name: transport.name,
        async send(mail) {
          await transport.send(mail);
          await keep(mail, transport.name).catch((error: unknown) => {
            const reason = error instanceof Error ? error.message : String(error);
            log.warn({ mail: { id: mail.id }, error: reason }, 'e-mail not kept in the development mailbox');
          });
        },
        close: () => {
          transport.close();
        },
      };
    },
  };
}

export type DevMailbox = ReturnType<typeof createDevMailbox>;
