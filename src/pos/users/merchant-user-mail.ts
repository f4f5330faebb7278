import { renderHtml, renderText, type MailDocument } from '../../mail/mail-document.js';
import type { MailMessage } from '../../mail/mail-message.js';
import { brazilTime } from '../keys/merchant-key-mail.js';

// The e-mails of the merchant panel's users (issue 13, Who signs in): the invitation (a one-time link
// valid 72 hours) and the password reset (1 hour), in Portuguese with an English line. Written to the
// outbox in the transaction that stores the link, so the message exists exactly when the link does. The
// link's token travels in the URL's query, which the log transport never writes (src/mail/log-transport.ts).

/** The invitation to `user` of `account`, with its one-time link valid until `expiresAt`. */
export function invitationMail(
  account: { name: string },
  user: { email: string; name: string },
  link: { url: string; expiresAt: number },
): MailMessage {
  const subject = `Convite para o painel de ${account.name} / Invitation to the ${account.name} panel`;
  const doc: MailDocument = {
    greeting: `Olá, ${user.name}.`,
    lead:
      `Você foi convidado(a) para o painel da conta ${account.name}, onde se criam e gerenciam as chaves ` +
      'de API e se consultam os relatórios financeiros. Defina sua senha pelo link abaixo.',
    action: { label: 'Definir senha (link válido por 72 horas, uma vez só)', url: link.url },
    facts: [
      ['E-mail de acesso', user.email],
      ['Link válido até', brazilTime(link.expiresAt)],
    ],
    changes: [],
    closing: [
      'Se você não esperava este convite, ignore esta mensagem: nada acontece sem o link.',
      `Hello ${user.name}: you have been invited to the ${account.name} panel. Set your password at the ` +
        'link above (valid 72 hours, once).',
    ],
    signature: 'Partner Gateway',
  };
  return {
    kind: 'panel_invitation',
    to: user.email,
    subject,
    text: renderText(doc),
    html: renderHtml(doc, { language: 'pt-BR', title: subject }),
  };
}

/** The password reset of `user`, with its one-time link valid until `expiresAt`. */
export function passwordResetMail(
  user: { email: string; name: string },
  link: { url: string; expiresAt: number },
): MailMessage {
  const subject = 'Redefinição de senha do painel / Panel password reset';
  const doc: MailDocument = {
    greeting: `Olá, ${user.name}.`,
    lead: 'Recebemos um pedido para redefinir a senha do seu acesso ao painel.',
    action: { label: 'Definir nova senha (link válido por 1 hora, uma vez só)', url: link.url },
    facts: [
      ['E-mail de acesso', user.email],
      ['Link válido até', brazilTime(link.expiresAt)],
    ],
    changes: [],
    closing: [
      'Se você não pediu, ignore esta mensagem: sua senha continua a mesma.',
      'If you did not ask for a new password, ignore this message: your password stays as it is.',
    ],
    signature: 'Partner Gateway',
  };
  return {
    kind: 'panel_password_reset',
    to: user.email,
    subject,
    text: renderText(doc),
    html: renderHtml(doc, { language: 'pt-BR', title: subject }),
  };
}
