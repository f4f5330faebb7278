import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { CATALOG, json, postTicket, seedHelpdesk, ticket } from './fixtures.js';

// Cleaning, defaults, fallbacks and warnings of the ticket request (docs/ticket-api.md, "Ticket
// request", "Ticket response", "Warning"; docs/ticket-api.md, Settled details). Every body here creates a
// ticket.

interface Warning {
  code: string;
  message: string;
  fields?: string[];
}

/** The tickets the back office holds, newest first (admin GET /admin/v1/helpdesk/tickets). */
async function storedTickets(t: TestApp): Promise<Record<string, unknown>[]> {
  return json(await t.admin('GET', '/admin/v1/helpdesk/tickets')).data as Record<string, unknown>[];
}

/** The one stored ticket of the test. */
async function onlyStored(t: TestApp): Promise<Record<string, unknown>> {
  const stored = await storedTickets(t);
  expect(stored).toHaveLength(1);
  return stored[0]!;
}

/** Expects a 201 and returns its body. */
function created(response: LightMyRequestResponse): {
  applied: Record<string, unknown>;
  warnings: Warning[];
  id: string;
} {
  expect(response.statusCode, response.body).toBe(201);
  return json(response) as never;
}

const codes = (warnings: Warning[]) => warnings.map((warning) => warning.code);

/** A ticket body as raw JSON text, for values JSON.stringify cannot write (`3.0`, big integers, key order). */
function raw(extra: string, externalId = '"e-1"'): string {
  return `{"external_id": ${externalId}, "company": "acme", "description": "Printer is down."${extra}}`;
}

/** applied of a ticket with nothing chosen (the system's defaults). */
const DEFAULT_APPLIED = {
  category_id: CATALOG.defaultCategory,
  priority_id: 4,
  support_level: 1,
  nature: null,
  company: 'acme',
};

describeEachDialect('ticket request, cleaning, defaults and warnings', (dialect) => {
  const t = useTestApp(dialect);

  // external_id

  it('external_id: " ab\\u200Bc " is cleaned to "abc" and is a duplicate of "abc" (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const first = created(await postTicket(t, keys.alpha, ticket({ external_id: ' ab\u200Bc ' })));
    const second = await postTicket(t, keys.alpha, ticket({ external_id: 'abc' }));
    expect(second.statusCode).toBe(200);
    expect(json(second)).toMatchObject({ duplicate: true, id: first.id });
    expect((await onlyStored(t)).external_id).toBe('abc');
  });

  it('external_id: control, format and separator characters are removed anywhere (docs/api-conventions.md, Characters: Cc, Cf, U+2028/9)', async () => {
    const keys = await seedHelpdesk(t);
    const dirty = '\uFEFF a\u0007b\u00ADc\u2028d\u2029e\u2060f\u200Eg\t\n ';
    created(await postTicket(t, keys.alpha, ticket({ external_id: dirty })));
    expect((await onlyStored(t)).external_id).toBe('abcdefg');
    const again = await postTicket(t, keys.alpha, ticket({ external_id: 'abcdefg' }));
    expect(again.statusCode).toBe(200);
  });

  it('external_id: ZWNJ and ZWJ are kept, so "a\\u200Db" is not "ab" (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const joined = created(await postTicket(t, keys.alpha, ticket({ external_id: 'a\u200Db' })));
    const nonJoined = created(await postTicket(t, keys.alpha, ticket({ external_id: 'a\u200Cb' })));
    const plain = created(await postTicket(t, keys.alpha, ticket({ external_id: 'ab' })));
    expect(new Set([joined.id, nonJoined.id, plain.id]).size).toBe(3);
    const ids = (await storedTickets(t)).map((row) => row.external_id).sort();
    expect(ids).toEqual(['a\u200Cb', 'a\u200Db', 'ab'].sort());
  });

  it('external_id: inner spaces are kept, only both ends are trimmed (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    created(await postTicket(t, keys.alpha, ticket({ external_id: '\u00A0 order 42 \u3000' })));
    expect((await onlyStored(t)).external_id).toBe('order 42');
    created(await postTicket(t, keys.alpha, ticket({ external_id: 'order42' })));
  });

  it('external_id: the JSON integer 123 is the same text as "123" (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const first = created(await postTicket(t, keys.alpha, raw('', '123')));
    const second = await postTicket(t, keys.alpha, ticket({ external_id: '123' }));
    expect(second.statusCode).toBe(200);
    expect(json(second).id).toBe(first.id);
    expect((await onlyStored(t)).external_id).toBe('123');
  });

  it('external_id: "123" first, then the JSON integer 123, is the same ticket (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const first = created(await postTicket(t, keys.alpha, ticket({ external_id: '123' })));
    const second = await postTicket(t, keys.alpha, raw('', '123'));
    expect(second.statusCode).toBe(200);
    expect(json(second).id).toBe(first.id);
  });

  it('external_id: an integer beyond 2^53 is kept digit-exact and equals its text (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const digits = '12345678901234567890123';
    const first = created(await postTicket(t, keys.alpha, raw('', digits)));
    expect((await onlyStored(t)).external_id).toBe(digits);
    const second = await postTicket(t, keys.alpha, ticket({ external_id: digits }));
    expect(second.statusCode).toBe(200);
    expect(json(second).id).toBe(first.id);
    // 2^53 + 1 would become 2^53 through a double: it must stay a different ticket.
    const above = created(await postTicket(t, keys.alpha, raw('', '9007199254740993')));
    const at = created(await postTicket(t, keys.alpha, raw('', '9007199254740992')));
    expect(above.id).not.toBe(at.id);
    const ids = (await storedTickets(t)).map((row) => row.external_id);
    expect(ids).toContain('9007199254740993');
    expect(ids).toContain('9007199254740992');
  });

  it('external_id: case-sensitive, "ABC" and "abc" are two tickets (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const upper = created(await postTicket(t, keys.alpha, ticket({ external_id: 'ABC' })));
    const lower = created(await postTicket(t, keys.alpha, ticket({ external_id: 'abc' })));
    expect(upper.id).not.toBe(lower.id);
    expect(await storedTickets(t)).toHaveLength(2);
  });

  // company

  it('company: uppercase equals lowercase and spaces are trimmed; applied.company is the stored id (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const acme = created(await postTicket(t, keys.alpha, ticket({ external_id: 'c-1', company: ' ACME ' })));
    expect(acme.applied.company).toBe('acme');
    const brisa = created(
      await postTicket(t, keys.alpha, ticket({ external_id: 'c-2', company: '\tbrisa\u00A0' })),
    );
    expect(brisa.applied.company).toBe('Brisa');
    expect(brisa.warnings).toEqual([]);
    const companies = (await storedTickets(t)).map((row) => row.company).sort();
    expect(companies).toEqual(['Brisa', 'acme']);
  });

  // description

  it('description: trimmed at both ends, line breaks and tabs inside are kept (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const description = ' \n  Line 1\n\tLine 2\r\n\n  Line 3  \n\t';
    created(await postTicket(t, keys.alpha, ticket({ description })));
    expect((await onlyStored(t)).description).toBe('Line 1\n\tLine 2\r\n\n  Line 3');
  });

  // category

  it('category: absent is the system default category, with its default priority (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(await postTicket(t, keys.alpha, ticket()));
    expect(body.applied).toEqual(DEFAULT_APPLIED);
    expect(body.warnings).toEqual([]);
  });

  it('category: a released category is applied with its own default priority (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(await postTicket(t, keys.alpha, ticket({ category: 10 })));
    expect(body.applied).toMatchObject({ category_id: 10, priority_id: 2 });
    expect(body.warnings).toEqual([]);
  });

  it('category: the system default chosen explicitly is accepted without warning (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(await postTicket(t, keys.alpha, ticket({ category: CATALOG.defaultCategory })));
    expect(body.applied).toEqual(DEFAULT_APPLIED);
    expect(body.warnings).toEqual([]);
  });

  it.each([
    ['3.0-style 11.0', '11.0'],
    ['11.00', '11.00'],
  ])(
    'category: the decimal zero %s is accepted as the integer id (Ticket request)',
    async (_label, value) => {
      const keys = await seedHelpdesk(t);
      const body = created(await postTicket(t, keys.alpha, raw(`, "category": ${value}`)));
      expect(body.applied).toMatchObject({ category_id: 11, priority_id: 3 });
      expect(body.warnings).toEqual([]);
    },
  );

  it.each([
    ['an unknown id', '999'],
    ['a category not released to the system', String(CATALOG.unreleased)],
    ['a string holding a released id', '"10"'],
    ['a fraction', '10.5'],
    ['zero', '0'],
    ['a negative id', '-10'],
    ['true', 'true'],
    ['an object', '{"id":10}'],
    ['an array', '[10]'],
    ['an integer beyond 2^53', '90071992547409930'],
  ])(
    'category: %s falls back to the default category with category_fallback, never rejects (Ticket request)',
    async (_label, value) => {
      const keys = await seedHelpdesk(t);
      const body = created(await postTicket(t, keys.alpha, raw(`, "category": ${value}`)));
      expect(body.applied).toEqual(DEFAULT_APPLIED);
      expect(codes(body.warnings)).toEqual(['category_fallback']);
      expect(body.warnings[0]).not.toHaveProperty('fields');
      expect(typeof body.warnings[0]?.message).toBe('string');
    },
  );

  it('category: a category without default priority gives priority_id null when priority is absent (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(await postTicket(t, keys.alpha, ticket({ category: 40 })));
    expect(body.applied).toMatchObject({ category_id: 40, priority_id: null });
    expect(body.warnings).toEqual([]);
  });

  // priority

  it('priority: absent is the default_priority_id of the stored category (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(await postTicket(t, keys.alpha, ticket({ category: 11 })));
    expect(body.applied.priority_id).toBe(3);
  });

  it('priority: a listed id is applied, 1.0 is accepted as 1 (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const one = created(await postTicket(t, keys.alpha, raw(', "priority": 1.0', '"p-1"')));
    expect(one.applied.priority_id).toBe(1);
    expect(one.warnings).toEqual([]);
    const two = created(await postTicket(t, keys.alpha, raw(', "category": 11, "priority": 2', '"p-2"')));
    expect(two.applied).toMatchObject({ category_id: 11, priority_id: 2 });
  });

  it.each([
    ['an unknown id', '99'],
    ['a string', '"1"'],
    ['a fraction', '1.5'],
    ['zero', '0'],
    ['false', 'false'],
    ['an object', '{}'],
  ])(
    "priority: %s falls back to the stored category's default with priority_fallback (Ticket request)",
    async (_label, value) => {
      const keys = await seedHelpdesk(t);
      const body = created(await postTicket(t, keys.alpha, raw(`, "category": 11, "priority": ${value}`)));
      expect(body.applied).toMatchObject({ category_id: 11, priority_id: 3 });
      expect(codes(body.warnings)).toEqual(['priority_fallback']);
    },
  );

  it("priority: after a category fallback, the default is the default category's priority (Ticket request)", async () => {
    const keys = await seedHelpdesk(t);
    const absent = created(await postTicket(t, keys.alpha, raw(', "category": 20', '"f-1"')));
    expect(absent.applied).toMatchObject({ category_id: CATALOG.defaultCategory, priority_id: 4 });
    expect(codes(absent.warnings)).toEqual(['category_fallback']);
    const unknown = created(await postTicket(t, keys.alpha, raw(', "category": 20, "priority": 9', '"f-2"')));
    expect(unknown.applied).toMatchObject({ category_id: CATALOG.defaultCategory, priority_id: 4 });
    expect(codes(unknown.warnings)).toEqual(['category_fallback', 'priority_fallback']);
  });

  // support_level

  it('support_level: absent is 1; a listed id is applied; 2.0 is accepted as 2 (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const absent = created(await postTicket(t, keys.alpha, raw('', '"s-1"')));
    expect(absent.applied.support_level).toBe(1);
    const three = created(await postTicket(t, keys.alpha, raw(', "support_level": 3', '"s-2"')));
    expect(three.applied.support_level).toBe(3);
    const twoDotZero = created(await postTicket(t, keys.alpha, raw(', "support_level": 2.0', '"s-3"')));
    expect(twoDotZero.applied.support_level).toBe(2);
    expect(twoDotZero.warnings).toEqual([]);
  });

  it.each([
    ['outside the list', '4'],
    ['a string', '"2"'],
    ['a fraction', '2.5'],
    ['zero', '0'],
    ['negative', '-2'],
    ['true', 'true'],
    ['an array', '[2]'],
  ])(
    'support_level: %s falls back to 1 with support_level_fallback (Ticket request)',
    async (_label, value) => {
      const keys = await seedHelpdesk(t);
      const body = created(await postTicket(t, keys.alpha, raw(`, "support_level": ${value}`)));
      expect(body.applied.support_level).toBe(1);
      expect(codes(body.warnings)).toEqual(['support_level_fallback']);
    },
  );

  // nature

  it('nature: trimmed and case-insensitive; applied.nature is the identifier (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const duvida = created(
      await postTicket(t, keys.alpha, ticket({ external_id: 'n-1', nature: ' DUVIDA\t' })),
    );
    expect(duvida.applied.nature).toBe('duvida');
    const elogio = created(await postTicket(t, keys.alpha, ticket({ external_id: 'n-2', nature: 'elogio' })));
    expect(elogio.applied.nature).toBe('Elogio');
    expect(elogio.warnings).toEqual([]);
    const natures = (await storedTickets(t)).map((row) => row.nature).sort();
    expect(natures).toEqual(['Elogio', 'duvida']);
  });

  it('nature: absent creates the ticket without nature, applied.nature null (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(await postTicket(t, keys.alpha, ticket()));
    expect(body.applied.nature).toBeNull();
    expect((await onlyStored(t)).nature).toBeNull();
  });

  // cnpj

  it.each([
    ['plain digits', '"12345678000195"', '12345678000195'],
    ['with punctuation', '"12.345.678/0001-95"', '12345678000195'],
    ['with the label "CNPJ:"', '"CNPJ: 12.345.678/0001-95"', '12345678000195'],
    ['with a lowercase label and no colon', '"cnpj 12345678000195"', '12345678000195'],
    ['with spaces around', '"  12 345 678 0001 95  "', '12345678000195'],
    ['alphanumeric', '"12ABC34501DE35"', '12ABC34501DE35'],
    ['alphanumeric in lowercase, punctuated', '"12.abc.345/01de-35"', '12ABC34501DE35'],
    ['a JSON integer of 14 digits', '12345678000195', '12345678000195'],
  ])(
    'cnpj: %s is accepted without warning (Ticket request; docs/ticket-api.md, Settled details)',
    async (_label, value, stored) => {
      const keys = await seedHelpdesk(t);
      const body = created(await postTicket(t, keys.alpha, raw(`, "cnpj": ${value}`)));
      expect(body.warnings).toEqual([]);
      expect(body).not.toHaveProperty('cnpj');
      expect((await onlyStored(t)).cnpj).toBe(stored);
    },
  );

  it.each([
    ['13 digits', '"1234567800019"'],
    ['15 digits', '"123456780001950"'],
    ['a JSON number that lost its leading zero', '1234567000195'],
    ['letters in the last two places', '"12ABC34501DEAB"'],
    ['the empty string', '""'],
    ['a non-Latin letter', '"12ÁBC34501DE35"'],
    ['a fraction', '12345678000.195'],
    ['true', 'true'],
    ['an object', '{"number":"12345678000195"}'],
    ['an array', '["12345678000195"]'],
  ])('cnpj: %s is ignored with cnpj_ignored, never rejects (Ticket request)', async (_label, value) => {
    const keys = await seedHelpdesk(t);
    const body = created(await postTicket(t, keys.alpha, raw(`, "cnpj": ${value}`)));
    expect(codes(body.warnings)).toEqual(['cnpj_ignored']);
    expect(body.warnings[0]).not.toHaveProperty('fields');
    expect((await onlyStored(t)).cnpj).toBeNull();
  });

  // requester

  it('requester: cleaned like external_id, within limits, no warning, not echoed (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(
      t,
      keys.alpha,
      ticket({ requester: { name: '  Jo\u200Bão da Silva\u0007 ', contact: '\tjoao@example.com\u2028' } }),
    );
    const body = created(response);
    expect(body.warnings).toEqual([]);
    expect(Object.keys(json(response)).sort()).toEqual(['applied', 'duplicate', 'id', 'ticket', 'warnings']);
    expect((await onlyStored(t)).requester).toEqual({ name: 'João da Silva', contact: 'joao@example.com' });
  });

  it('requester: name over 120 is truncated to 120 with requester_truncated and fields (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(await postTicket(t, keys.alpha, ticket({ requester: { name: 'n'.repeat(130) } })));
    expect(body.warnings).toEqual([
      { code: 'requester_truncated', message: expect.any(String), fields: ['requester.name'] },
    ]);
    expect((await onlyStored(t)).requester).toEqual({ name: 'n'.repeat(120), contact: null });
  });

  it('requester: contact over 160 is truncated to 160 with requester_truncated and fields (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(t, keys.alpha, ticket({ requester: { name: 'Ana', contact: 'c'.repeat(161) } })),
    );
    expect(body.warnings).toEqual([
      { code: 'requester_truncated', message: expect.any(String), fields: ['requester.contact'] },
    ]);
    expect((await onlyStored(t)).requester).toEqual({ name: 'Ana', contact: 'c'.repeat(160) });
  });

  it('requester: both over their limits are listed name then contact (Warning)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(
        t,
        keys.alpha,
        ticket({ requester: { contact: '😀'.repeat(200), name: 'é'.repeat(121) } }),
      ),
    );
    expect(body.warnings).toEqual([
      {
        code: 'requester_truncated',
        message: expect.any(String),
        fields: ['requester.name', 'requester.contact'],
      },
    ]);
    expect((await onlyStored(t)).requester).toEqual({ name: 'é'.repeat(120), contact: '😀'.repeat(160) });
  });

  it('requester: exactly 120/160 after cleaning is not truncated; invisible characters are not counted (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const name = `  ${'n'.repeat(60)}\u200B\u00AD${'n'.repeat(60)}  `;
    const contact = `\u2060${'c'.repeat(160)}\t`;
    const body = created(await postTicket(t, keys.alpha, ticket({ requester: { name, contact } })));
    expect(body.warnings).toEqual([]);
    expect((await onlyStored(t)).requester).toEqual({ name: 'n'.repeat(120), contact: 'c'.repeat(160) });
  });

  it('requester: a non-text name or contact is ignored without warning (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(t, keys.alpha, ticket({ requester: { name: 42, contact: { email: 'a@b.c' } } })),
    );
    expect(body.warnings).toEqual([]);
    expect((await onlyStored(t)).requester).toEqual({ name: null, contact: null });
  });

  it.each([
    ['a string', '"João"'],
    ['a number', '7'],
    ['true', 'true'],
    ['an array', '[{"name":"João"}]'],
  ])(
    'requester: %s is not an object and is reported as "requester" in ignored_fields (Ticket request)',
    async (_label, value) => {
      const keys = await seedHelpdesk(t);
      const body = created(await postTicket(t, keys.alpha, raw(`, "requester": ${value}`)));
      expect(body.warnings).toEqual([
        { code: 'ignored_fields', message: expect.any(String), fields: ['requester'] },
      ]);
      expect((await onlyStored(t)).requester).toEqual({ name: null, contact: null });
    },
  );

  // ignored_fields

  it('ignored_fields: unknown keys are listed in body order, integer-like keys included (Warning; docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(
        t,
        keys.alpha,
        '{"zeta": 1, "external_id": "e-1", "10": true, "company": "acme", "alpha": null, ' +
          '"description": "Down.", "2": [1], "account": "x", "location": {"id": 1}}',
      ),
    );
    // JSON.parse would give 2, 10, zeta, alpha, ...
    expect(body.warnings).toEqual([
      {
        code: 'ignored_fields',
        message: expect.any(String),
        fields: ['zeta', '10', 'alpha', '2', 'account', 'location'],
      },
    ]);
  });

  it('ignored_fields: requester.<key> appears at the position of requester in the body (Warning)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(
        t,
        keys.alpha,
        raw(', "a": 1, "requester": {"x": 1, "name": "Ana", "5": 2, "contact": "ana@x"}, "b": 2'),
      ),
    );
    expect(body.warnings).toEqual([
      {
        code: 'ignored_fields',
        message: expect.any(String),
        fields: ['a', 'requester.x', 'requester.5', 'b'],
      },
    ]);
    expect((await onlyStored(t)).requester).toEqual({ name: 'Ana', contact: 'ana@x' });
  });

  it('ignored_fields: a duplicated key is listed once, at its first place (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(
        t,
        keys.alpha,
        raw(', "dup": 1, "other": 2, "dup": 3, "requester": {"k": 1, "k": 2, "name": "Ana"}'),
      ),
    );
    expect(body.warnings).toEqual([
      { code: 'ignored_fields', message: expect.any(String), fields: ['dup', 'other', 'requester.k'] },
    ]);
  });

  it('a duplicated known key: the last value wins (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(
        t,
        keys.alpha,
        '{"external_id": null, "company": "nope", "description": "Down.", "external_id": "last", "company": "Brisa"}',
      ),
    );
    expect(body.warnings).toEqual([]);
    expect(body.applied.company).toBe('Brisa');
    expect((await onlyStored(t)).external_id).toBe('last');
  });

  it('ignored_fields: at most 20 names, the first 20 in body order (Warning; Limits)', async () => {
    const keys = await seedHelpdesk(t);
    const names = Array.from({ length: 25 }, (_, i) => `extra_${String(i).padStart(2, '0')}`);
    const extra = names.map((name) => `, "${name}": ${names.indexOf(name)}`).join('');
    const body = created(await postTicket(t, keys.alpha, raw(extra)));
    expect(body.warnings).toHaveLength(1);
    expect(body.warnings[0]?.fields).toEqual(names.slice(0, 20));
  });

  it('ignored_fields: each name at most 64 characters, requester.<key> included (Warning; Limits)', async () => {
    const keys = await seedHelpdesk(t);
    const long = 'k'.repeat(100);
    const body = created(await postTicket(t, keys.alpha, raw(`, "${long}": 1, "requester": {"${long}": 2}`)));
    const fields = body.warnings[0]?.fields ?? [];
    expect(fields).toEqual(['k'.repeat(64), `requester.${'k'.repeat(54)}`]);
    for (const field of fields) expect(Array.from(field).length).toBeLessThanOrEqual(64);
  });

  it('ignored_fields: invisible and control characters are removed from the names (Warning)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(t, keys.alpha, ticket({ 'fo\u200Bo\u0007': 1, 'b\u2028a\u00ADr': 2, 'z\u200Dw': 3 })),
    );
    expect(body.warnings[0]?.fields).toEqual(['foo', 'bar', 'z\u200Dw']);
  });

  it('ignored_fields: an empty name, or one made only of invisible characters, is still reported, as "" once (Ticket request, general rules)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(t, keys.alpha, raw(', "a": 1, "": 2, "\\u200B": 3, "requester": {"\\u2060": 4}')),
    );
    expect(body.warnings).toEqual([
      { code: 'ignored_fields', message: expect.any(String), fields: ['a', '', 'requester.'] },
    ]);
  });

  it('ignored_fields: a field that is not ignored is not listed; none at all gives no warning (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(
        t,
        keys.alpha,
        ticket({
          category: 10,
          priority: 1,
          support_level: 2,
          nature: 'duvida',
          cnpj: '12345678000195',
          requester: { name: 'Ana', contact: 'ana@x' },
        }),
      ),
    );
    expect(body.warnings).toEqual([]);
    expect(body.applied).toEqual({
      category_id: 10,
      priority_id: 1,
      support_level: 2,
      nature: 'duvida',
      company: 'acme',
    });
  });

  // null, warnings order, applied shape

  it('null on every optional field equals omitting it: defaults, no warnings (Ticket request, general rules)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(
        t,
        keys.alpha,
        ticket({
          category: null,
          priority: null,
          support_level: null,
          nature: null,
          cnpj: null,
          requester: null,
        }),
      ),
    );
    expect(body.warnings).toEqual([]);
    expect(body.applied).toEqual(DEFAULT_APPLIED);
    expect((await onlyStored(t)).requester).toEqual({ name: null, contact: null });
  });

  it('null on requester.name / requester.contact equals omitting them (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(t, keys.alpha, ticket({ requester: { name: null, contact: null } })),
    );
    expect(body.warnings).toEqual([]);
  });

  it('warnings: in the order of the Warning table, each with code and message; fields only where documented (Warning)', async () => {
    const keys = await seedHelpdesk(t);
    const body = created(
      await postTicket(
        t,
        keys.alpha,
        '{"requester": {"name": "' +
          'n'.repeat(121) +
          '", "x": 1}, "cnpj": "123", "support_level": 9, "priority": 9, "category": 9, ' +
          '"unknown": 1, "external_id": "w-1", "company": "acme", "description": "Down."}',
      ),
    );
    expect(codes(body.warnings)).toEqual([
      'category_fallback',
      'priority_fallback',
      'support_level_fallback',
      'cnpj_ignored',
      'ignored_fields',
      'requester_truncated',
    ]);
    for (const warning of body.warnings) {
      expect(typeof warning.message).toBe('string');
      expect(warning.message.length).toBeGreaterThan(0);
      const hasFields = warning.code === 'ignored_fields' || warning.code === 'requester_truncated';
      expect(Object.hasOwn(warning, 'fields')).toBe(hasFields);
    }
    expect(body.warnings[4]?.fields).toEqual(['requester.x', 'unknown']);
    expect(body.warnings[5]?.fields).toEqual(['requester.name']);
    expect(body.applied).toEqual(DEFAULT_APPLIED);
  });

  it('applied: exactly five fields, all present; the response has exactly its five members (Ticket response)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(
      t,
      keys.alpha,
      ticket({ cnpj: '12345678000195', requester: { name: 'Ana' } }),
    );
    const body = created(response);
    expect(Object.keys(body.applied).sort()).toEqual([
      'category_id',
      'company',
      'nature',
      'priority_id',
      'support_level',
    ]);
    const whole = json(response);
    expect(Object.keys(whole).sort()).toEqual(['applied', 'duplicate', 'id', 'ticket', 'warnings']);
    expect(whole.ticket).toMatch(/^I-\d{6,}$/);
    expect(whole.duplicate).toBe(false);
  });

  it('the stored ticket is what applied says (Ticket response: "what was actually stored")', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(
      t,
      keys.alpha,
      ticket({ company: 'BRISA', category: 11, priority: 9, support_level: 3, nature: 'ELOGIO' }),
    );
    const body = created(response);
    const stored = await onlyStored(t);
    expect(stored).toMatchObject({
      id: body.id,
      ticket: json(response).ticket,
      category_id: body.applied.category_id,
      priority_id: body.applied.priority_id,
      support_level: body.applied.support_level,
      nature: body.applied.nature,
      company: body.applied.company,
    });
    expect(body.applied).toEqual({
      category_id: 11,
      priority_id: 3,
      support_level: 3,
      nature: 'Elogio',
      company: 'Brisa',
    });
  });
});
