import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { CATALOG, getOptions, json, postTicket, seedHelpdesk, ticket, webhookUrl } from './fixtures.js';

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
