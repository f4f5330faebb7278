// A message of the transactional outbox (docs/back-office.md, E-mail to merchants): what a domain writes, in the
// transaction of the change it tells about, and what a sender hands to the mail transport.

/** A message to write to the outbox. */
export interface MailMessage {
  /** What it is about (`pos_key_created`, …): shown in the log and kept in the outbox. */
  kind: string;
  /** One e-mail address. */
  to: string;
  subject: string;
  /** The plain-text body. */
  text: string;
  /** The HTML body, every interpolated value escaped (escapeHtml). */
  html: string;
}

/** A message taken from the outbox for an attempt: its outbox id travels with it (Message-ID, header). */
export interface OutgoingMail extends MailMessage {
  id: string;
  /** This attempt's number, 1 for the first. */
  attempt: number;
}
