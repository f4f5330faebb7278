import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { json, postTicket, seedHelpdesk, ticket, webhookUrl } from './fixtures.js';

// Every field 422 of the ticket request (docs/ticket-api.md, "Ticket request" and "Errors";
// docs/ticket-api.md, Settled details): the code, the `param`, the rate-limit headers, and that nothing is
// stored.

/** The tickets the back office holds (admin GET /admin/v1/helpdesk/tickets). */
async function storedTickets(t: TestApp): Promise<Record<string, unknown>[]> {
  return json(await t.admin('GET', '/admin/v1/helpdesk/tickets')).data as Record<string, unknown>[];
}

/**
 * A field 422: problem+json with `code` and `param`, `X-RateLimit-*` present (the limit was measured),
 * and no ticket stored.
 */
async function expectFieldRefusal(
  t: TestApp,
  response: LightMyRequestResponse,
  code: string,
  param: string,
): Promise<Record<string, unknown>> {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = json(response);
  expect(body).toMatchObject({
    type: 'about:blank',
    title: 'Unprocessable Entity',
    status: 422,
    code,
    param,
  });
  expect(typeof body.detail).toBe('string');
  expect(response.headers['x-ratelimit-limit']).toBe('120');
  expect(response.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  expect(response.headers['x-request-id']).toBeTruthy();
  expect(await storedTickets(t)).toEqual([]);
  return body;
}

describeEachDialect('ticket request, field 422s', (dialect) => {
  const t = useTestApp(dialect);

  // external_id

  it('external_id: absent is 422 missing_external_id (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const { external_id: _omitted, ...body } = ticket();
    await expectFieldRefusal(t, await postTicket(t, keys.alpha, body), 'missing_external_id', 'external_id');
  });

  it('external_id: null is 422 missing_external_id, as null on a required field (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ external_id: null }));
    await expectFieldRefusal(t, response, 'missing_external_id', 'external_id');
  });

  it.each([
    ['the empty string', ''],
    ['only spaces', '   '],
    ['only spaces, tabs and line breaks', ' \t\r\n\u00A0\u3000'],
    ['only invisible and control characters', '\u200B\u2060\uFEFF\u0007\u2028'],
    ['spaces around invisible characters', '  \u200B  \u00AD '],
  ])(
    'external_id: %s is empty after cleaning, 422 missing_external_id (Ticket request)',
    async (_label, externalId) => {
      const keys = await seedHelpdesk(t);
      const response = await postTicket(t, keys.alpha, ticket({ external_id: externalId }));
      await expectFieldRefusal(t, response, 'missing_external_id', 'external_id');
    },
  );

  it('external_id: over 120 characters after cleaning is 422 field_too_long, not truncated (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ external_id: 'x'.repeat(121) }));
    await expectFieldRefusal(t, response, 'field_too_long', 'external_id');
  });

  it('external_id: 121 code points made of emoji is 422 field_too_long (characters are code points; Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ external_id: '😀'.repeat(121) }));
    await expectFieldRefusal(t, response, 'field_too_long', 'external_id');
  });

  it('external_id: 121 characters with spaces and invisible characters around them is still over 120 (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(
      t,
      keys.alpha,
      ticket({ external_id: `  \u200B${'y'.repeat(121)}\u2060  ` }),
    );
    await expectFieldRefusal(t, response, 'field_too_long', 'external_id');
  });

  it('external_id: exactly 120 characters after cleaning is accepted; spaces and invisible ones are not counted (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const exact = 'z'.repeat(60) + '\u200B\u00AD' + 'z'.repeat(60);
    const response = await postTicket(t, keys.alpha, ticket({ external_id: `   ${exact}\u2060 ` }));
    expect(response.statusCode, response.body).toBe(201);
    const stored = await storedTickets(t);
    expect(stored.map((row) => row.external_id)).toEqual(['z'.repeat(120)]);
  });

  it('external_id: exactly 120 emoji (240 UTF-16 units) is accepted (characters are code points; Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ external_id: '😀'.repeat(120) }));
    expect(response.statusCode, response.body).toBe(201);
  });

  it('external_id: a NUL character is 422 invalid_field with param external_id (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ external_id: 'ab\u0000c' }));
    await expectFieldRefusal(t, response, 'invalid_field', 'external_id');
  });

  it('external_id: a NUL character is refused, not cleaned away, even with nothing else (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ external_id: '\u0000' }));
    await expectFieldRefusal(t, response, 'invalid_field', 'external_id');
  });

  it.each([
    ['a float', '1.5'],
    ['a float with exponent', '1e3'],
    ['true', 'true'],
    ['false', 'false'],
    ['an object', '{"id":"abc"}'],
    ['an array', '["abc"]'],
    ['an empty array', '[]'],
  ])(
    'external_id: %s is 422 invalid_field with param external_id (docs/ticket-api.md, Settled details)',
    async (_label, raw) => {
      const keys = await seedHelpdesk(t);
      const response = await postTicket(
        t,
        keys.alpha,
        `{"external_id": ${raw}, "company": "acme", "description": "Printer is down."}`,
      );
      await expectFieldRefusal(t, response, 'invalid_field', 'external_id');
    },
  );

  // company

  it.each([
    ['absent', undefined],
    ['null', null],
    ['the empty string', ''],
    ['only spaces', ' \t '],
  ])('company: %s is 422 missing_company (Ticket request)', async (_label, company) => {
    const keys = await seedHelpdesk(t);
    const body = ticket();
    if (company === undefined) delete body.company;
    else body.company = company;
    await expectFieldRefusal(t, await postTicket(t, keys.alpha, body), 'missing_company', 'company');
  });

  it('company: an id not in the list is 422 invalid_company whose detail lists the valid ids (Ticket request; Errors)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ company: 'nope' }));
    const body = await expectFieldRefusal(t, response, 'invalid_company', 'company');
    expect(body.detail).toContain('acme');
    expect(body.detail).toContain('Brisa');
    expect(body.detail).not.toContain('legado');
  });

  it('company: an inactive company is not in the list, 422 invalid_company (Ticket request; Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ company: 'legado' }));
    const body = await expectFieldRefusal(t, response, 'invalid_company', 'company');
    expect(body.detail).toContain('acme');
    expect(body.detail).not.toContain('legado');
  });

  it('company: a company deactivated after seeding gets 422 invalid_company (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    await t.admin('PUT', '/admin/v1/helpdesk/companies/acme', { name: 'Acme Comércio', active: false });
    const response = await postTicket(t, keys.alpha, ticket({ company: 'acme' }));
    const body = await expectFieldRefusal(t, response, 'invalid_company', 'company');
    expect(body.detail).toContain('Brisa');
  });

  it('company: a prefix or inner-space variant of an id is not the id, 422 invalid_company (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    for (const company of ['acm', 'ac me', 'acme2']) {
      const response = await postTicket(t, keys.alpha, ticket({ company }));
      await expectFieldRefusal(t, response, 'invalid_company', 'company');
    }
  });

  it.each([
    ['a number', '5'],
    ['true', 'true'],
    ['an object', '{"id":"acme"}'],
    ['an array', '["acme"]'],
  ])(
    'company: %s is 422 invalid_field with param company (docs/ticket-api.md, Settled details)',
    async (_label, raw) => {
      const keys = await seedHelpdesk(t);
      const response = await postTicket(
        t,
        keys.alpha,
        `{"external_id": "e-1", "company": ${raw}, "description": "Printer is down."}`,
      );
      await expectFieldRefusal(t, response, 'invalid_field', 'company');
    },
  );

  // description

  it('description: 20000 characters plus trailing spaces is 422 field_too_long, counted before trimming (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ description: `${'d'.repeat(20_000)}  ` }));
    await expectFieldRefusal(t, response, 'field_too_long', 'description');
  });

  it('description: 20000 characters plus leading line breaks is 422 field_too_long (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ description: `\n\n${'d'.repeat(20_000)}` }));
    await expectFieldRefusal(t, response, 'field_too_long', 'description');
  });

  it('description: 20001 characters is 422 field_too_long, not truncated (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ description: 'd'.repeat(20_001) }));
    await expectFieldRefusal(t, response, 'field_too_long', 'description');
  });

  it('description: exactly 20000 characters is accepted and stored whole (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ description: 'd'.repeat(20_000) }));
    expect(response.statusCode, response.body).toBe(201);
    const [stored] = await storedTickets(t);
    expect(stored?.description).toBe('d'.repeat(20_000));
  });

  it('description: 10001 emoji (20002 UTF-16 units) is accepted (characters are code points; Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ description: '🖨'.repeat(10_001) }));
    expect(response.statusCode, response.body).toBe(201);
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['the empty string', ''],
    ['only spaces', '     '],
    ['only spaces, tabs and line breaks', ' \n\t\r\n \u00A0'],
  ])('description: %s is 422 missing_description (Ticket request)', async (_label, description) => {
    const keys = await seedHelpdesk(t);
    const body = ticket();
    if (description === undefined) delete body.description;
    else body.description = description;
    await expectFieldRefusal(t, await postTicket(t, keys.alpha, body), 'missing_description', 'description');
  });

  it('description: a NUL character is 422 invalid_field with param description (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ description: 'Printer\u0000 is down.' }));
    await expectFieldRefusal(t, response, 'invalid_field', 'description');
  });

  it.each([
    ['a number', '42'],
    ['false', 'false'],
    ['an object', '{"text":"down"}'],
    ['an array', '["down"]'],
  ])(
    'description: %s is 422 invalid_field with param description (docs/ticket-api.md, Settled details)',
    async (_label, raw) => {
      const keys = await seedHelpdesk(t);
      const response = await postTicket(
        t,
        keys.alpha,
        `{"external_id": "e-1", "company": "acme", "description": ${raw}}`,
      );
      await expectFieldRefusal(t, response, 'invalid_field', 'description');
    },
  );

  // nature

  it.each([
    ['an unknown identifier', '"reclamacao"'],
    ['an inactive nature', '"sugestao"'],
    ['an inactive nature in another case', '" SUGESTAO "'],
    ['the empty string', '""'],
    ['only spaces', '"   "'],
    ['the display name instead of the identifier', '"Dúvida"'],
    ['a number', '1'],
    ['true', 'true'],
    ['an object', '{"identifier":"duvida"}'],
    ['an array', '["duvida"]'],
  ])(
    'nature: %s is 422 invalid_nature with param nature (Ticket request; docs/ticket-api.md, Settled details)',
    async (_label, raw) => {
      const keys = await seedHelpdesk(t);
      const response = await postTicket(
        t,
        keys.alpha,
        `{"external_id": "e-1", "company": "acme", "description": "Printer is down.", "nature": ${raw}}`,
      );
      await expectFieldRefusal(t, response, 'invalid_nature', 'nature');
    },
  );

  // requester

  it('requester.name: a NUL character is 422 invalid_field with param requester.name (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket({ requester: { name: 'Jo\u0000ão' } }));
    await expectFieldRefusal(t, response, 'invalid_field', 'requester.name');
  });

  it('requester.contact: a NUL character is 422 invalid_field with param requester.contact (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(
      t,
      keys.alpha,
      ticket({ requester: { name: 'João', contact: 'joao@example.com\u0000' } }),
    );
    await expectFieldRefusal(t, response, 'invalid_field', 'requester.contact');
  });

  it('requester: a NUL in an over-long name is refused, not truncated away (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(
      t,
      keys.alpha,
      ticket({ requester: { name: `${'n'.repeat(150)}\u0000` } }),
    );
    await expectFieldRefusal(t, response, 'invalid_field', 'requester.name');
  });

  // Whole-body rules around the field 422s

  it('invalid_body: a JSON list has no param and no X-RateLimit-* headers on the ticket route (Errors)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, '[{"external_id":"e-1"}]');
    expect(response.statusCode).toBe(422);
    const body = json(response);
    expect(body.code).toBe('invalid_body');
    expect(body).not.toHaveProperty('param');
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    expect(await storedTickets(t)).toEqual([]);
  });

  it('field 422s come in the order of the table: external_id, company, description, nature, requester (Authentication, order)', async () => {
    const keys = await seedHelpdesk(t);
    const all = {
      company: 'nope',
      description: '',
      nature: 'nope',
      requester: { name: 'a\u0000' },
    };
    const steps: [Record<string, unknown>, string, string][] = [
      [all, 'missing_external_id', 'external_id'],
      [{ ...all, external_id: 'e-1' }, 'invalid_company', 'company'],
      [{ ...all, external_id: 'e-1', company: 'acme' }, 'missing_description', 'description'],
      [{ ...all, external_id: 'e-1', company: 'acme', description: 'Down.' }, 'invalid_nature', 'nature'],
      [
        { ...all, external_id: 'e-1', company: 'acme', description: 'Down.', nature: 'duvida' },
        'invalid_field',
        'requester.name',
      ],
    ];
    for (const [body, code, param] of steps) {
      await expectFieldRefusal(t, await postTicket(t, keys.alpha, body), code, param);
    }
  });

  it('fallback fields never turn a field 422 into a success: invalid_nature with garbage category/priority/support_level (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(
      t,
      keys.alpha,
      ticket({ category: 'x', priority: -1, support_level: 9.5, cnpj: 'no', nature: 'nope' }),
    );
    await expectFieldRefusal(t, response, 'invalid_nature', 'nature');
  });

  it('a refused external_id is not registered: the corrected body then creates a ticket with 201 (POST ticket)', async () => {
    const keys = await seedHelpdesk(t);
    const refused = await postTicket(t, keys.alpha, ticket({ external_id: 'e-7', nature: 'nope' }));
    await expectFieldRefusal(t, refused, 'invalid_nature', 'nature');
    const created = await postTicket(t, keys.alpha, ticket({ external_id: 'e-7' }));
    expect(created.statusCode).toBe(201);
    expect(json(created).duplicate).toBe(false);
  });

  it('webhook: the same field 422s as the direct route, with param and X-RateLimit-* (POST webhook)', async () => {
    const keys = await seedHelpdesk(t);
    const url = webhookUrl('alpha');
    const cases: [Record<string, unknown>, string, string][] = [
      [ticket({ external_id: '' }), 'missing_external_id', 'external_id'],
      [ticket({ company: 'legado' }), 'invalid_company', 'company'],
      [ticket({ description: 'd'.repeat(20_001) }), 'field_too_long', 'description'],
      [ticket({ nature: '' }), 'invalid_nature', 'nature'],
      [ticket({ requester: { contact: '\u0000' } }), 'invalid_field', 'requester.contact'],
    ];
    for (const [body, code, param] of cases) {
      await expectFieldRefusal(t, await postTicket(t, keys.alpha, body, { url }), code, param);
    }
  });

  it('a field 422 spends one call of the rate limit (Limits: headers on responses after the check)', async () => {
    const keys = await seedHelpdesk(t);
    const first = await postTicket(t, keys.alpha, ticket({ company: '' }));
    const second = await postTicket(t, keys.alpha, ticket({ company: '' }));
    expect(first.headers['x-ratelimit-remaining']).toBe('119');
    expect(second.headers['x-ratelimit-remaining']).toBe('118');
  });
});
