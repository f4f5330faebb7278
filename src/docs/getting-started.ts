import { DEMO_SYSTEM } from '../helpdesk/demo.js';

/** One step of a guide: a few sentences (trusted HTML written here) and an optional command to copy. */
interface GuideStep {
  title: string;
  /** Paragraphs of HTML: written in this file, never from a request or the database. */
  html: string[];
  /** A shell command that works as printed against the demo, with the key in `$KEY`. */
  command?: string;
}

/** The "Getting started" of one public API. */
export interface Guide {
  steps: GuideStep[];
}

const DAY_MS = 86_400_000;
/** The merchants' offset of the demo's time zone (America/Sao_Paulo, no daylight saving time). */
const DEMO_OFFSET_MS = -3 * 3_600_000;

/** YYYY-MM-DD of the day `days` after the one `now` falls on at UTC-03:00. */
function demoDay(now: number, days: number): string {
  return new Date(now + DEMO_OFFSET_MS + days * DAY_MS).toISOString().slice(0, 10);
}

const keyStep = (who: string, prefix: string): GuideStep => ({
  title: 'Your key',
  html: [
    `${who} Send it on every call as <code>Authorization: Bearer &lt;key&gt;</code>, over HTTPS only,
     from a server of your own (never inside a distributed app or a web page). The demo service prints
     its keys once, on its first start (<code>npm start</code>): they start with <code>${prefix}</code>.
     Put yours in a shell variable and every command below works as printed:`,
  ],
  command: `export KEY='paste the key here'`,
});

/** The help-desk ticket API's guide, its commands aimed at `baseUrl` (config PUBLIC_BASE_URL). */
export function helpDeskGuide(baseUrl: string): Guide {
  const api = `${baseUrl}/v1/api-external-system`;
  const auth = `-H "Authorization: Bearer $KEY"`;
  const ticket = `'{"external_id":"demo-1","company":"acme","description":"Terminal 3 does not print receipts."}'`;
  return {
    steps: [
      keyStep(
        'The operator issues one key per partner system, with the scope <code>help-desk-ticket.create</code>.',
        'gtes_',
      ),
      {
        title: 'Read the ticket options',
        html: [
          `The companies, categories, priorities, support levels and natures you may send, with their ids.
           Read ids from here, never hard-code them, and keep the answer for a few hours: fetch it again when
           a ticket comes back with the warning <code>category_fallback</code>, <code>priority_fallback</code>
           or the error <code>invalid_nature</code>.`,
        ],
        command: `curl -s ${api}/help-desk-ticket-options ${auth}`,
      },
      {
        title: 'Open a ticket',
        html: [
          `<code>external_id</code> is your own id of the ticket. The first call answers 201; the same
           <code>external_id</code> sent again answers 200 with <code>duplicate: true</code> and the ticket
           already opened, never a second ticket. <code>warnings</code> says what was replaced or ignored; the
           ticket was opened all the same.`,
        ],
        command: `curl -s -X POST ${api}/help-desk-ticket ${auth} \\\n  -H 'Content-Type: application/json' \\\n  -d ${ticket}`,
      },
      {
        title: 'Or through the webhook route',
        html: [
          `The same body and the same answers, on a path that names your system (the demo's is
           <code>${DEMO_SYSTEM}</code>). Any <code>Content-Type</code> is accepted.`,
        ],
        command: `curl -s -X POST ${api}/webhook/${DEMO_SYSTEM} ${auth} \\\n  -H 'Content-Type: application/json' \\\n  -d ${ticket}`,
      },
      {
        title: 'When to retry',
        html: [
          `<strong>429 <code>rate_limited</code></strong>: wait the seconds of <code>Retry-After</code>, then
           resend the same body with the same <code>external_id</code>, a bounded number of times. Do not loop.
           <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and
           <code>X-RateLimit-Reset</code> on each answer tell your balance.`,
          `<strong>503 <code>temporarily_unavailable</code></strong>: the API is switched off for a while. Keep
           the ticket, wait <code>Retry-After</code> and resend it with the same <code>external_id</code>:
           never drop a ticket on a 503. Resending is always safe, since the same <code>external_id</code>
           never opens a second ticket.`,
          `Every refusal is <code>application/problem+json</code> with a <code>code</code>; logic must use the
           code, never the English <code>detail</code>. A code you do not know is handled by its status.`,
        ],
      },
    ],
  };
}

/** The point-of-sale data API's guide, its commands aimed at `baseUrl` with dates around `now`. */
export function posGuide(baseUrl: string, now: number): Guide {
  const api = `${baseUrl}/v1/api-public`;
  const auth = `-H "Authorization: Bearer $KEY"`;
  const from = `${demoDay(now, -3)}T00:00:00-03:00`;
  const to = `${demoDay(now, 1)}T00:00:00-03:00`;
  return {
    steps: [
      keyStep(
        'The merchant creates keys in the panel (Account options, Integrations, API keys) and ticks their permissions: <code>event.view</code> for events, <code>sale-by-payment-method.view</code> for sales.',
        'gtpk_',
      ),
      {
        title: 'The first call',
        html: [`Who the key belongs to, then the places it reaches (their ids go in <code>place</code>).`],
        command: `curl -s ${api}/ping ${auth}\ncurl -s ${api}/places ${auth}`,
      },
      {
        title: 'Events, page by page',
        html: [
          `Pass <code>next_cursor</code> as <code>cursor</code> to read the next page, keeping
           <code>place</code> and <code>search</code> unchanged; the last page has
           <code>next_cursor: null</code>.`,
        ],
        command: `curl -s '${api}/events?place=REC01&limit=20' ${auth}`,
      },
      {
        title: 'Sales by payment method',
        html: [
          `One place per call, <code>from</code> included and <code>to</code> excluded, at most 120 days.
           Money is text with two decimals (<code>"12.50"</code>): sum it as decimals, never as floating point.
           Never run two sales queries at once.`,
          `<strong>Late sales arrive.</strong> Sales made offline enter the period when they happened, so a
           period already read can grow: re-query the last 3 days on every run and replace what you stored.`,
        ],
        command: `curl -s '${api}/sales/by-payment-method?place=SP01&from=${from}&to=${to}' ${auth}`,
      },
      {
        title: 'When to retry',
        html: [
          `<strong>429 <code>rate_limited</code></strong> and <strong>503</strong>: wait the seconds of
           <code>Retry-After</code>, then retry a bounded number of times. Every answer to a key carries
           <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and
           <code>X-RateLimit-Reset</code>; errors count too.`,
          `<code>Deprecation: true</code> and <code>Sunset</code> on an answer mean the key used was rotated out:
           switch to the new key before the <code>Sunset</code> date.`,
          `Every refusal is <code>application/problem+json</code> with a <code>code</code>; a code you do not
           know is handled by its status.`,
        ],
      },
    ],
  };
}
