import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server for the e-mail tests (docs/back-office.md, E-mail to merchants): it accepts every message over
// plain SMTP on 127.0.0.1, keeps it raw and decoded (headers, plain text, HTML), and can be stopped and
// started again on the same port to play a mail server that is down for a while.

/** A message as the SMTP server received it. */
export interface ReceivedMail {
  /** The whole message as it came over the wire. */
  raw: string;
  /** The envelope's recipients (RCPT TO). */
  recipients: string[];
  /** Headers, names in lower case; encoded words decoded. */
  headers: Map<string, string>;
  subject: string;
  /** The outbox id the sender put in `X-Outbox-Id`. */
  outboxId: string;
  text: string;
  html: string;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) to text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_match, _charset: string, encoding: string, text: string) =>
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64').toString('utf8')
          : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const joined = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < joined.length; i++) {
    const char = joined.charAt(i);
    const hex = joined.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function parsePart(raw: string): Part {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  return part.body;
}

/** The leaf parts of a message, multipart or not. */
function leaves(part: Part): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || boundary === undefined) return [part];
  return part.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => parsePart(chunk.replace(/^\r\n/, '')))
    .flatMap(leaves);
}

/** A received message, decoded. */
function decodeMail(raw: string, recipients: string[]): ReceivedMail {
  const message = parsePart(raw);
  const parts = leaves(message);
  const ofType = (type: string) =>
    parts
      .filter((part) => (part.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type))
      .map(decodeBody)
      .join('');
  return {
    raw,
    recipients,
    headers: message.headers,
    subject: message.headers.get('subject') ?? '',
    outboxId: message.headers.get('x-outbox-id') ?? '',
    text: ofType('text/plain'),
    html: ofType('text/html'),
  };
}

/** A running SMTP server of the test's own, with what it received. */
export interface SmtpSink {
  /** The port, the same after a restart. */
  readonly port: number;
  /** `smtp://127.0.0.1:<port>`, for `SMTP_URL`. */
  readonly url: string;
  /** Every message received so far, in order. */
  readonly received: ReceivedMail[];
  /** Stops listening (a mail server that is down): connections are refused. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  /** Waits until at least `count` messages arrived; fails after `ms`. */
  waitFor(count: number, ms?: number): Promise<ReceivedMail[]>;
}

function listen(server: SMTPServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}

/** Starts an SMTP server on a free port of 127.0.0.1 that accepts every message. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          received.push(decodeMail(Buffer.concat(chunks).toString('utf8'), recipients));
          callback();
        });
      },
    });
  let server = create();
  const port = await listen(server, 0);
  let running = true;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    async stop() {
      if (!running) return;
      running = false;
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
    async restart() {
      if (running) return;
      server = create();
      await listen(server, port);
      running = true;
    },
    async waitFor(count, ms = 10_000) {
      const until = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > until)
          throw new Error(`expected ${count} messages, the SMTP server received ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
  };
}
