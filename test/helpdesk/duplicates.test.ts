import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import {
  describeEachDialect,
  describeOnSqliteFile,
  useTestApp,
  type Dialect,
  type TestApp,
} from '../helper.js';
import { CATALOG, json, postTicket, seedHelpdesk, ticket, webhookUrl } from './fixtures.js';

// The external_id registry (docs/ticket-api.md, "POST help-desk-ticket" 200, "Ticket response";
// docs/ticket-api.md, Settled details: concurrency, deleted categories, misconfigured_system).

/** The tickets the back office holds, newest first (admin GET /admin/v1/helpdesk/tickets). */
async function storedTickets(t: TestApp, query = ''): Promise<Record<string, unknown>[]> {
  return json(await t.admin('GET', `/admin/v1/helpdesk/tickets?limit=200${query}`)).data as Record<
    string,
    unknown
  >[];
}

function expectStatus(response: LightMyRequestResponse, status: number): Record<string, unknown> {
  expect(response.statusCode, response.body).toBe(status);
  return json(response);
}

function duplicates(dialect: Dialect): void {
  const t = useTestApp(dialect);

  it('resubmission: 201 then 200 with duplicate true, the same id and ticket number (POST ticket 200)', async () => {
    const keys = await seedHelpdesk(t);
    const first = expectStatus(await postTicket(t, keys.alpha, ticket()), 201);
    expect(first.duplicate).toBe(false);
    const second = expectStatus(await postTicket(t, keys.alpha, ticket()), 200);
    expect(second).toEqual({
      ticket: first.ticket,
      id: first.id,
      duplicate: true,
      warnings: [],
      applied: first.applied,
    });
    const third = expectStatus(await postTicket(t, keys.alpha, ticket()), 200);
    expect(third.id).toBe(first.id);
    expect(await storedTickets(t)).toHaveLength(1);
  });

  it("resubmission: applied is the existing ticket's own, not the new body's choices (Ticket response)", async () => {
    const keys = await seedHelpdesk(t);
    const first = expectStatus(
      await postTicket(
        t,
        keys.alpha,
        ticket({ category: 10, priority: 1, support_level: 2, nature: 'duvida', company: 'acme' }),
      ),
      201,
    );
    expect(first.applied).toEqual({
      category_id: 10,
      priority_id: 1,
      support_level: 2,
      nature: 'duvida',
      company: 'acme',
    });
    const again = expectStatus(
      await postTicket(
        t,
        keys.alpha,
        ticket({ category: 11, priority: 3, support_level: 3, nature: 'Elogio', company: 'brisa' }),
      ),
      200,
    );
    expect(again.applied).toEqual(first.applied);
    expect(again.warnings).toEqual([]);
    const [stored] = await storedTickets(t);
    expect(stored).toMatchObject({ category_id: 10, priority_id: 1, support_level: 2, nature: 'duvida' });
  });

  it('resubmission: fallbacks, cnpj, unknown fields and truncation give no warning; only description_differs is possible (Ticket response)', async () => {
    const keys = await seedHelpdesk(t);
    expectStatus(await postTicket(t, keys.alpha, ticket()), 201);
    const again = expectStatus(
      await postTicket(
        t,
        keys.alpha,
        ticket({
          category: 999,
          priority: 'x',
          support_level: 9,
          cnpj: '123',
          unknown: true,
          requester: { name: 'n'.repeat(200), other: 1 },
        }),
      ),
      200,
    );
    expect(again.warnings).toEqual([]);
    expect(again.applied).toMatchObject({ category_id: CATALOG.defaultCategory, priority_id: 4 });
  });

  it('resubmission: a different description gives only description_differs; the stored ticket is unchanged (Ticket response)', async () => {
    const keys = await seedHelpdesk(t);
    const first = expectStatus(
      await postTicket(t, keys.alpha, ticket({ description: 'Printer is down.' })),
      201,
    );
    const again = expectStatus(
      await postTicket(
        t,
        keys.alpha,
        ticket({ description: 'Printer is on fire.', category: 999, extra: 1 }),
      ),
      200,
    );
    expect(again.id).toBe(first.id);
    expect(again.duplicate).toBe(true);
    expect(again.warnings).toEqual([{ code: 'description_differs', message: expect.any(String) }]);
    const [stored] = await storedTickets(t);
    expect(stored?.description).toBe('Printer is down.');
  });

  it('resubmission: description_differs compares cleaned descriptions, so spaces at the ends do not differ (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    expectStatus(await postTicket(t, keys.alpha, ticket({ description: 'Printer is down.' })), 201);
    for (const description of [
      'Printer is down.   ',
      '\n\tPrinter is down.\r\n',
      '\u00A0Printer is down.\u3000',
    ]) {
      const again = expectStatus(await postTicket(t, keys.alpha, ticket({ description })), 200);
      expect(again.warnings).toEqual([]);
    }
    const inner = expectStatus(
      await postTicket(t, keys.alpha, ticket({ description: 'Printer  is down.' })),
      200,
    );
    expect(inner.warnings).toEqual([{ code: 'description_differs', message: expect.any(String) }]);
    const caseOnly = expectStatus(
      await postTicket(t, keys.alpha, ticket({ description: 'printer is down.' })),
      200,
    );
    expect(caseOnly.warnings).toEqual([{ code: 'description_differs', message: expect.any(String) }]);
  });

  it('resubmission: the external_id is matched after cleaning, as the JSON integer too (Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const first = expectStatus(await postTicket(t, keys.alpha, ticket({ external_id: '4711' })), 201);
    const spaced = expectStatus(
      await postTicket(t, keys.alpha, ticket({ external_id: ' 47\u200B11\u0007 ' })),
      200,
    );
    expect(spaced.id).toBe(first.id);
    const integer = expectStatus(
      await postTicket(
        t,
        keys.alpha,
        '{"external_id": 4711, "company": "acme", "description": "Terminal 3 does not print."}',
      ),
      200,
    );
    expect(integer.id).toBe(first.id);
    expect(integer.warnings).toEqual([]);
  });

  it('resubmission: the body is still validated, field 422s apply before the registry (POST ticket 200)', async () => {
    const keys = await seedHelpdesk(t);
    const first = expectStatus(await postTicket(t, keys.alpha, ticket()), 201);
    const cases: [Record<string, unknown>, string, string][] = [
      [ticket({ company: undefined }), 'missing_company', 'company'],
      [ticket({ company: 'legado' }), 'invalid_company', 'company'],
      [ticket({ description: '  ' }), 'missing_description', 'description'],
      [ticket({ description: 'd'.repeat(20_001) }), 'field_too_long', 'description'],
      [ticket({ description: 'a\u0000b' }), 'invalid_field', 'description'],
      [ticket({ nature: 'sugestao' }), 'invalid_nature', 'nature'],
      [ticket({ requester: { name: '\u0000' } }), 'invalid_field', 'requester.name'],
    ];
    for (const [body, code, param] of cases) {
      const response = await postTicket(t, keys.alpha, body);
      expect(response.statusCode, `${code}: ${response.body}`).toBe(422);
      expect(json(response)).toMatchObject({ code, param });
    }
    // Still the one ticket, still answered as a duplicate.
    const again = expectStatus(await postTicket(t, keys.alpha, ticket()), 200);
    expect(again.id).toBe(first.id);
    expect(await storedTickets(t)).toHaveLength(1);
  });

  it('resubmission: a company deactivated since then makes the resubmission 422 invalid_company (POST ticket 200: "the body is still validated")', async () => {
    const keys = await seedHelpdesk(t);
    expectStatus(await postTicket(t, keys.alpha, ticket({ company: 'Brisa' })), 201);
    await t.admin('PUT', '/admin/v1/helpdesk/companies/Brisa', { name: 'Água Brisa', active: false });
    const again = await postTicket(t, keys.alpha, ticket({ company: 'Brisa' }));
    expect(again.statusCode).toBe(422);
    expect(json(again).code).toBe('invalid_company');
  });

  it('registry per system: the same external_id on another system makes a new ticket (POST ticket 200)', async () => {
    const keys = await seedHelpdesk(t);
    const alpha = expectStatus(await postTicket(t, keys.alpha, ticket({ external_id: 'shared' })), 201);
    const beta = expectStatus(await postTicket(t, keys.beta, ticket({ external_id: 'shared' })), 201);
    expect(beta.id).not.toBe(alpha.id);
    expect(beta.ticket).not.toBe(alpha.ticket);
    const alphaAgain = expectStatus(await postTicket(t, keys.alpha, ticket({ external_id: 'shared' })), 200);
    expect(alphaAgain.id).toBe(alpha.id);
    const betaAgain = expectStatus(await postTicket(t, keys.beta, ticket({ external_id: 'shared' })), 200);
    expect(betaAgain.id).toBe(beta.id);
    expect(await storedTickets(t, '&external_id=shared')).toHaveLength(2);
  });

  it('registry shared with the webhook route: direct first, then webhook, is a duplicate (POST webhook)', async () => {
    const keys = await seedHelpdesk(t);
    const direct = expectStatus(await postTicket(t, keys.alpha, ticket({ external_id: 'w-1' })), 201);
    const hook = expectStatus(
      await postTicket(t, keys.alpha, ticket({ external_id: 'w-1', description: 'Other text.' }), {
        url: webhookUrl('alpha'),
      }),
      200,
    );
    expect(hook).toMatchObject({
      id: direct.id,
      ticket: direct.ticket,
      duplicate: true,
      applied: direct.applied,
    });
    expect(hook.warnings).toEqual([{ code: 'description_differs', message: expect.any(String) }]);
  });

  it('registry shared with the webhook route: webhook first (any content type), then direct, is a duplicate (POST webhook)', async () => {
    const keys = await seedHelpdesk(t);
    const hook = expectStatus(
      await postTicket(t, keys.alpha, ticket({ external_id: 'w-2', category: 11 }), {
        url: webhookUrl('alpha'),
        headers: { 'content-type': 'text/plain' },
      }),
      201,
    );
    const direct = expectStatus(await postTicket(t, keys.alpha, ticket({ external_id: 'w-2' })), 200);
    expect(direct).toMatchObject({
      id: hook.id,
      duplicate: true,
      applied: { category_id: 11, priority_id: 3 },
    });
    // The webhook of another system is another registry.
    const other = expectStatus(
      await postTicket(t, keys.beta, ticket({ external_id: 'w-2' }), { url: webhookUrl('beta') }),
      201,
    );
    expect(other.id).not.toBe(hook.id);
  });

  it('concurrency: two simultaneous requests with one new external_id make exactly one ticket, one 201 and one 200 with the same id (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    const rounds = 20;
    for (let round = 0; round < rounds; round += 1) {
      const externalId = `race-${round}`;
      // Every other round races the direct route against the webhook: the registry is shared.
      const secondUrl = round % 2 === 0 ? undefined : webhookUrl('alpha');
      const [a, b] = await Promise.all([
        postTicket(t, keys.alpha, ticket({ external_id: externalId })),
        postTicket(
          t,
          keys.alpha,
          ticket({ external_id: externalId }),
          secondUrl === undefined ? {} : { url: secondUrl },
        ),
      ]);
      const statuses = [a.statusCode, b.statusCode].sort();
      expect(statuses, `round ${round}: ${a.body} | ${b.body}`).toEqual([200, 201]);
      const bodies = [json(a), json(b)];
      expect(bodies[0]?.id).toBe(bodies[1]?.id);
      expect(bodies[0]?.ticket).toBe(bodies[1]?.ticket);
      const duplicateFlags = bodies.map((body) => body.duplicate).sort();
      expect(duplicateFlags).toEqual([false, true]);
      for (const body of bodies) expect(body.warnings).toEqual([]);
    }
    const stored = await storedTickets(t);
    expect(stored).toHaveLength(rounds);
    expect(new Set(stored.map((row) => row.external_id)).size).toBe(rounds);
  });

  it('concurrency: a burst of five simultaneous requests with one external_id still makes one ticket (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => postTicket(t, keys.alpha, ticket({ external_id: 'burst' }))),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => json(response).id)).size).toBe(1);
    expect(await storedTickets(t)).toHaveLength(1);
  });

  it('ticket numbers: unique and rising; on SQLite a resubmission takes none, alone or beside new tickets (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    const numberOf = (response: LightMyRequestResponse, status: number) =>
      Number(String(expectStatus(response, status).ticket).slice('I-'.length));
    const post = (externalId: string) => postTicket(t, keys.alpha, ticket({ external_id: externalId }));
    const numbers = [numberOf(await post('n-1'), 201)];
    numberOf(await post('n-1'), 200);
    numberOf(await post('n-1'), 200);
    numbers.push(numberOf(await post('n-2'), 201));
    // Sent together, so that resubmissions and new tickets share a batch (one commit).
    const together = await Promise.all(['n-1', 'n-3', 'n-2', 'n-4', 'n-1'].map(post));
    expect(together.map((response) => response.statusCode)).toEqual([200, 201, 200, 201, 200]);
    const ascending = (x: number, y: number) => x - y;
    numbers.push(...[together[1], together[3]].map((response) => numberOf(response!, 201)).sort(ascending));
    numbers.push(numberOf(await post('n-5'), 201));
    const first = numbers[0]!;
    if (dialect.name === 'sqlite') {
      expect(numbers).toEqual([first, first + 1, first + 2, first + 3, first + 4]);
    } else {
      // PostgreSQL's sequence gives a number to each ticket of a statement, a resubmission's too.
      expect(numbers).toEqual([...numbers].sort(ascending));
      expect(new Set(numbers).size).toBe(numbers.length);
    }
  });

  it('deleted category: a resubmission of a ticket that had it shows applied.category_id null (Ticket response; docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    const first = expectStatus(await postTicket(t, keys.alpha, ticket({ category: 10 })), 201);
    expect(first.applied).toMatchObject({ category_id: 10, priority_id: 2 });
    await t.admin('DELETE', '/admin/v1/helpdesk/categories/10');
    const again = expectStatus(await postTicket(t, keys.alpha, ticket({ category: 10 })), 200);
    expect(again.id).toBe(first.id);
    expect(again.warnings).toEqual([]);
    expect(again.applied).toEqual({
      category_id: null,
      priority_id: 2,
      support_level: 1,
      nature: null,
      company: 'acme',
    });
    // A new ticket that asks for the deleted category falls back to the default.
    const fresh = expectStatus(
      await postTicket(t, keys.alpha, ticket({ external_id: 'new', category: 10 })),
      201,
    );
    expect(fresh.applied).toMatchObject({ category_id: CATALOG.defaultCategory, priority_id: 4 });
    expect((fresh.warnings as { code: string }[]).map((w) => w.code)).toEqual(['category_fallback']);
  });

  it('deleted default category: a resubmission is still 200 with applied.category_id null, not misconfigured_system (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    const first = expectStatus(await postTicket(t, keys.alpha, ticket()), 201);
    await t.admin('DELETE', `/admin/v1/helpdesk/categories/${CATALOG.defaultCategory}`);
    const again = expectStatus(await postTicket(t, keys.alpha, ticket()), 200);
    expect(again.id).toBe(first.id);
    expect((again.applied as Record<string, unknown>).category_id).toBeNull();
  });

  it('misconfigured_system: a system whose default category was deleted gets 503 with Retry-After on a new ticket (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    await t.admin('DELETE', `/admin/v1/helpdesk/categories/${CATALOG.defaultCategory}`);
    for (const body of [ticket({ external_id: 'm-1' }), ticket({ external_id: 'm-2', category: 999 })]) {
      const response = await postTicket(t, keys.alpha, body);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(json(response)).toMatchObject({
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        code: 'misconfigured_system',
      });
      expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(response.headers['x-request-id']).toBeTruthy();
    }
    expect(await storedTickets(t)).toEqual([]);
    // The registry stays clean: once the operator fixes the system, the same external_id is created.
    await t.admin('PUT', '/admin/v1/helpdesk/systems/alpha', {
      name: 'alpha',
      scopes: ['help-desk-ticket.create'],
      default_category_id: 10,
      released_category_ids: [11],
    });
    const fixed = expectStatus(await postTicket(t, keys.alpha, ticket({ external_id: 'm-1' })), 201);
    expect(fixed.applied).toMatchObject({ category_id: 10, priority_id: 2 });
  });

  it('misconfigured_system: a system without a default category gets 503 on the webhook too (docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    await t.admin('PUT', '/admin/v1/helpdesk/systems/alpha', {
      name: 'alpha',
      scopes: ['help-desk-ticket.create'],
      default_category_id: null,
      released_category_ids: [10],
    });
    const response = await postTicket(t, keys.alpha, ticket(), { url: webhookUrl('alpha') });
    expect(response.statusCode, response.body).toBe(503);
    expect(json(response).code).toBe('misconfigured_system');
    expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(await storedTickets(t)).toEqual([]);
  });

  it('misconfigured_system: without a default category even a ticket naming a released category gets 503 (docs/ticket-api.md, Settled details: the system "cannot open tickets")', async () => {
    const keys = await seedHelpdesk(t);
    await t.admin('DELETE', `/admin/v1/helpdesk/categories/${CATALOG.defaultCategory}`);
    const response = await postTicket(t, keys.alpha, ticket({ category: 10 }));
    expect(response.statusCode, response.body).toBe(503);
    expect(json(response).code).toBe('misconfigured_system');
    expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(await storedTickets(t)).toEqual([]);
  });

  it('misconfigured_system: field 422s still come first (Authentication: field-level errors last; docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    await t.admin('DELETE', `/admin/v1/helpdesk/categories/${CATALOG.defaultCategory}`);
    const response = await postTicket(t, keys.alpha, ticket({ nature: 'nope' }));
    expect(response.statusCode).toBe(422);
    expect(json(response).code).toBe('invalid_nature');
  });
}

describeEachDialect('ticket API, duplicates', duplicates);
// A SQLite file opens tickets on its writer thread, which answers a new ticket with its number only and
// a resubmission with the stored row: both must answer as above.
describeOnSqliteFile('ticket API, duplicates', duplicates);
