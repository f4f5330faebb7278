import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Problem } from '../../../errors/problem.js';
import { withDeadlines } from '../../../http/body-deadline.js';
import { sendProblem } from '../../../http/send-problem.js';
import { RECEIPTS_PER_CALL } from '../../../pos/receipts/receipt-input.js';
import { formatCount } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { accountHref } from './accounts-view.js';

// Receipts from a file, for the operator (issue 14: "receipts ingestion from a file with progress";
// routes: index.ts). The page's script sends the chosen file as the request's body, as the admin
// API's upload takes it (NDJSON, one receipt a line, or a JSON document {"receipts": [...]}), and shows
// how much was sent; the route streams the body into the same receipts service as the admin API's
// POST receipts, which stores the whole file or nothing, and answers JSON: the counts, or the admin
// API's problem naming the line (or index) and field of the first bad receipt. A browser without
// JavaScript is told to use the CLI's import, which sends a file of any length in chunks.

/** The media types of the file, as the admin API's upload route takes them. */
const UPLOAD_MEDIA_TYPES = { 'application/x-ndjson': 'ndjson', 'application/json': 'json' } as const;

/** What the upload's parsers leave as the body: the file's form and its unread stream. */
class UnreadUpload {
  constructor(
    readonly kind: 'ndjson' | 'json' | 'other',
    readonly stream: Readable,
  ) {}
}

/**
 * Sends the page's file with XMLHttpRequest (upload.onprogress drives the bar and the status text), the
 * page's CSRF token in `x-csrf-token`, and shows the answer: the counts, or the refusal with its line
 * and field. The form stays hidden without the script: the page then says to use the CLI.
 */
export const RECEIPTS_UPLOAD_SCRIPT = `
(function () {
  var form = document.getElementById('receipts-upload');
  if (!form) return;
  form.hidden = false;
  var input = document.getElementById('field-file');
  var bar = document.getElementById('upload-progress');
  var text = document.getElementById('upload-progress-text');
  var result = document.getElementById('upload-result');
  var button = form.querySelector('button[type=submit]');
  var lang = document.documentElement.lang || 'en';
  var say = function (name, values) {
    return form.getAttribute('data-' + name).replace(/\\{(\\w+)\\}/g, function (whole, key) {
      if (!values || !(key in values)) return whole;
      var value = values[key];
      return typeof value === 'number' ? value.toLocaleString(lang) : String(value);
    });
  };
  var show = function (ok, title, lines) {
    result.textContent = '';
    var box = document.createElement('div');
    box.className = ok ? 'flash' : 'error';
    box.id = ok ? 'upload-summary' : 'upload-error';
    box.setAttribute('role', ok ? 'status' : 'alert');
    var head = document.createElement('p');
    var strong = document.createElement('strong');
    strong.textContent = title;
    head.appendChild(strong);
    box.appendChild(head);
    lines.forEach(function (line) {
      var p = document.createElement('p');
      p.textContent = line;
      box.appendChild(p);
    });
    result.appendChild(box);
  };
  var where = function (problem) {
    var parts = [];
    if (typeof problem.line === 'number') parts.push(say('line', { line: problem.line }));
    if (typeof problem.index === 'number') parts.push(say('index', { index: problem.index }));
    var param = typeof problem.param === 'string' ? problem.param : '';
    var dot = param.indexOf('.');
    if (dot >= 0 && parts.length > 0) parts.push(say('field', { field: param.slice(dot + 1) }));
    return parts.join(', ');
  };
  var progress = function (percent) {
    bar.value = percent;
    bar.textContent = percent + '%';
    text.textContent = say('sent', { percent: percent });
  };
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var file = input.files && input.files[0];
    if (!file) {
      show(false, say('nofile'), []);
      input.focus();
      return;
    }
    var json = /\\.json$/i.test(file.name) || file.type === 'application/json';
    var xhr = new XMLHttpRequest();
    xhr.open('POST', form.getAttribute('data-action'));
    xhr.setRequestHeader('content-type', json ? 'application/json' : 'application/x-ndjson');
    xhr.setRequestHeader('x-csrf-token', form.getAttribute('data-csrf'));
    xhr.setRequestHeader('accept', 'application/json');
    result.textContent = '';
    button.disabled = true;
    progress(0);
    xhr.upload.onprogress = function (e) {
      if (e.lengthComputable && e.total > 0) progress(Math.floor((100 * e.loaded) / e.total));
    };
    xhr.upload.onload = function () {
      progress(100);
      text.textContent = say('sent', { percent: 100 }) + ' ' + say('storing');
    };
    xhr.onload = function () {
      button.disabled = false;
      var answer = null;
      try {
        answer = JSON.parse(xhr.responseText);
      } catch (e) {
        answer = null;
      }
      text.textContent = say('sent', { percent: 100 });
      if (xhr.status === 200 && answer) {
        show(true, say('done', answer), []);
      } else if (answer && typeof answer.detail === 'string') {
        var place = where(answer);
        show(false, say('refused', { status: xhr.status }), (place ? [place] : []).concat([answer.detail]));
      } else {
        show(false, say('failed', { status: xhr.status }), []);
      }
    };
    xhr.onerror = function () {
      button.disabled = false;
      show(false, say('network'), []);
    };
    xhr.send(file);
  });
})();
`;

/** Registers the receipts page and its upload route (in a context of its own, for its body parsers). */
export function registerAccountReceiptPages(kit: ConsoleKit): void {
  const { posData, receipts, metrics, config } = kit.services;

  kit.page<{ Params: { account: string } }>(
    '/accounts/:account/receipts',
    'receipts',
    async (request, reply, ctx) => {
      const { t, locale } = ctx;
      const account = await posData.account(request.params.account);
      const title = t('accReceiptsTitle', { name: account.name });
      const command = `npx partner-gateway import receipts FILE --account ${account.id}`;
      const body = html`<p class="crumbs">
          <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> ›
          <a href="${accountHref(account.id)}">${account.name}</a>
        </p>
        <h1>${title}</h1>
        <p>${t('accUploadIntro')}</p>
        <noscript>
          <div class="warning">
            <p>${t('accUploadNoScript')}</p>
            <p><code>${command}</code></p>
          </div>
        </noscript>
        <form
          id="receipts-upload"
          class="card"
          hidden
          novalidate
          data-action="${accountHref(account.id, '/receipts')}"
          data-csrf="${ctx.csrf}"
          data-sent="${t('accUploadSent')}"
          data-storing="${t('accUploadStoring')}"
          data-done="${t('accUploadDone')}"
          data-refused="${t('accUploadRefused')}"
          data-failed="${t('accUploadFailed')}"
          data-network="${t('accUploadNetwork')}"
          data-nofile="${t('accUploadNoFile')}"
          data-line="${t('accUploadLine')}"
          data-index="${t('accUploadIndex')}"
          data-field="${t('accUploadField')}"
        >
          <div class="field">
            <label for="field-file">${t('accUploadFile')}</label>
            <input
              type="file"
              id="field-file"
              name="file"
              accept=".ndjson,.jsonl,.json,application/x-ndjson,application/json"
              aria-describedby="hint-file"
              required
            />
            <p class="hint" id="hint-file">
              ${t('accUploadFileHint', { max: formatCount(RECEIPTS_PER_CALL, locale) })}
            </p>
          </div>
          <div class="actions"><button type="submit">${t('accUploadButton')}</button></div>
          <label for="upload-progress">${t('accUploadProgress')}</label>
          <progress id="upload-progress" max="100" value="0">0%</progress>
          <p id="upload-progress-text" role="status"></p>
          <div id="upload-result"></div>
        </form>
        <p class="hint">${t('accUploadCli')} <code>${command}</code></p>
        <p><a href="${accountHref(account.id)}">${t('accBackToAccount', { name: account.name })}</a></p>`;
      return kit.send(request, reply, ctx, title, body);
    },
  );

  kit.encapsulated(
    (scope: FastifyInstance) => {
      // The console's scope parses forms only (src/web/web-face.ts). Here the file is the body, handed
      // over unread whatever its length, as the admin API's upload route has it
      // (register-admin-routes.ts); any other type reaches the handler too, for a 415 in JSON.
      for (const [mediaType, kind] of Object.entries(UPLOAD_MEDIA_TYPES)) {
        scope.addContentTypeParser(mediaType, (_request, payload, done) => {
          done(null, new UnreadUpload(kind, payload));
        });
      }
      scope.addContentTypeParser('*', (_request, payload, done) => {
        done(null, new UnreadUpload('other', payload));
      });
    },
    (uploads) => {
      uploads.action<{ Params: { account: string } }>(
        '/accounts/:account/receipts',
        'receipts',
        async (request, reply, ctx) => {
          const body: unknown = request.body;
          const upload = body instanceof UnreadUpload ? body : new UnreadUpload('other', Readable.from([]));
          const stream = withDeadlines(upload.stream, {
            idleMs: config.uploadIdleTimeoutMs,
            totalMs: config.uploadTimeoutMs,
          });
          try {
            if (body === undefined) throw Problem.of('no_receipts');
            if (upload.kind === 'other') {
              throw Problem.of('unsupported_media_type', {
                detail:
                  'Send the file as application/x-ndjson (one receipt a line) or application/json ({"receipts": [...]}).',
              });
            }
            const account = await posData.account(request.params.account);
            const counts =
              upload.kind === 'ndjson'
                ? await receipts.importLines(account.id, stream)
                : await receipts.importJson(account.id, stream, request.headers['content-length']);
            metrics.receiptsIngested(counts);
            const received = counts.inserted + counts.updated + counts.unchanged;
            await kit.record(ctx, {
              action: 'importPosReceipts',
              target: `pos/accounts/${account.id}/receipts`,
              details: { format: upload.kind, received, ...counts },
            });
            return await reply
              .code(200)
              .type('application/json; charset=utf-8')
              .send(JSON.stringify({ received, ...counts }));
          } catch (error) {
            // The rest of the body is not read: discard it and close the connection after the answer.
            reply.header('connection', 'close');
            stream.destroy();
            upload.stream.resume();
            if (error instanceof Problem) return sendProblem(reply, error);
            throw error;
          }
        },
      );
    },
  );
}
