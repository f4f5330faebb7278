import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { publicRequest } from '../request.js';
import {
  CATALOG,
  getOptions,
  json,
  postTicket,
  seedHelpdesk,
  ticket,
  TICKET_URL,
  webhookUrl,
} from './fixtures.js';

describeEachDialect('ticket API, happy paths', (dialect) => {
  const t = useTestApp(dialect);

  it('POST ticket: 201 with the ticket number, id and applied defaults (Ticket response)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(t, keys.alpha, ticket());
    expect(response.statusCode).toBe(201);
    const body = json(response);
    expect(body.ticket).toMatch(/^I-\d{6,}$/);
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.duplicate).toBe(false);
    expect(body.warnings).toEqual([]);
    expect(body.applied).toEqual({
      category_id: CATALOG.defaultCategory,
      priority_id: 4,
      support_level: 1,
      nature: null,
      company: 'acme',
    });
    expect(response.headers['x-ratelimit-limit']).toBe('120');
    expect(response.headers['x-ratelimit-remaining']).toBe('119');
  });

  it('webhook: the same ticket registry as the direct route (POST webhook)', async () => {
    const keys = await seedHelpdesk(t);
    const first = await postTicket(t, keys.alpha, ticket(), { url: webhookUrl('alpha') });
    expect(first.statusCode).toBe(201);
    const again = await postTicket(t, keys.alpha, ticket());
    expect(again.statusCode).toBe(200);
    expect(json(again).id).toBe(json(first).id);
    expect(json(again).duplicate).toBe(true);
  });

  it('POST ticket: the lowercase JSON type is judged on every call, the same header sent again included (415 unsupported_media_type)', async () => {
    // The listener remembers which body parser a Content-Type header got; each call's type is still
    // judged by the API: Application/JSON is refused the second time too, a charset accepted again.
    const keys = await seedHelpdesk(t);
    const sent: [string, number][] = [
      ['application/json', 201],
      ['Application/JSON', 415],
      ['Application/JSON', 415],
      ['application/json; charset=utf-8', 201],
      ['application/json; charset=utf-8', 201],
      ['text/plain', 415],
      ['text/plain', 415],
      ['application/json', 201],
    ];
    const answered: [string, number][] = [];
    for (const [i, [type]] of sent.entries()) {
      const response = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type,
        payload: JSON.stringify(ticket({ external_id: `type-${i}` })),
      });
      answered.push([type, response.statusCode]);
      if (response.statusCode === 415) expect(json(response).code).toBe('unsupported_media_type');
    }
    expect(answered).toEqual(sent);
  });

  it('options: 200 with the system view of the catalog', async () => {
    const keys = await seedHelpdesk(t);
    const response = await getOptions(t, keys.alpha);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.companies).toEqual([
      { id: 'acme', name: 'Acme Comércio' },
      { id: 'Brisa', name: 'Água Brisa' },
    ]);
  });
});
