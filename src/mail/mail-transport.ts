import type { OutgoingMail } from './mail-message.js';

// The port the sender delivers through: SMTP (smtp-transport.ts) when `SMTP_URL` is set, else the log
// (log-transport.ts); outside production either one is wrapped by the development mailbox (dev-mailbox.ts).

/** Hands one message to the world. */
export interface MailTransport {
  /** Which transport, for the start's log line: `smtp` or `log`. */
  readonly name: string;
  /** Resolves once the message was accepted (by the SMTP server, or written to the log); throws if not. */
  send(mail: OutgoingMail): Promise<void>;
  /** Releases what the transport holds (connections). */
  close(): void;
}
