import type { Config } from '../config.js';
import type { DemoCredentials } from './credentials.js';

// What the start prints about the demo (docs/getting-started.md, The first start): on the start that
// creates it, where the documentation, the panel and the console are, the demo's secrets as shell
// `export` lines and `curl` commands that use them, shown this once (only hashes are stored); on later
// starts one line saying where things are and how to get new credentials. In production too, the start
// that creates a demo (DEMO=true, or SQLite) shows its keys this once, as it always has; the command that
// re-issues them refuses there.

/** The command that re-issues the demo's credentials (src/cli/demo-commands.ts). */
const DEMO_CREDENTIALS_COMMAND = 'npx partner-gateway demo credentials';

/** Where a reader of this start finds the faces, from the configured listeners; null: not served. */
function demoAddresses(config: Config): {
  docs: string;
  panel: string | null;
  console: string | null;
} {
  return {
    docs: `${config.publicBaseUrl}/docs`,
    panel: config.panel ? `${config.publicBaseUrl}/panel/` : null,
    // The console is on the admin listener, which runs only with an admin token.
    console: config.console && config.adminToken !== null ? `${config.adminBaseUrl}/console/` : null,
  };
}

/** A value as one shell word: bare when it is only safe characters, else single-quoted. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_.:/@%+=-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The secrets as `export` lines, then the `curl` commands that use them ($TICKET_KEY, $POS_KEY), then the
 * panel user. `adminToken` is exported too when given (a token generated for this run).
 */
export function credentialLines(
  config: Config,
  credentials: DemoCredentials,
  adminToken: string | null,
  now: number = Date.now(),
): string[] {
  const base = config.publicBaseUrl;
  const { ticketKey, posKey, panel } = credentials;
  const lines: string[] = [];
  if (ticketKey !== null) lines.push(`export TICKET_KEY=${ticketKey}`);
  if (posKey !== null) lines.push(`export POS_KEY=${posKey}`);
  if (adminToken !== null) lines.push(`export ADMIN_TOKEN=${shellWord(adminToken)}`);
  if (ticketKey !== null) {
    const ticket = `${base}/v1/api-external-system`;
    const auth = `-H "Authorization: Bearer $TICKET_KEY"`;
    lines.push(
      `curl -s ${ticket}/help-desk-ticket-options ${auth}`,
      `curl -s -X POST ${ticket}/help-desk-ticket ${auth} -H 'Content-Type: application/json' \\`,
      `  -d '{"external_id":"demo-1","company":"acme","description":"Terminal 3 does not print receipts."}'`,
    );
  }
  if (posKey !== null) {
    const pos = `${base}/v1/api-public`;
    const auth = `-H "Authorization: Bearer $POS_KEY"`;
    const day = (offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
    lines.push(
      `curl -s ${pos}/ping ${auth}`,
      `curl -s ${pos}/places ${auth}`,
      `curl -s '${pos}/events?place=REC01&search=arena' ${auth}`,
      `curl -s '${pos}/sales/by-payment-method?place=SP01&from=${day(-30)}T00:00:00-03:00&to=${day(1)}T00:00:00-03:00' ${auth}`,
    );
  }
  if (panel !== null) {
    const where = config.panel ? ` at ${config.publicBaseUrl}/panel/` : ' (the panel is off: PANEL=false)';
    lines.push(`# Merchant panel${where}: e-mail ${panel.email} password ${panel.password}`);
  }
  return lines;
}

/** The "where things are" lines, indented. */
function addressLines(config: Config): string[] {
  const { docs, panel, console } = demoAddresses(config);
  return [
    `  Documentation   ${docs}`,
    ...(panel === null ? [] : [`  Merchant panel  ${panel}`]),
    ...(console === null
      ? []
      : [
          `  Console         ${console} (staff sign in; with no staff yet, it creates the first operator from the admin token)`,
        ]),
  ];
}

/**
 * The banner of the start that created the demo. `generatedAdminToken`: the token of this run, when
 * ADMIN_TOKEN is not set (never in production).
 */
export function firstStartBanner(
  config: Config,
  credentials: DemoCredentials,
  generatedAdminToken: string | null,
  now: number = Date.now(),
): string {
  const head = [
    '',
    'Demo data created (first start on an empty database; DEMO=false turns this off).',
    ...addressLines(config),
  ];
  const token =
    generatedAdminToken === null
      ? ['The admin token is ADMIN_TOKEN, as set.']
      : ['ADMIN_TOKEN is not set: the admin token below is valid for this run only.'];
  return [
    ...head,
    ...token,
    'Shown only this once (only hashes are stored). Paste into a shell:',
    '',
    ...credentialLines(config, credentials, generatedAdminToken, now).map((line) => `  ${line}`),
    '',
    // The command refuses in production, where keys are issued from the console or the admin API.
    config.env === 'production'
      ? 'Lost them? Issue new keys from the console or the admin API (docs/back-office.md).'
      : `Lost them? New ones (the old ones stop working): ${DEMO_CREDENTIALS_COMMAND}`,
    '',
  ].join('\n');
}

/** The line of a later start: where things are, and how to get new demo credentials (never the old). */
export function laterStartLine(config: Config, demoPresent: boolean): string {
  const { docs, panel, console } = demoAddresses(config);
  const where = [`docs ${docs}`, panel && `panel ${panel}`, console && `console ${console}`]
    .filter((part) => typeof part === 'string')
    .join(', ');
  const credentials =
    demoPresent && config.env !== 'production'
      ? `; the demo's keys were shown on its first start, new ones: ${DEMO_CREDENTIALS_COMMAND}`
      : '';
  return `Demo: ${where}${credentials}.`;
}
