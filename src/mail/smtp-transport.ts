import nodemailer from 'nodemailer';
import type { MailTransport } from './mail-transport.js';

// Delivery over SMTP with nodemailer (docs/back-office.md, E-mail to merchants), to the server of `SMTP_URL`
// (`smtp://user:password@host:587`, `smtps://…:465`; nodemailer reads the URL's query too, such as
// `?tls.rejectUnauthorized=false`). Its time limits are shorter than nodemailer's defaults (two minutes to
// connect, ten of silence), so that an attempt ends well within the sender's lease and a shutdown.

/** Time limits of one SMTP exchange (ms). */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

/** The domain of the sender's address, for the Message-ID. */
function domainOf(from: string): string {
  const match = /@([^\s<>@]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'localhost';
}

/** A transport that delivers to the SMTP server of `url`, from the address `from` (`MAIL_FROM`). */
export function createSmtpMailTransport(settings: { url: string; from: string }): MailTransport {
  // Values in the URL's query win over these.
  const transporter = nodemailer.createTransport(
    {
      url: settings.url,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    },
    { from: settings.from },
  );
  const domain = domainOf(settings.from);
  return {
    name: 'smtp',
    async send(mail) {
      await transporter.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        // The same on every attempt: a receiving side may recognize a message delivered twice.
        messageId: `<${mail.id}@${domain}>`,
        headers: { 'X-Outbox-Id': mail.id },
      });
    },
    close: () => {
      transporter.close();
    },
  };
}
