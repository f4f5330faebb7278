import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { MailTransport } from './mail-transport.js';
import { claimDueMail, markMailFailed, markMailSent } from './outbox-repository.js';

// The outbox's sender (docs/back-office.md, E-mail to merchants): started with the server, stopped at its shutdown
// before the database closes. Every `pollMs` it takes the due messages with a lease, hands them to the
// transport one by one, and records each outcome: sent, or failed with the next attempt after an
// exponential backoff (`retryBaseMs` × 2^(attempt − 1), at most `retryMaxMs`), given up after
// `maxAttempts`. A mail server that is down delays mail and loses none; in a fleet each message is taken
// by one sender at a time. Delivery is at least once: a sender that dies after the SMTP server accepted
// a message and before it recorded that leaves the message to be sent again after its lease.

/** How the sender paces itself; tests shorten every interval. */
export interface MailSenderOptions {
  /** Time between polls of the outbox when the last one found nothing more to send. */
  pollMs: number;
  /** How long a taken message is the sender's alone: longer than the slowest SMTP exchange. */
  leaseMs: number;
  /** Messages taken per poll. */
  batchSize: number;
  /** Wait before the second attempt; doubled for each further one. */
  retryBaseMs: number;
  /** The longest wait between two attempts. */
  retryMaxMs: number;
  /** Attempts before the message is given up (kept, with its error, `failed_at` set). */
  maxAttempts: number;
}

/** 12 attempts over about 5 hours: 30 s, 1, 2, 4, 8, 16 and 32 minutes, then hourly. */
const DEFAULT_MAIL_SENDER_OPTIONS: Readonly<MailSenderOptions> = Object.freeze({
  pollMs: 2000,
  leaseMs: 120_000,
  batchSize: 20,
  retryBaseMs: 30_000,
  retryMaxMs: 3_600_000,
  maxAttempts: 12,
});

/** The sender's log lines (pino's signature). */
export interface MailSenderLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The wait after failed attempt number `attempt` (1 for the first). */
export function retryDelay(attempt: number, options: Pick<MailSenderOptions, 'retryBaseMs' | 'retryMaxMs'>) {
  return Math.min(options.retryMaxMs, options.retryBaseMs * 2 ** Math.max(0, attempt - 1));
}

/** What an error says, short, for the outbox's `last_error` and the log. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 500);
}

/** The outbox's sender; nothing runs until `start`. */
export function createMailSender(deps: {
  db: Db;
  clock: Clock;
  transport: MailTransport;
  log: MailSenderLog;
  options?: Partial<MailSenderOptions>;
  /**
   * Work that writes to the outbox off a request, run at the start of each poll (the panel's queued
   * password-reset requests); when it fails, the poll still sends what is due.
   */
  prepare?: () => Promise<unknown>;
}) {
  const { db, clock, transport, log } = deps;
  const options: MailSenderOptions = { ...DEFAULT_MAIL_SENDER_OPTIONS, ...deps.options };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let started = false;
  let stopped = false;

  /** One poll: takes the due messages and tries each once. Returns how many it took. */
  async function sendDue(): Promise<{ taken: number; sent: number; failed: number }> {
    if (deps.prepare !== undefined) {
      await deps.prepare().catch((error: unknown) => {
        log.error({ error: describe(error) }, 'the queued e-mails could not be prepared');
      });
    }
    const token = randomUUID();
    const taken = await claimDueMail(db, {
      now: clock.now(),
      leaseMs: options.leaseMs,
      limit: options.batchSize,
      token,
    });
    let sent = 0;
    let failed = 0;
    for (const mail of taken) {
      const fields = { mail: { id: mail.id, kind: mail.kind, attempt: mail.attempt } };
      try {
        await transport.send(mail);
      } catch (error) {
        failed++;
        const now = clock.now();
        const giveUp = mail.attempt >= options.maxAttempts;
        const retryAt = giveUp ? null : now + retryDelay(mail.attempt, options);
        const reason = describe(error);
        await markMailFailed(db, mail.id, token, { now, error: reason, retryAt });
        if (giveUp) log.error({ ...fields, error: reason }, 'e-mail given up after its last attempt');
        else
          log.warn(
            { ...fields, error: reason, retryAt: new Date(retryAt ?? now).toISOString() },
            'e-mail not delivered; it will be tried again',
          );
        continue;
      }
      sent++;
      if (!(await markMailSent(db, mail.id, token, clock.now()))) {
        log.warn(fields, 'e-mail delivered after its lease ended; another sender may deliver it again');
      }
    }
    return { taken: taken.length, sent, failed };
  }

  function schedule(ms: number): void {
    if (stopped) return;
    timer = setTimeout(tick, ms);
    // The sender never keeps a process alive on its own: the listeners do.
    timer.unref();
  }

  function tick(): void {
    running = (async () => {
      let full = false;
      try {
        full = (await sendDue()).taken >= options.batchSize;
      } catch (error) {
        // The database is unreachable, say: the next poll tries again, nothing was lost.
        log.error({ error: describe(error) }, 'the e-mail outbox could not be read');
      }
      // A full batch: more may be due, so the next poll comes at once.
      schedule(full ? 0 : options.pollMs);
    })();
  }

  return {
    /** Starts polling (at once, then every `pollMs`). A second call does nothing. */
    start(): void {
      if (started || stopped) return;
      started = true;
      log.info({ transport: transport.name }, 'e-mail sender started');
      schedule(0);
    },
    /** Stops polling, waits for the attempt in progress, and closes the transport. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport.close();
    },
    /** One poll now (tests drive the sender with it, without `start`). */
    sendDue,
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
