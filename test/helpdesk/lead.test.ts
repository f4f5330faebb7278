import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { json, LEAD_URL, postTicket, seedHelpdesk, ticket } from './fixtures.js';

// The planned lead route (docs/ticket-api.md, "POST lead (planned)"): after the key it checks the
// minimal shape (required external_id, string, max 120), stores nothing and answers 501.

function postLead(t: TestApp, key: string, body: unknown): Promise<LightMyRequestResponse> {
  return postTicket(t, key, body, { url: LEAD_URL });
}

async function storedTickets(t: TestApp): Promise<unknown[]> {
  return json(await t.admin('GET', '/admin/v1/helpdesk/tickets')).data as unknown[];
}

function expectNotImplemented(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(501);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = json(response);
  expect(body).toMatchObject({
    type: 'about:blank',
    title: 'Not Implemented',
    status: 501,
    code: 'not_implemented',
  });
  expect(typeof body.detail).toBe('string');
  expect(body).not.toHaveProperty('param');
  expect(response.headers['x-request-id']).toBeTruthy();
  expect(response.headers['x-ratelimit-limit']).toBe('120');
}

async function expectLeadRefusal(t: TestApp, response: LightMyRequestResponse, code: string): Promise<void> {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(json(response)).toMatchObject({
    type: 'about:blank',
    title: 'Unprocessable Entity',
    status: 422,
    code,
    param: 'external_id',
  });
  expect(response.headers['x-ratelimit-limit']).toBe('120');
  expect(await storedTickets(t)).toEqual([]);
}

describeEachDialect('ticket API, lead route (planned)', (dialect) => {
  const t = useTestApp(dialect);

  it('lead: a valid body is 501 not_implemented with title "Not Implemented" (POST lead)', async () => {
    const keys = await seedHelpdesk(t);
    expectNotImplemented(await postLead(t, keys.beta, { external_id: 'lead-1', name: 'Maria' }));
  });

  it('lead: only lead.create is needed; a key with only that scope gets 501 (POST lead)', async () => {
    const keys = await seedHelpdesk(t);
    expectNotImplemented(await postLead(t, keys.gamma, { external_id: 'lead-1' }));
  });

  it('lead: the ticket fields are not required, only external_id (POST lead: minimal shape)', async () => {
    const keys = await seedHelpdesk(t);
    expectNotImplemented(
      await postLead(t, keys.gamma, { external_id: 'lead-1', company: 'nope', nature: 5 }),
    );
  });

  it('lead: missing external_id is 422 missing_external_id after the key (POST lead)', async () => {
    const keys = await seedHelpdesk(t);
    await expectLeadRefusal(t, await postLead(t, keys.beta, { name: 'Maria' }), 'missing_external_id');
  });

  it.each([
    ['null', null],
    ['the empty string', ''],
    ['only spaces and invisible characters', '  \u200B '],
  ])('lead: external_id %s is 422 missing_external_id (POST lead)', async (_label, externalId) => {
    const keys = await seedHelpdesk(t);
    await expectLeadRefusal(
      t,
      await postLead(t, keys.beta, { external_id: externalId }),
      'missing_external_id',
    );
  });

  it('lead: external_id over 120 characters is 422 field_too_long (POST lead)', async () => {
    const keys = await seedHelpdesk(t);
    await expectLeadRefusal(
      t,
      await postLead(t, keys.beta, { external_id: 'l'.repeat(121) }),
      'field_too_long',
    );
  });

  it('lead: external_id of exactly 120 characters is accepted, 501 (POST lead)', async () => {
    const keys = await seedHelpdesk(t);
    expectNotImplemented(await postLead(t, keys.beta, { external_id: ` ${'l'.repeat(120)} ` }));
  });

  it('lead: the shape is checked only after the key: a wrong key gets 401, not 422 (POST lead; Authentication order)', async () => {
    await seedHelpdesk(t);
    const response = await postLead(t, `gtes_${'B'.repeat(43)}`, { name: 'no external_id' });
    expect(response.statusCode).toBe(401);
    expect(json(response).code).toBe('unauthorized');
  });

  it('lead: without the lead.create scope, 403 forbidden_scope comes before the shape (POST lead)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postLead(t, keys.alpha, { name: 'no external_id' });
    expect(response.statusCode).toBe(403);
    expect(json(response)).toMatchObject({ code: 'forbidden_scope', required_scope: 'lead.create' });
  });

  it('lead: nothing is stored; the same external_id is still new on the ticket route (POST lead)', async () => {
    const keys = await seedHelpdesk(t);
    expectNotImplemented(await postLead(t, keys.beta, ticket({ external_id: 'lead-1' })));
    expectNotImplemented(await postLead(t, keys.beta, ticket({ external_id: 'lead-1' })));
    expect(await storedTickets(t)).toEqual([]);
    const created = await postTicket(t, keys.beta, ticket({ external_id: 'lead-1' }));
    expect(created.statusCode).toBe(201);
    expect(json(created).duplicate).toBe(false);
  });
});
