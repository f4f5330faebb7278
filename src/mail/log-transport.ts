import type { MailTransport } from './mail-transport.js';

// Without `SMTP_URL` (a developer's machine, the demo) the message is written to the log instead of
// sent, so that what a merchant would receive can be read. The bodies of the messages sent today carry
// nothing secret (a key's text is never in them); the SMTP URL, which may hold a password, is not known
// here at all.

/** The log line's writer (pino's signature). */
export interface MailLog {
  info(fields: object, message: string): void;
}

/** A transport that writes each message to the log: id, kind, recipient, subject and plain text. */
export function createLogMailTransport(log: MailLog): MailTransport {
  return {
    name: 'log',
    send(mail) {
      log.info(
        { mail: { id: mail.id, kind: mail.kind, to: mail.to, subject: mail.subject, text: mail.text } },
        'e-mail not sent (SMTP_URL is not set); written here instead',
      );
      return Promise.resolve();
    },
    close: () => undefined,
  };
}
