import { expect, it } from 'vitest';
import { DEMO_SYSTEM, helpdeskIsEmpty, seedHelpdeskDemo } from '../../src/helpdesk/demo.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { json, OPTIONS_URL, postTicket, ticket, webhookUrl } from './fixtures.js';

// The demo data of a first start (docs/admin-rules.md, Configuration: DEMO): a catalog with the four category
// types of the options route and a demo system whose key opens tickets through the real app.

function seed(t: TestApp): Promise<string> {
  return seedHelpdeskDemo(t.services);
}

describeEachDialect('help-desk demo data', (dialect) => {
  const t = useTestApp(dialect);

  it('on an empty database: creates the catalog and a demo system whose key opens a ticket', async () => {
    expect(await helpdeskIsEmpty(t.db)).toBe(true);
    const key = await seed(t);
    expect(await helpdeskIsEmpty(t.db)).toBe(false);
    expect(key).toMatch(/^gtes_[A-Za-z0-9_-]{43}$/);

    const types = JSON.parse((await t.admin('GET', '/admin/v1/helpdesk/category-types')).body) as {
      name: string;
    }[];
    expect(types.map((type) => type.name).sort()).toEqual(
      ['Incidente', 'Problema', 'Solicitação de Mudança', 'Solicitação de Serviço'].sort(),
    );
    const system = json(await t.admin('GET', `/admin/v1/helpdesk/systems/${DEMO_SYSTEM}`));
    expect(system).toMatchObject({ identifier: DEMO_SYSTEM, active: true, has_key: true });
    expect(system.scopes).toEqual(['help-desk-ticket.create']);

    const options = await t.call({
      method: 'GET',
      url: OPTIONS_URL,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(options.statusCode).toBe(200);
    const body = json(options) as {
      companies: { id: string }[];
      categories: {
        id: number;
        default: boolean;
        default_priority_id: number | null;
        type: { name: string };
      }[];
      priorities: unknown[];
      support_levels: unknown[];
      natures: { identifier: string }[];
    };
    expect(body.companies.length).toBeGreaterThan(0);
    expect(body.categories.filter((category) => category.default)).toHaveLength(1);
    // Every category the demo offers has a default priority ("today every category has one").
    expect(body.categories.every((category) => category.default_priority_id !== null)).toBe(true);
    expect(new Set(body.categories.map((category) => category.type.name)).size).toBe(4);
    expect(body.priorities.length).toBeGreaterThan(0);
    expect(body.support_levels.length).toBeGreaterThan(0);
    expect(body.natures.length).toBeGreaterThan(0);

    const company = body.companies[0]!.id;
    const nature = body.natures[0]!.identifier;
    const created = await postTicket(t, key, ticket({ company, nature, external_id: 'demo-1' }));
    expect(created.statusCode).toBe(201);
    expect(json(created)).toMatchObject({ duplicate: false, warnings: [] });
    const viaWebhook = await postTicket(t, key, ticket({ company, external_id: 'demo-2' }), {
      url: webhookUrl(DEMO_SYSTEM),
    });
    expect(viaWebhook.statusCode).toBe(201);
    const stored = json(await t.admin('GET', `/admin/v1/helpdesk/tickets?system=${DEMO_SYSTEM}`))
      .data as unknown[];
    expect(stored).toHaveLength(2);
  });

  it('helpdeskIsEmpty is false as soon as a company or a system exists', async () => {
    await t.admin('PUT', '/admin/v1/helpdesk/companies/acme', { name: 'Acme' });
    expect(await helpdeskIsEmpty(t.db)).toBe(false);
  });
});
