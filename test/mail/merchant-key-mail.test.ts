import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/lib/escape-html.js';
import { retryDelay } from '../../src/mail/mail-sender.js';
import {
  brazilTime,
  keyNoticeMail,
  wideningOf,
  type KeyAccess,
} from '../../src/pos/keys/merchant-key-mail.js';

// The merchant's e-mail about a key (docs/pos-api.md, States and transitions: "when a key is created or
// rotated and when an edit widens its access"): what widens, what the message says, and its escaping.

const DAY = 86_400_000;
const base: KeyAccess = {
  permissions: ['event.view'],
  places: ['P1'],
  expires_at: Date.UTC(2027, 0, 1, 2, 59, 59),
};

describe('what widens a key’s access (docs/pos-api.md, States: an edit that widens its access)', () => {
  it('a permission added, a place added, all places, validity extended: one widening each', () => {
    expect(wideningOf(base, { ...base, permissions: ['event.view', 'sale-by-payment-method.view'] })).toEqual(
      [{ kind: 'permission', permission: 'sale-by-payment-method.view' }],
    );
    expect(wideningOf(base, { ...base, places: ['P1', 'P2'] })).toEqual([{ kind: 'place', place: 'P2' }]);
    expect(wideningOf(base, { ...base, places: 'all' })).toEqual([{ kind: 'all_places' }]);
    expect(wideningOf(base, { ...base, expires_at: base.expires_at + DAY })).toEqual([
      { kind: 'validity', from: base.expires_at, to: base.expires_at + DAY },
    ]);
  });

  it('narrowing, renaming or the same access: nothing', () => {
    expect(wideningOf(base, { ...base, permissions: [] })).toEqual([]);
    expect(wideningOf(base, { ...base, places: [] })).toEqual([]);
    expect(wideningOf({ ...base, places: 'all' }, { ...base, places: ['P1', 'P9'] })).toEqual([]);
    expect(wideningOf(base, { ...base, expires_at: base.expires_at - DAY })).toEqual([]);
    expect(wideningOf(base, base)).toEqual([]);
    expect(wideningOf({ ...base, places: 'all' }, { ...base, places: 'all' })).toEqual([]);
  });

  it('a swap (one place out, another in) widens by the place that came in', () => {
    expect(wideningOf({ ...base, places: ['P1', 'P2'] }, { ...base, places: ['P2', 'P3'] })).toEqual([
      { kind: 'place', place: 'P3' },
    ]);
  });
});

describe('the message', () => {
  const account = { id: 'acme', name: 'Acme & Filhos', email: 'financeiro@acme.example' };
  const key = { id: 'K123', name: '<b>Caixa & "Bar"</b>' };
  const now = Date.UTC(2026, 10, 20, 12, 0, 0);

  it('times are read in UTC-03:00', () => {
    expect(brazilTime(now)).toBe('20/11/2026 09:00 (UTC-03:00)');
    expect(brazilTime(Date.UTC(2027, 0, 1, 2, 59, 59))).toBe('31/12/2026 23:59 (UTC-03:00)');
  });

  it('names the key (name, id), what changed and when, and what to do if it was not them', () => {
    const mail = keyNoticeMail(
      account,
      key,
      { kind: 'widened', widenings: [{ kind: 'place', place: 'P2' }] },
      now,
    );
    expect(mail.kind).toBe('pos_key_widened');
    expect(mail.to).toBe('financeiro@acme.example');
    expect(mail.subject).toBe('Acesso ampliado na chave de API: <b>Caixa & "Bar"</b>');
    expect(mail.text).toContain('Chave: <b>Caixa & "Bar"</b>');
    expect(mail.text).toContain('Identificador: K123');
    expect(mail.text).toContain('- Local adicionado: P2');
    expect(mail.text).toContain('Quando: 20/11/2026 09:00 (UTC-03:00)');
    expect(mail.text).toContain('Se não foi você');
  });

  it('the HTML escapes every value: the key’s and the account’s names never become markup', () => {
    const mail = keyNoticeMail(account, key, { kind: 'rotated', previousValidUntil: now + DAY }, now);
    expect(mail.html).toContain('&lt;b&gt;Caixa &amp; &quot;Bar&quot;&lt;/b&gt;');
    expect(mail.html).toContain('Olá, Acme &amp; Filhos.');
    expect(mail.html).not.toContain('<b>Caixa');
    expect(mail.html).toContain('continua funcionando até 21/11/2026 09:00 (UTC-03:00)');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });
});

describe('retries back off exponentially (docs/back-office.md, E-mail to merchants)', () => {
  it('30 s, 1 min, 2 min … then at most an hour', () => {
    const options = { retryBaseMs: 30_000, retryMaxMs: 3_600_000 };
    expect([1, 2, 3, 4, 8, 9, 12].map((attempt) => retryDelay(attempt, options))).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });
});
