import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { credentialLines, firstStartBanner, laterStartLine } from '../../src/demo/banner.js';

// What the start prints about the demo (src/demo/banner.ts; docs/getting-started.md, The first start):
// addresses from the configured listeners, the secrets as export lines and curl commands that use them,
// never a secret on a later start.

const TICKET = `gtes_${'t'.repeat(43)}`;
const POS = `gtpk_${'p'.repeat(43)}`;
const credentials = {
  ticketKey: TICKET,
  posKey: POS,
  panel: { email: 'demo@example.com', password: 'pw-123' },
};
const NOW = Date.parse('2026-11-27T12:00:00Z');
const config = (env: Record<string, string> = {}) =>
  loadConfig({ PANEL: 'true', CONSOLE: 'true', ADMIN_TOKEN: 'set-token-0123456789', ...env });

describe('the first start banner', () => {
  it('addresses from the listeners, the export lines, curl on $TICKET_KEY and $POS_KEY, the panel user', () => {
    const banner = firstStartBanner(
      config({ PUBLIC_BASE_URL: 'https://api.example.test', ADMIN_PORT: '9091' }),
      credentials,
      null,
      NOW,
    );
    expect(banner).toContain('  Documentation   https://api.example.test/docs\n');
    expect(banner).toContain('  Merchant panel  https://api.example.test/panel/\n');
    expect(banner).toContain('  Console         http://127.0.0.1:9091/console/ ');
    expect(banner).toContain('The admin token is ADMIN_TOKEN, as set.');
    expect(banner).not.toContain('set-token-0123456789');
    expect(banner).toContain(`\n  export TICKET_KEY=${TICKET}\n  export POS_KEY=${POS}\n  curl -s `);
    expect(banner).toContain(
      'curl -s https://api.example.test/v1/api-external-system/help-desk-ticket-options -H "Authorization: Bearer $TICKET_KEY"',
    );
    expect(banner).toContain(
      'curl -s https://api.example.test/v1/api-public/ping -H "Authorization: Bearer $POS_KEY"',
    );
    expect(banner).toContain('from=2026-10-28T00:00:00-03:00&to=2026-11-28T00:00:00-03:00');
    expect(banner).toContain(
      '# Merchant panel at https://api.example.test/panel/: e-mail demo@example.com password pw-123',
    );
    expect(banner).toContain('npx partner-gateway demo credentials');
    // Each key once: in its export line only; the commands use the variables.
    expect(banner.split(TICKET)).toHaveLength(2);
    expect(banner.split(POS)).toHaveLength(2);
  });

  it('a token generated for the run is exported too (quoted when it needs it); no console without it', () => {
    expect(credentialLines(config(), credentials, 'abc_DEF-123', NOW)).toContain(
      'export ADMIN_TOKEN=abc_DEF-123',
    );
    expect(credentialLines(config(), credentials, "it's $x", NOW)).toContain(
      `export ADMIN_TOKEN='it'\\''s $x'`,
    );
    const noConsole = firstStartBanner(
      loadConfig({ CONSOLE: 'false', PANEL: 'false' }),
      credentials,
      'tok',
      NOW,
    );
    expect(noConsole).not.toContain('Console');
    expect(noConsole).not.toContain('/panel/ ');
    expect(noConsole).toContain('ADMIN_TOKEN is not set: the admin token below is valid for this run only.');
    expect(noConsole).toContain('  export ADMIN_TOKEN=tok\n');
  });

  it('only the half that was created: no line of the other', () => {
    const lines = credentialLines(config(), { ticketKey: null, posKey: POS, panel: null }, null, NOW);
    expect(lines.join('\n')).not.toMatch(/TICKET_KEY|api-external-system|Merchant panel/);
    expect(lines[0]).toBe(`export POS_KEY=${POS}`);
  });

  it('production: the demo created shows its keys this once, as before, and points to the console for new ones', () => {
    const production = config({
      NODE_ENV: 'production',
      CURSOR_SECRET: 'c'.repeat(40),
      PUBLIC_BASE_URL: 'https://x.test',
    });
    const banner = firstStartBanner(production, credentials, null, NOW);
    expect(banner).toContain(`export TICKET_KEY=${TICKET}`);
    expect(banner).toContain(`export POS_KEY=${POS}`);
    expect(banner).not.toContain('export ADMIN_TOKEN');
    expect(banner).not.toContain('demo credentials');
    expect(banner).toContain('Issue new keys from the console or the admin API');
    expect(banner).toContain('https://x.test/docs');
  });
});

describe('a later start', () => {
  it('one line: where things are and how to get new credentials, never a secret', () => {
    expect(laterStartLine(config(), true)).toBe(
      "Demo: docs http://localhost:8080/docs, panel http://localhost:8080/panel/, console http://127.0.0.1:8081/console/; the demo's keys were shown on its first start, new ones: npx partner-gateway demo credentials.",
    );
    expect(laterStartLine(config({ PANEL: 'false', CONSOLE: 'false' }), false)).toBe(
      'Demo: docs http://localhost:8080/docs.',
    );
    const production = config({ NODE_ENV: 'production', CURSOR_SECRET: 'c'.repeat(40) });
    expect(laterStartLine(production, true)).not.toContain('credentials');
  });
});
