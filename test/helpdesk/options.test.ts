import { expect, it } from 'vitest';
import type { TicketOptions } from '../../src/helpdesk/catalog-repository.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { getOptions, json, postTicket, seedHelpdesk, ticket } from './fixtures.js';

// The options route (docs/ticket-api.md, "Ticket options" and "GET help-desk-ticket-options";
// docs/ticket-api.md, Settled details: Portuguese collation of categories, natures and companies).

type Options = TicketOptions;

async function options(t: TestApp, key: string): Promise<Options> {
  const response = await getOptions(t, key);
  expect(response.statusCode, response.body).toBe(200);
  return json(response) as unknown as Options;
}

const put = (t: TestApp, path: string, body: unknown) => t.admin('PUT', `/admin/v1/helpdesk/${path}`, body);

describeEachDialect('ticket API, options route', (dialect) => {
  const t = useTestApp(dialect);

  it('options: 200 JSON with the five lists and X-Request-Id, X-RateLimit-* headers (GET help-desk-ticket-options)', async () => {
    const keys = await seedHelpdesk(t);
    const response = await getOptions(t, keys.alpha);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(json(response)).sort()).toEqual([
      'categories',
      'companies',
      'natures',
      'priorities',
      'support_levels',
    ]);
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(response.headers['x-ratelimit-limit']).toBe('120');
    expect(response.headers['x-ratelimit-remaining']).toBe('119');
    expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  });

  it('companies: only active ones, {id, name}, sorted by name with the pt-BR collator (Ticket options; docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    await put(t, 'companies/beta', { name: 'Beta' });
    await put(t, 'companies/abaco', { name: 'Ábaco' });
    await put(t, 'companies/zulu', { name: 'zulu minúsculo' });
    await put(t, 'companies/eco', { name: 'Éco' });
    await put(t, 'companies/off', { name: 'Aaa desligada', active: false });
    const { companies } = await options(t, keys.alpha);
    // Binary order would put "zulu", then every accented name last.
    expect(companies).toEqual([
      { id: 'abaco', name: 'Ábaco' },
      { id: 'acme', name: 'Acme Comércio' },
      { id: 'Brisa', name: 'Água Brisa' },
      { id: 'beta', name: 'Beta' },
      { id: 'eco', name: 'Éco' },
      { id: 'zulu', name: 'zulu minúsculo' },
    ]);
  });

  it('companies: the option ids are what "company" accepts (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    const { companies } = await options(t, keys.alpha);
    for (const [index, company] of companies.entries()) {
      const response = await postTicket(
        t,
        keys.alpha,
        ticket({ external_id: `o-${index}`, company: company.id }),
      );
      expect(response.statusCode).toBe(201);
      expect((json(response).applied as { company: string }).company).toBe(company.id);
    }
  });

  it("categories: the system's default and released ones, by type name then name with pt-BR collation, default only on the system default (Ticket options)", async () => {
    const keys = await seedHelpdesk(t);
    await put(t, 'category-types/1', { name: 'Incidente', description: 'Algo parou de funcionar.' });
    const { categories } = await options(t, keys.alpha);
    expect(categories).toEqual([
      {
        id: 11,
        name: 'Étiqueta',
        description: null,
        default: false,
        default_priority_id: 3,
        type: { id: 1, name: 'Incidente', description: 'Algo parou de funcionar.' },
      },
      {
        id: 10,
        name: 'Terminal sem comunicação',
        description: null,
        default: false,
        default_priority_id: 2,
        type: { id: 1, name: 'Incidente', description: 'Algo parou de funcionar.' },
      },
      {
        id: 40,
        name: 'Alteração de cadastro',
        description: null,
        default: false,
        default_priority_id: null,
        type: { id: 4, name: 'Solicitação de Mudança', description: null },
      },
      {
        id: 30,
        name: 'Novo usuário',
        description: null,
        default: true,
        default_priority_id: 4,
        type: { id: 3, name: 'Solicitação de Serviço', description: null },
      },
    ]);
    // The unreleased category 20 is not offered.
    expect(categories.map((category) => category.id)).not.toContain(20);
  });

  it('categories: per system, the type order uses the collator, not the type id (Ticket options; docs/ticket-api.md, Settled details)', async () => {
    const keys = await seedHelpdesk(t);
    await put(t, 'category-types/5', { name: 'Ávaliação' });
    await put(t, 'categories/50', {
      name: 'Zeladoria',
      type_id: 5,
      default_priority_id: 1,
      description: 'Visita.',
    });
    await put(t, 'categories/51', { name: 'ábaco', type_id: 5, default_priority_id: 1 });
    await put(t, 'systems/beta', {
      name: 'beta',
      scopes: ['help-desk-ticket.create', 'lead.create'],
      default_category_id: 20,
      released_category_ids: [50, 10, 51, 20],
    });
    const { categories } = await options(t, keys.beta);
    expect(categories.map((category) => [category.id, category.type.name, category.default])).toEqual([
      [51, 'Ávaliação', false],
      [50, 'Ávaliação', false],
      [10, 'Incidente', false],
      [20, 'Problema', true],
    ]);
    expect(categories.find((category) => category.id === 50)?.description).toBe('Visita.');
    // alpha is untouched.
    const alpha = await options(t, keys.alpha);
    expect(alpha.categories.map((category) => category.id)).toEqual([11, 10, 40, 30]);
  });

  it('categories: exactly one default, and it is the category used when none is chosen (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    const { categories } = await options(t, keys.alpha);
    const defaults = categories.filter((category) => category.default);
    expect(defaults.map((category) => category.id)).toEqual([30]);
    const response = await postTicket(t, keys.alpha, ticket());
    expect(json(response).applied).toMatchObject({
      category_id: defaults[0]?.id,
      priority_id: defaults[0]?.default_priority_id,
    });
  });

  it('categories: a deleted category disappears from the options (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    await t.admin('DELETE', '/admin/v1/helpdesk/categories/11');
    const { categories } = await options(t, keys.alpha);
    expect(categories.map((category) => category.id)).toEqual([10, 40, 30]);
  });

  it('priorities: ordered by level, most urgent first, not by id; with description and response_time_hours (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    await put(t, 'priorities/1', { name: 'Crítica', level: 5, response_time_hours: 4 });
    await put(t, 'priorities/7', {
      name: 'Urgentíssima',
      level: 1,
      response_time_hours: 1,
      description: 'Agora.',
    });
    const { priorities } = await options(t, keys.alpha);
    expect(priorities).toEqual([
      { id: 7, name: 'Urgentíssima', description: 'Agora.', level: 1, response_time_hours: 1 },
      { id: 2, name: 'Alta', description: null, level: 2, response_time_hours: 2 },
      { id: 3, name: 'Média', description: null, level: 3, response_time_hours: 24 },
      { id: 4, name: 'Baixa', description: 'Sem pressa.', level: 4, response_time_hours: 72 },
      { id: 1, name: 'Crítica', description: null, level: 5, response_time_hours: 4 },
    ]);
  });

  it('support_levels: {id, name, description} with integer ids >= 1 (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    await put(t, 'support-levels/2', { name: 'N2', description: 'Especialista.' });
    const { support_levels } = await options(t, keys.alpha);
    expect(support_levels).toEqual([
      { id: 1, name: 'N1', description: null },
      { id: 2, name: 'N2', description: 'Especialista.' },
      { id: 3, name: 'N3', description: null },
    ]);
  });

  it('natures: only active ones, {identifier, name}, sorted by name with the pt-BR collator (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    await put(t, 'natures/animo', { name: 'Ânimo' });
    await put(t, 'natures/zz', { name: 'Zebra' });
    await put(t, 'natures/em', { name: 'Êxito' });
    const { natures } = await options(t, keys.alpha);
    expect(natures).toEqual([
      { identifier: 'animo', name: 'Ânimo' },
      { identifier: 'duvida', name: 'Dúvida' },
      { identifier: 'Elogio', name: 'Elogio' },
      { identifier: 'em', name: 'Êxito' },
      { identifier: 'zz', name: 'Zebra' },
    ]);
  });

  it('natures: a newly registered nature appears and can be sent (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    const before = await postTicket(t, keys.alpha, ticket({ external_id: 'n-1', nature: 'reclamacao' }));
    expect(before.statusCode).toBe(422);
    expect(json(before).code).toBe('invalid_nature');
    await put(t, 'natures/reclamacao', { name: 'Reclamação' });
    const { natures } = await options(t, keys.alpha);
    expect(natures.map((nature) => nature.identifier)).toEqual(['duvida', 'Elogio', 'reclamacao']);
    const after = await postTicket(t, keys.alpha, ticket({ external_id: 'n-1', nature: 'Reclamacao' }));
    expect(after.statusCode).toBe(201);
    expect((json(after).applied as { nature: string }).nature).toBe('reclamacao');
  });

  it('natures: a deactivated nature disappears and then gives invalid_nature (Ticket options)', async () => {
    const keys = await seedHelpdesk(t);
    const first = await postTicket(t, keys.alpha, ticket({ external_id: 'n-1', nature: 'duvida' }));
    expect(first.statusCode).toBe(201);
    await put(t, 'natures/duvida', { name: 'Dúvida', active: false });
    const { natures } = await options(t, keys.alpha);
    expect(natures).toEqual([{ identifier: 'Elogio', name: 'Elogio' }]);
    const refused = await postTicket(t, keys.alpha, ticket({ external_id: 'n-2', nature: 'duvida' }));
    expect(refused.statusCode).toBe(422);
    expect(json(refused)).toMatchObject({ code: 'invalid_nature', param: 'nature' });
    // Reactivated, it is back.
    await put(t, 'natures/duvida', { name: 'Dúvida', active: true });
    const back = await postTicket(t, keys.alpha, ticket({ external_id: 'n-2', nature: 'duvida' }));
    expect(back.statusCode).toBe(201);
  });

  it('options: the released choices are exactly what the ticket route accepts without fallback (Ticket options; Ticket request)', async () => {
    const keys = await seedHelpdesk(t);
    const opts = await options(t, keys.alpha);
    let n = 0;
    for (const category of opts.categories) {
      for (const priority of opts.priorities) {
        for (const level of opts.support_levels) {
          n += 1;
          const response = await postTicket(
            t,
            keys.alpha,
            ticket({
              external_id: `c-${n}`,
              category: category.id,
              priority: priority.id,
              support_level: level.id,
            }),
          );
          expect(response.statusCode).toBe(201);
          expect(json(response).warnings).toEqual([]);
        }
      }
    }
  });
});
