// The e-mails the merchant panel sends its users (issue 13: invitation, password reset). A port: the
// service hands each message to a sender; the transactional outbox (src/mail/) takes this place when it is
// there, so that a message is written in the same transaction as the change that asks for it.

/** One e-mail to one person. */
export interface MerchantMailMessage {
  to: string;
  subject: string;
  /** Plain text: the link on a line of its own. */
  text: string;
  /** What it is about, for logs and tests: `invitation`, `password_reset`. */
  kind: 'invitation' | 'password_reset';
}

/** Where the panel's e-mails go. */
export interface MerchantMail {
  send(message: MerchantMailMessage): Promise<void>;
}

/** A sender that keeps the messages (tests read them; a developer's server logs them). */
export function createMemoryMerchantMail(onSend?: (message: MerchantMailMessage) => void): MerchantMail & {
  readonly sent: MerchantMailMessage[];
} {
  const sent: MerchantMailMessage[] = [];
  return {
    sent,
    send(message) {
      sent.push(message);
      if (sent.length > 100) sent.shift();
      onSend?.(message);
      return Promise.resolve();
    },
  };
}
