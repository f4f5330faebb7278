import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../../errors/refusals.js';
import { linksIn, splitLinks, type DevMailbox, type MailboxMessage } from '../../../mail/dev-mailbox.js';
import { formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { messageUrl } from './list.js';

// One message of the development mailbox (GET /console/mailbox/:id): its fields, its links, and its
// text with every http(s) URL a link, everything else escaped as the page's text. Its HTML version is
// never put into a console page: GET /console/mailbox/:id/html answers it as a document of its own,
// under a CSP whose `sandbox` gives it an opaque origin (no console cookie, no same-origin request) and
// no script, form or popup, and which loads nothing from anywhere (`default-src 'none'`).

/** The HTML version's policy: sandboxed, nothing loaded but inline styles and data: images. */
const MAIL_DOCUMENT_CSP = [
  'sandbox',
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The text version, escaped, its URLs links. */
function textWithLinks(text: string): SafeHtml {
  return html`${splitLinks(text).map((part) =>
    'url' in part ? html`<a href="${part.url}">${part.url}</a>` : part.text,
  )}`;
}

/** The message of a path's id, or the console's 404 (never sent, or pruned since). */
async function messageOf(mailbox: DevMailbox, id: string): Promise<MailboxMessage> {
  const message = await mailbox.find(id);
  if (message === undefined) throw notFound(`message "${id}" in the development mailbox`);
  return message;
}

export function registerMailboxMessagePages(kit: ConsoleKit, mailbox: DevMailbox): void {
  kit.page<{ Params: { id: string } }>('/mailbox/:id', 'staff', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const message = await messageOf(mailbox, request.params.id);
    const links = linksIn(message.text);
    const transport = message.transport === 'log' || message.transport === 'smtp' ? message.transport : null;
    const body = html`<p class="crumbs"><a href="${CONSOLE_PREFIX}/mailbox">${t('mailBack')}</a></p>
      <h1>${message.subject}</h1>
      <div class="card">
        <dl>
          <dt>${t('mailColTo')}</dt>
          <dd>${message.to}</dd>
          <dt>${t('mailColWhen')}</dt>
          <dd>
            <time datetime="${new Date(message.deliveredAt).toISOString()}"
              >${formatInstant(message.deliveredAt, locale, true)}</time
            >
          </dd>
          <dt>${t('mailColKind')}</dt>
          <dd><code>${message.kind}</code></dd>
          <dt>${t('mailTransport')}</dt>
          <dd>${transport === null ? message.transport : t(`mailTransport_${transport}`)}</dd>
          <dt>${t('mailId')}</dt>
          <dd><code>${message.id}</code></dd>
        </dl>
      </div>
      <h2>${t('mailLinks')}</h2>
      ${
        links.length === 0
          ? html`<p>${t('mailNoLinks')}</p>`
          : html`<ul id="mail-links">
              ${links.map((url) => html`<li><a class="mono" href="${url}">${url}</a></li>`)}
            </ul>`
      }
      <h2>${t('mailText')}</h2>
      <div class="card"><pre class="pre mono" id="mail-text">${textWithLinks(message.text)}</pre></div>
      <h2>${t('mailHtml')}</h2>
      <p><a href="${messageUrl(message.id, '/html')}">${t('mailHtmlOpen')}</a></p>`;
    return kit.send(request, reply, ctx, message.subject, body);
  });

  // The HTML version in a scope of its own, whose last onSend hook puts the sandboxing policy in the
  // place of the console's on the answers that are the message (its 404 stays a console page).
  const documents = new WeakSet<FastifyRequest>();
  kit.encapsulated(
    (scope: FastifyInstance) => {
      scope.addHook('onSend', (request, reply, payload, done) => {
        if (documents.has(request)) {
          reply.header('content-security-policy', MAIL_DOCUMENT_CSP);
          reply.header('cache-control', 'no-store');
          reply.header('x-content-type-options', 'nosniff');
        }
        done(null, payload);
      });
    },
    (child) => {
      child.page<{ Params: { id: string } }>('/mailbox/:id/html', 'staff', async (request, reply) => {
        const message = await messageOf(mailbox, request.params.id);
        documents.add(request);
        return reply.code(200).type('text/html; charset=utf-8').send(message.html);
      });
    },
  );
}
