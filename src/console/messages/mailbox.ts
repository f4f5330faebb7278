import type { Catalogue } from '../../web/i18n.js';

// The development mailbox's texts (src/console/pages/mail/).

const en = {
  navMailbox: 'Mailbox',
  mailTitle: 'Development mailbox',
  mailIntro:
    'Every e-mail the service sent, kept whole with its links so that an invitation or a password reset can be finished without a mail server. Outside production only: the newest {size} messages, newest first. It holds other people’s one-time links: operators only.',
  mailNone:
    'No e-mail sent yet. Invite a merchant user or ask for a password reset: the message shows here within a few seconds.',
  mailCount: '{count} message(s)',
  mailColWhen: 'Sent (UTC-03:00)',
  mailColTo: 'To',
  mailColSubject: 'Subject',
  mailColKind: 'Kind',
  mailBack: 'Development mailbox',
  mailId: 'Message id',
  mailTransport: 'Delivered by',
  mailTransport_log: 'the log (no SMTP_URL): kept here whole, cut in the log',
  mailTransport_smtp: 'the SMTP server of SMTP_URL',
  mailLinks: 'Links in the message',
  mailNoLinks: 'The message has no link.',
  mailText: 'Text version',
  mailHtml: 'HTML version',
  mailHtmlOpen: 'Open the HTML version (a page of its own, without scripts or forms)',
};

type Key = keyof typeof en;

const ptBR: Record<Key, string> = {
  navMailbox: 'Caixa de saída',
  mailTitle: 'Caixa de saída de desenvolvimento',
  mailIntro:
    'Todos os e-mails que o serviço enviou, guardados por inteiro com os links, para que um convite ou uma redefinição de senha possa ser concluído sem servidor de e-mail. Só fora de produção: as {size} mensagens mais recentes, das mais novas para as mais antigas. Contém links de uso único de outras pessoas: só para operadores.',
  mailNone:
    'Nenhum e-mail enviado ainda. Convide um usuário de lojista ou peça uma redefinição de senha: a mensagem aparece aqui em poucos segundos.',
  mailCount: '{count} mensagem(ns)',
  mailColWhen: 'Enviado em (UTC-03:00)',
  mailColTo: 'Para',
  mailColSubject: 'Assunto',
  mailColKind: 'Tipo',
  mailBack: 'Caixa de saída de desenvolvimento',
  mailId: 'Id da mensagem',
  mailTransport: 'Entregue por',
  mailTransport_log: 'o log (sem SMTP_URL): guardada aqui por inteiro, cortada no log',
  mailTransport_smtp: 'o servidor SMTP de SMTP_URL',
  mailLinks: 'Links da mensagem',
  mailNoLinks: 'A mensagem não tem link.',
  mailText: 'Versão em texto',
  mailHtml: 'Versão em HTML',
  mailHtmlOpen: 'Abrir a versão em HTML (uma página à parte, sem scripts nem formulários)',
};

export const MAILBOX_MESSAGES: Catalogue<Key> = { en, 'pt-BR': ptBR };
