import type { MailTransport } from './mail-transport.js';

// Without `SMTP_URL` (a developer's machine, the demo) the message is written to the log instead of
// sent, so that what a merchant would receive can be read. A key's text is never in a message; a one-time
// link (the panel's invitation and password reset) is, with its token in the URL's query: every URL is
// written without its query (`https://…/panel/set-password?…`), so the log never holds a usable link.
// The SMTP URL, which may hold a password, is not known here at all. Outside production the whole
// message, links intact, is kept in the development mailbox instead (dev-mailbox.ts), never in the log.

/** The log line's writer (pino's signature). */
export interface MailLog {
  info(fields: object, message: string): void;
}

/** `text` with every http(s) URL's query and fragment replaced by `?…`. */
function withoutUrlQueries(text: string): string {
  return text.replace(/\b(https?:\/\/[^\s?#]*)[?#]\S*/gi, '$1?…');
}

/**
 * A transport that writes each message to the log: id, kind, recipient, subject and plain text, the
 * text's URLs without their query (where one-time links carry their token).
 */
export function createLogMailTransport(log: MailLog): MailTransport {
  return {
    name: 'log',
    send(mail) {
      log.info(
        {
          mail: {
            id: mail.id,
            kind: mail.kind,
            to: mail.to,
            subject: mail.subject,
            text: withoutUrlQueries(mail.text),
          },
        },
        'e-mail not sent (SMTP_URL is not set); written here instead',
      );
      return Promise.resolve();
    },
    close: () => undefined,
  };
}
