import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  adminAs,
  describeEachDialect,
  SUPPORT_TOKEN,
  useTestApp,
  type TestApp,
} from '../helper.js';
import { expectProblem } from '../expect-http.js';
import { json, OPTIONS_URL, postTicket, seedHelpdesk, ticket } from '../helpdesk/fixtures.js';

// The help-desk half of the back office (admin-api.md: intro, Help desk) and its health and metrics
// routes: tokens and roles, PUT semantics with defaults, refusals that say what to fix and change
// nothing, keys shown once, the ticket listing and the maintenance switch.

const HD = '/admin/v1/helpdesk';
const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

type Body = Record<string, unknown>;

const asOperator = (t: TestApp, method: InjectOptions['method'], url: string, body?: unknown) =>
  adminAs(t, ADMIN_TOKEN, method, url, body);

/** A 422 `validation_failed` whose detail and param name the field to fix. */
function expectInvalid(response: LightMyRequestResponse, field: string): Body {
  const body = expectProblem(response, 422, 'validation_failed');
  expect(String(body.detail)).toContain(field);
  expect(String(body.param)).toMatch(new RegExp(`(^|\\.)${field.replace(/[.[\]]/g, '\\$&')}$`));
  return body;
}

/** The minimal catalog a system needs: a type, a priority, two categories. */
async function seedCatalog(t: TestApp): Promise<void> {
  await t.admin('PUT', `${HD}/category-types/1`, { name: 'Incidente' });
  await t.admin('PUT', `${HD}/priorities/1`, { name: 'Alta', level: 1, response_time_hours: 4 });
  await t.admin('PUT', `${HD}/categories/10`, { name: 'Terminal', type_id: 1, default_priority_id: 1 });
  await t.admin('PUT', `${HD}/categories/11`, { name: 'Impressora', type_id: 1 });
}

async function list(t: TestApp, path: string): Promise<Body[]> {
  return JSON.parse((await t.admin('GET', `${HD}/${path}`)).body) as Body[];
}

async function rotate(t: TestApp, system: string): Promise<Body> {
  const response = await asOperator(t, 'POST', `${HD}/systems/${system}/keys/rotate`);
  expect(response.statusCode, response.body).toBe(201);
  return json(response);
}

describeEachDialect('admin API, help desk', (dialect) => {
  const t = useTestApp(dialect);

  describe('authentication and roles (admin-api.md, intro)', () => {
    it('absent or wrong token: 401 problem+json with WWW-Authenticate, nothing written', async () => {
      for (const token of [
        undefined,
        'wrong-token-0123456789',
        `${ADMIN_TOKEN}x`,
        ADMIN_TOKEN.slice(0, -1),
      ]) {
        const read = await adminAs(t, token, 'GET', `${HD}/systems`);
        expectProblem(read, 401, 'unauthorized');
        expect(read.headers['www-authenticate']).toBe('Bearer');
        expectProblem(
          await adminAs(t, token, 'PUT', `${HD}/companies/acme`, { name: 'Acme' }),
          401,
          'unauthorized',
        );
      }
      const basic = await t.app.admin.inject({
        method: 'GET',
        url: `${HD}/systems`,
        headers: { authorization: `Basic ${ADMIN_TOKEN}` },
      });
      expectProblem(basic, 401, 'unauthorized');
      expect(await list(t, 'companies')).toEqual([]);
    });

    it('the scheme word is case-insensitive for the operator token', async () => {
      const response = await t.app.admin.inject({
        method: 'GET',
        url: `${HD}/systems`,
        headers: { authorization: `bearer ${ADMIN_TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
    });

    it('support may list systems, one system and tickets, and stop a previous key', async () => {
      await seedHelpdesk(t);
      await rotate(t, 'alpha');
      const systems = await adminAs(t, SUPPORT_TOKEN, 'GET', `${HD}/systems`);
      expect(systems.statusCode).toBe(200);
      expect((json(systems) as unknown as Body[]).map((s) => s.identifier)).toEqual([
        'alpha',
        'beta',
        'gamma',
      ]);
      const one = await adminAs(t, SUPPORT_TOKEN, 'GET', `${HD}/systems/alpha`);
      expect(one.statusCode).toBe(200);
      expect(json(one).identifier).toBe('alpha');
      const tickets = await adminAs(t, SUPPORT_TOKEN, 'GET', `${HD}/tickets`);
      expect(tickets.statusCode).toBe(200);
      const stop = await adminAs(t, SUPPORT_TOKEN, 'POST', `${HD}/systems/alpha/keys/stop-previous`);
      expect(stop.statusCode).toBe(200);
      expect(json(stop).stopped).toBe(true);
    });

    it('support gets 403 forbidden on everything else, and nothing changes', async () => {
      await seedHelpdesk(t);
      const refused: [InjectOptions['method'], string, unknown?][] = [
        ['PUT', `${HD}/companies/nova`, { name: 'Nova' }],
        ['PUT', `${HD}/systems/alpha`, { name: 'x', default_category_id: null }],
        ['POST', `${HD}/systems/alpha/keys/rotate`],
        ['DELETE', `${HD}/categories/10`],
        ['GET', `${HD}/companies`],
        ['GET', `${HD}/maintenance`],
        ['PUT', `${HD}/maintenance`, { enabled: true }],
        ['GET', '/metrics'],
      ];
      for (const [method, url, body] of refused) {
        const response = await adminAs(t, SUPPORT_TOKEN, method, url, body);
        expectProblem(response, 403, 'forbidden');
      }
      expect((await list(t, 'companies')).map((c) => c.id)).not.toContain('nova');
      expect((await list(t, 'categories')).map((c) => c.id)).toContain(10);
      expect(json(await t.admin('GET', `${HD}/systems/alpha`)).name).toBe('alpha');
      expect(json(await t.admin('GET', `${HD}/maintenance`)).enabled).toBe(false);
    });
  });

  describe('PUT creates (201) or replaces (200), fields not given take their default', () => {
    it('companies and natures: {name, active=true}', async () => {
      for (const path of ['companies/acme', 'natures/duvida']) {
        const created = await asOperator(t, 'PUT', `${HD}/${path}`, { name: 'Primeiro' });
        expect(created.statusCode).toBe(201);
        const key = path.startsWith('natures') ? 'identifier' : 'id';
        expect(json(created)).toEqual({ [key]: path.split('/')[1], name: 'Primeiro', active: true });
        const replaced = await asOperator(t, 'PUT', `${HD}/${path}`, { name: 'Segundo', active: false });
        expect(replaced.statusCode).toBe(200);
        expect(json(replaced)).toMatchObject({ name: 'Segundo', active: false });
        // Replace, not merge: `active` left out is back to its default.
        expect(json(await asOperator(t, 'PUT', `${HD}/${path}`, { name: 'Terceiro' }))).toMatchObject({
          name: 'Terceiro',
          active: true,
        });
      }
      expect(await list(t, 'companies')).toEqual([{ id: 'acme', name: 'Terceiro', active: true }]);
      expect(await list(t, 'natures')).toEqual([{ identifier: 'duvida', name: 'Terceiro', active: true }]);
    });

    it('category types, priorities, categories, support levels: description=null, default_priority_id=null', async () => {
      const type = await asOperator(t, 'PUT', `${HD}/category-types/1`, { name: 'Incidente' });
      expect(type.statusCode).toBe(201);
      expect(json(type)).toEqual({ id: 1, name: 'Incidente', description: null });
      const priority = await asOperator(t, 'PUT', `${HD}/priorities/2`, {
        name: 'Alta',
        level: 1,
        response_time_hours: 4,
      });
      expect(priority.statusCode).toBe(201);
      expect(json(priority)).toEqual({
        id: 2,
        name: 'Alta',
        description: null,
        level: 1,
        response_time_hours: 4,
      });
      const category = await asOperator(t, 'PUT', `${HD}/categories/10`, { name: 'Terminal', type_id: 1 });
      expect(category.statusCode).toBe(201);
      expect(json(category)).toEqual({
        id: 10,
        name: 'Terminal',
        description: null,
        type_id: 1,
        default_priority_id: null,
      });
      const level = await asOperator(t, 'PUT', `${HD}/support-levels/1`, {
        name: 'N1',
        description: 'Primeiro.',
      });
      expect(level.statusCode).toBe(201);
      expect(json(level)).toEqual({ id: 1, name: 'N1', description: 'Primeiro.' });

      const replaced = await asOperator(t, 'PUT', `${HD}/categories/10`, {
        name: 'Terminal parado',
        description: 'Sem comunicação.',
        type_id: 1,
        default_priority_id: 2,
      });
      expect(replaced.statusCode).toBe(200);
      expect(json(replaced)).toMatchObject({ description: 'Sem comunicação.', default_priority_id: 2 });
      const again = await asOperator(t, 'PUT', `${HD}/support-levels/1`, { name: 'N1' });
      expect(again.statusCode).toBe(200);
      expect(json(again).description).toBeNull();
    });

    it('an option description of exactly 500 characters (code points, emoji included) is accepted', async () => {
      const emoji = '😀'.repeat(500);
      const response = await asOperator(t, 'PUT', `${HD}/category-types/1`, {
        name: 'T',
        description: emoji,
      });
      expect(response.statusCode).toBe(201);
      expect(json(response).description).toBe(emoji);
      const plain = await asOperator(t, 'PUT', `${HD}/support-levels/1`, {
        name: 'N',
        description: 'a'.repeat(500),
      });
      expect(plain.statusCode).toBe(201);
    });

    it('systems: defaults for everything but name and default_category_id; 201 then 200', async () => {
      await seedCatalog(t);
      const created = await asOperator(t, 'PUT', `${HD}/systems/erp-1_a`, {
        name: 'ERP',
        default_category_id: 10,
      });
      expect(created.statusCode).toBe(201);
      const body = json(created);
      expect(body).toMatchObject({
        identifier: 'erp-1_a',
        name: 'ERP',
        active: true,
        scopes: ['help-desk-ticket.create'],
        rate_limit_per_minute: 120,
        key_grace_seconds: 86400,
        default_category_id: 10,
        released_category_ids: [],
        has_key: false,
        previous_key_valid_until: null,
      });
      expect(body.created_at).toMatch(ISO_SECONDS);
      expect(body.updated_at).toMatch(ISO_SECONDS);

      const replaced = await asOperator(t, 'PUT', `${HD}/systems/erp-1_a`, {
        name: 'ERP 2',
        active: false,
        scopes: ['lead.create', 'help-desk-ticket.create'],
        rate_limit_per_minute: 5,
        key_grace_seconds: 60,
        default_category_id: null,
        released_category_ids: [11, 10],
      });
      expect(replaced.statusCode).toBe(200);
      expect(json(replaced)).toMatchObject({
        name: 'ERP 2',
        active: false,
        scopes: ['lead.create', 'help-desk-ticket.create'],
        rate_limit_per_minute: 5,
        key_grace_seconds: 60,
        default_category_id: null,
        released_category_ids: [11, 10],
      });
      expect(json(await t.admin('GET', `${HD}/systems/erp-1_a`))).toEqual(json(replaced));
      // A 40-character identifier is the longest the webhook path takes.
      const longest = 'a'.repeat(40);
      expect(
        (await asOperator(t, 'PUT', `${HD}/systems/${longest}`, { name: 'x', default_category_id: 10 }))
          .statusCode,
      ).toBe(201);
    });

    it('GET of the six collections answers arrays (numeric ids in order)', async () => {
      await seedHelpdesk(t);
      // Text ids follow the database's collation; only the set is part of the contract.
      expect((await list(t, 'companies')).map((c) => c.id).sort()).toEqual(['Brisa', 'acme', 'legado']);
      expect((await list(t, 'category-types')).map((c) => c.id)).toEqual([1, 2, 3, 4]);
      expect((await list(t, 'priorities')).map((c) => c.id)).toEqual([1, 2, 3, 4]);
      expect((await list(t, 'categories')).map((c) => c.id)).toEqual([10, 11, 20, 30, 40]);
      expect((await list(t, 'support-levels')).map((c) => c.id)).toEqual([1, 2, 3]);
      expect((await list(t, 'natures')).map((c) => c.identifier).sort()).toEqual([
        'Elogio',
        'duvida',
        'sugestao',
      ]);
      expect((await list(t, 'natures')).find((n) => n.identifier === 'sugestao')).toEqual({
        identifier: 'sugestao',
        name: 'Sugestão',
        active: false,
      });
    });
  });

  describe('bad input: 422 validation_failed naming the field, 400 for broken JSON, nothing changes', () => {
    it('an option description above 500 characters, on each of the four catalogs that have one', async () => {
      await seedCatalog(t);
      await t.admin('PUT', `${HD}/support-levels/1`, { name: 'N1', description: 'antes' });
      const long = 'a'.repeat(501);
      const cases: [string, Body][] = [
        ['category-types/1', { name: 'Incidente', description: long }],
        ['priorities/1', { name: 'Alta', level: 1, response_time_hours: 4, description: long }],
        ['categories/10', { name: 'Terminal', type_id: 1, description: long }],
        ['support-levels/1', { name: 'N1', description: long }],
        ['category-types/7', { name: 'Novo', description: '😀'.repeat(501) }],
        ['support-levels/9', { name: 'N9', description: long }],
      ];
      const before = await Promise.all(
        ['category-types', 'priorities', 'categories', 'support-levels'].map((p) => list(t, p)),
      );
      for (const [path, body] of cases)
        expectInvalid(await asOperator(t, 'PUT', `${HD}/${path}`, body), 'description');
      const after = await Promise.all(
        ['category-types', 'priorities', 'categories', 'support-levels'].map((p) => list(t, p)),
      );
      expect(after).toEqual(before);
    });

    it('a system identifier outside ^[a-z0-9_-]{1,40}$', async () => {
      await seedCatalog(t);
      for (const identifier of ['Alpha', 'a'.repeat(41), 'a.b', 'a%20b', 'caf%C3%A9', 'a%00']) {
        const body = { name: 'x', default_category_id: 10 };
        expectInvalid(await asOperator(t, 'PUT', `${HD}/systems/${identifier}`, body), 'identifier');
        expectInvalid(await asOperator(t, 'POST', `${HD}/systems/${identifier}/keys/rotate`), 'identifier');
        expectInvalid(await asOperator(t, 'GET', `${HD}/systems/${identifier}`), 'identifier');
      }
      expect(await list(t, 'systems')).toEqual([]);
    });

    it('ids in the path that are not positive integers, or a company id of another shape', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '99999999999', '2147483648']) {
        expectInvalid(await asOperator(t, 'PUT', `${HD}/category-types/${id}`, { name: 'x' }), 'id');
      }
      expectInvalid(await asOperator(t, 'PUT', `${HD}/companies/a%20b`, { name: 'x' }), 'id');
      expectInvalid(await asOperator(t, 'PUT', `${HD}/natures/${'n'.repeat(65)}`, { name: 'x' }), 'id');
      expect(await list(t, 'category-types')).toEqual([]);
      expect(await list(t, 'companies')).toEqual([]);
      // The largest id a column holds is accepted.
      expect((await asOperator(t, 'PUT', `${HD}/category-types/2147483647`, { name: 'x' })).statusCode).toBe(
        201,
      );
    });

    it('unknown fields', async () => {
      await seedCatalog(t);
      expectProblem(
        await asOperator(t, 'PUT', `${HD}/companies/acme`, { name: 'Acme', colour: 'red' }),
        422,
        'validation_failed',
      );
      const response = await asOperator(t, 'PUT', `${HD}/systems/alpha`, {
        name: 'x',
        default_category_id: 10,
        api_key: 'gtes_x',
      });
      expect(String(expectProblem(response, 422, 'validation_failed').detail)).toContain('api_key');
      expect(await list(t, 'companies')).toEqual([]);
      expect(await list(t, 'systems')).toEqual([]);
    });

    it('wrong types and missing required fields', async () => {
      await seedCatalog(t);
      const cases: [string, Body, string][] = [
        ['companies/acme', { name: 5 }, 'name'],
        ['companies/acme', {}, 'name'],
        ['companies/acme', { name: '   ' }, 'name'],
        ['companies/acme', { name: 'Acme', active: 'yes' }, 'active'],
        ['natures/duvida', { name: 'Dúvida', active: 1 }, 'active'],
        ['priorities/2', { name: 'Baixa', level: '2', response_time_hours: 4 }, 'level'],
        ['priorities/2', { name: 'Baixa', level: 2 }, 'response_time_hours'],
        ['priorities/2', { name: 'Baixa', level: 2, response_time_hours: 1.5 }, 'response_time_hours'],
        ['category-types/2', { name: 'Problema', description: 7 }, 'description'],
        ['categories/12', { name: 'Sem tipo' }, 'type_id'],
        ['categories/12', { name: 'Tipo texto', type_id: '1' }, 'type_id'],
        ['systems/alpha', { name: 'x', default_category_id: 10, scopes: ['admin'] }, 'scopes.0'],
        ['systems/alpha', { name: 'x', default_category_id: 10, scopes: 'lead.create' }, 'scopes'],
        [
          'systems/alpha',
          { name: 'x', default_category_id: 10, rate_limit_per_minute: 1.5 },
          'rate_limit_per_minute',
        ],
        [
          'systems/alpha',
          { name: 'x', default_category_id: 10, rate_limit_per_minute: 0 },
          'rate_limit_per_minute',
        ],
        ['systems/alpha', { name: 'x', default_category_id: 10, key_grace_seconds: -1 }, 'key_grace_seconds'],
        ['systems/alpha', { name: 'x', default_category_id: 10, active: null }, 'active'],
        ['systems/alpha', { name: 'x', default_category_id: '10' }, 'default_category_id'],
        [
          'systems/alpha',
          { name: 'x', default_category_id: 10, released_category_ids: [0] },
          'released_category_ids.0',
        ],
      ];
      for (const [path, body, field] of cases)
        expectInvalid(await asOperator(t, 'PUT', `${HD}/${path}`, body), field);
      // A body that is no object at all.
      expectProblem(await asOperator(t, 'PUT', `${HD}/companies/acme`, [1, 2]), 422, 'validation_failed');
      expectProblem(await asOperator(t, 'PUT', `${HD}/companies/acme`), 422, 'validation_failed');
      expect(await list(t, 'companies')).toEqual([]);
      expect(await list(t, 'natures')).toEqual([]);
      expect((await list(t, 'priorities')).map((p) => p.id)).toEqual([1]);
      expect((await list(t, 'categories')).map((c) => c.id)).toEqual([10, 11]);
      expect(await list(t, 'systems')).toEqual([]);
    });

    it('text with the NUL character is refused, on every dialect (422, never a 5xx)', async () => {
      await seedCatalog(t);
      expectInvalid(await asOperator(t, 'PUT', `${HD}/companies/acme`, { name: 'Ac\u0000me' }), 'name');
      expectInvalid(
        await asOperator(t, 'PUT', `${HD}/support-levels/1`, { name: 'N1', description: 'a\u0000' }),
        'description',
      );
      expectInvalid(
        await asOperator(t, 'PUT', `${HD}/systems/alpha`, { name: '\u0000', default_category_id: 10 }),
        'name',
      );
      expect(await list(t, 'companies')).toEqual([]);
      expect(await list(t, 'support-levels')).toEqual([]);
    });

    it('a category whose type or default priority does not exist', async () => {
      await seedCatalog(t);
      expectInvalid(
        await asOperator(t, 'PUT', `${HD}/categories/12`, { name: 'Órfã', type_id: 99 }),
        'type_id',
      );
      expectInvalid(
        await asOperator(t, 'PUT', `${HD}/categories/12`, {
          name: 'Órfã',
          type_id: 1,
          default_priority_id: 99,
        }),
        'default_priority_id',
      );
      // Replacing an existing category with a missing type leaves it as it was.
      expectInvalid(
        await asOperator(t, 'PUT', `${HD}/categories/10`, { name: 'Mudou', type_id: 98 }),
        'type_id',
      );
      expect((await list(t, 'categories')).map((c) => [c.id, c.name])).toEqual([
        [10, 'Terminal'],
        [11, 'Impressora'],
      ]);
    });

    it('a system without a default category field, or whose categories do not exist', async () => {
      await seedCatalog(t);
      expectInvalid(await asOperator(t, 'PUT', `${HD}/systems/alpha`, { name: 'x' }), 'default_category_id');
      expectInvalid(
        await asOperator(t, 'PUT', `${HD}/systems/alpha`, { name: 'x', default_category_id: 99 }),
        'default_category_id',
      );
      expectInvalid(
        await asOperator(t, 'PUT', `${HD}/systems/alpha`, {
          name: 'x',
          default_category_id: 10,
          released_category_ids: [11, 98],
        }),
        'released_category_ids',
      );
      expect(await list(t, 'systems')).toEqual([]);
      // An existing system is left as it was.
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 });
      expectInvalid(
        await asOperator(t, 'PUT', `${HD}/systems/alpha`, { name: 'y', default_category_id: 97 }),
        'default_category_id',
      );
      expect(json(await t.admin('GET', `${HD}/systems/alpha`))).toMatchObject({
        name: 'Alpha',
        default_category_id: 10,
      });
    });

    it('malformed JSON: 400 problem+json, nothing written', async () => {
      for (const payload of ['{"name":', '{name: "x"}', '{"name":"x"}}']) {
        const response = await t.app.admin.inject({
          method: 'PUT',
          url: `${HD}/companies/acme`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          payload,
        });
        expect(response.statusCode, payload).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(typeof json(response).code).toBe('string');
      }
      expect(await list(t, 'companies')).toEqual([]);
    });

    it('an empty JSON body on a PUT is no body: 422 naming the body, nothing written', async () => {
      const response = await t.adminRaw({
        method: 'PUT',
        url: `${HD}/companies/acme`,
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expectProblem(response, 422, 'validation_failed');
      expect(String(json(response).detail)).toMatch(/^body/);
      expect(await list(t, 'companies')).toEqual([]);
    });

    it('unknown systems and categories: 404 not_found', async () => {
      expectProblem(await asOperator(t, 'GET', `${HD}/systems/nobody`), 404, 'not_found');
      expectProblem(await asOperator(t, 'POST', `${HD}/systems/nobody/keys/rotate`), 404, 'not_found');
      expectProblem(await asOperator(t, 'POST', `${HD}/systems/nobody/keys/stop-previous`), 404, 'not_found');
      expectProblem(await asOperator(t, 'DELETE', `${HD}/categories/5`), 404, 'not_found');
      expectProblem(await asOperator(t, 'GET', `${HD}/nothing-here`), 404, 'not_found');
    });
  });

  describe('robustness of the writes', () => {
    it('a path that cannot be decoded: problem+json with a code, like every other error', async () => {
      for (const url of [`${HD}/companies/%ff`, `${HD}/systems/%E0%A4%A`]) {
        const response = await asOperator(t, 'PUT', url, { name: 'x' });
        expect(response.statusCode).toBeLessThan(500);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(typeof json(response).code).toBe('string');
      }
    });

    it('random bodies and ids on every PUT: never a 5xx, and a refusal changes nothing', async () => {
      await seedCatalog(t);
      const collections = [
        'companies',
        'category-types',
        'priorities',
        'categories',
        'support-levels',
        'natures',
        'systems',
      ];
      const anyValue = fc.oneof(
        fc.string({ maxLength: 10 }),
        fc.constantFrom('', ' ', 'a\u0000b', '\ud800', 'x'.repeat(501), 'help-desk-ticket.create'),
        fc.constantFrom(0, 1, 10, 11, 99, -1, 1.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53 + 2, 1e300),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.oneof(fc.integer({ min: -1, max: 12 }), fc.string({ maxLength: 3 })), { maxLength: 3 }),
        fc.jsonValue({ maxDepth: 2 }),
      );
      const field = <T>(valid: fc.Arbitrary<T>) =>
        fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: anyValue, weight: 1 });
      const name = field(fc.constantFrom('Nome', ' Nome ', 'Ñame 😀'));
      const description = field(fc.constantFrom(null, 'Descrição.', 'a'.repeat(500)));
      const active = field(fc.boolean());
      const fields: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
        companies: { name, active },
        natures: { name, active },
        'category-types': { name, description },
        'support-levels': { name, description },
        priorities: {
          name,
          description,
          level: field(fc.integer({ min: 1, max: 5 })),
          response_time_hours: field(fc.integer({ min: 0, max: 100 })),
        },
        categories: {
          name,
          description,
          type_id: field(fc.constantFrom(1, 2)),
          default_priority_id: field(fc.constantFrom(null, 1, 2)),
        },
        systems: {
          name,
          active,
          scopes: field(fc.subarray(['help-desk-ticket.create', 'lead.create'])),
          rate_limit_per_minute: field(fc.integer({ min: 1, max: 500 })),
          key_grace_seconds: field(fc.integer({ min: 0, max: 86400 })),
          default_category_id: field(fc.constantFrom(null, 10, 11)),
          released_category_ids: field(fc.subarray([10, 11])),
        },
      };
      /** The collection's own fields (each maybe absent or wrong), now and then a stranger or no object. */
      const bodyArb = (collection: string) =>
        fc.oneof(
          { arbitrary: fc.record(fields[collection]!, { requiredKeys: [] }), weight: 6 },
          {
            arbitrary: fc.record({ ...fields[collection]!, extra: anyValue }, { requiredKeys: [] }),
            weight: 1,
          },
          { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
        );
      const idArb = fc.oneof(
        fc.constantFrom('1', '2', '10', 'acme', 'alpha', 'a-b_c', '0', '-1', '2147483648', 'UP', 'a.b'),
        fc.string({ maxLength: 8 }).map(encodeURIComponent),
      );
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom(...collections)
            .chain((collection) => fc.tuple(fc.constant(collection), idArb, bodyArb(collection))),
          async ([collection, id, body]) => {
            const before = (await t.admin('GET', `${HD}/${collection}`)).body;
            const response = await asOperator(t, 'PUT', `${HD}/${collection}/${id}`, body);
            const where = `PUT ${collection}/${id} ${JSON.stringify(body)} -> ${response.statusCode} ${response.body}`;
            expect(response.statusCode, where).toBeLessThan(500);
            const after = (await t.admin('GET', `${HD}/${collection}`)).body;
            if (response.statusCode >= 400) {
              expect(response.headers['content-type'], where).toMatch(/^application\/problem\+json/);
              expect(after, where).toBe(before);
            } else {
              expect([200, 201], where).toContain(response.statusCode);
              accepted += 1;
            }
          },
        ),
        { numRuns: 120 },
      );
      // The generator also writes, not only refuses.
      expect(accepted).toBeGreaterThan(5);
    });
  });

  describe('keys (admin-api.md: rotate, stop-previous; DECISIONS: shown once, only a hash stored)', () => {
    it('rotate issues a gtes_ key of 48 characters, previous_valid_until null on the first key', async () => {
      await seedCatalog(t);
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 });
      const first = await rotate(t, 'alpha');
      expect(Object.keys(first).sort()).toEqual(['key', 'previous_valid_until']);
      expect(first.key).toMatch(/^gtes_[A-Za-z0-9_-]{43}$/);
      expect(String(first.key)).toHaveLength(48);
      expect(first.previous_valid_until).toBeNull();
      const options = await t.call({
        method: 'GET',
        url: OPTIONS_URL,
        headers: { authorization: `Bearer ${String(first.key)}` },
      });
      expect(options.statusCode).toBe(200);

      t.clock.advance(1500);
      const second = await rotate(t, 'alpha');
      expect(second.key).not.toBe(first.key);
      // The grace period of the system (86400 s by default), from the moment of the rotation.
      expect(second.previous_valid_until).toMatch(ISO_SECONDS);
      const until = Date.parse(String(second.previous_valid_until));
      expect(Math.abs(until - (t.clock.now() + 86_400_000))).toBeLessThan(1000);
      const system = json(await t.admin('GET', `${HD}/systems/alpha`));
      expect(system.has_key).toBe(true);
      expect(system.previous_key_valid_until).toBe(second.previous_valid_until);
      // Both keys open the API during the grace period.
      for (const key of [first.key, second.key]) {
        const response = await t.call({
          method: 'GET',
          url: OPTIONS_URL,
          headers: { authorization: `Bearer ${String(key)}` },
        });
        expect(response.statusCode).toBe(200);
      }
    });

    it('a bodiless POST sent with Content-Type: application/json and no body is accepted (rotate)', async () => {
      await seedCatalog(t);
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 });
      const response = await t.adminRaw({
        method: 'POST',
        url: `${HD}/systems/alpha/keys/rotate`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(json(response).key).toMatch(/^gtes_/);
    });

    it('systems never show keys or their hashes', async () => {
      await seedCatalog(t);
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 });
      const keys = [String((await rotate(t, 'alpha')).key), String((await rotate(t, 'alpha')).key)];
      const secrets = keys.flatMap((key) => [
        key,
        key.slice(5),
        createHash('sha256').update(key).digest('hex'),
        createHash('sha256').update(key).digest('base64'),
      ]);
      const pages = [
        await t.admin('GET', `${HD}/systems`),
        await t.admin('GET', `${HD}/systems/alpha`),
        await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 }),
        await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`),
      ];
      for (const page of pages) {
        for (const secret of secrets) expect(page.body).not.toContain(secret);
        expect(page.body.toLowerCase()).not.toMatch(/hash|"key"/);
      }
    });

    it('stop-previous ends the previous key at once; the current one keeps working', async () => {
      await seedCatalog(t);
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 });
      const nothing = json(await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`));
      expect(nothing.stopped).toBe(false);
      const old = String((await rotate(t, 'alpha')).key);
      const current = String((await rotate(t, 'alpha')).key);
      const stop = json(await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`));
      expect(stop.stopped).toBe(true);
      expect(stop.system).toMatchObject({
        identifier: 'alpha',
        has_key: true,
        previous_key_valid_until: null,
      });
      const call = (key: string) =>
        t.call({ method: 'GET', url: OPTIONS_URL, headers: { authorization: `Bearer ${key}` } });
      expect((await call(old)).statusCode).toBe(401);
      expect((await call(current)).statusCode).toBe(200);
      expect(json(await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`)).stopped).toBe(false);
    });
  });

  describe('tickets listing (newest first, cursor, filters, everything stored)', () => {
    it('pages newest first with next_cursor, filters by system and external_id, shows cnpj and requester', async () => {
      const keys = await seedHelpdesk(t);
      const opened: string[] = [];
      for (let i = 1; i <= 5; i += 1) {
        t.clock.advance(1000);
        const response = await postTicket(
          t,
          i === 3 ? keys.beta : keys.alpha,
          ticket({
            external_id: `ext-${i}`,
            cnpj: 'CNPJ: 12.abc.345/01de-35',
            requester: { name: ' Ana\u200b Souza ', contact: 'ana@example.com' },
          }),
        );
        expect(response.statusCode).toBe(201);
        opened.push(String(json(response).ticket));
      }
      const first = json(await t.admin('GET', `${HD}/tickets?limit=2`));
      const data = first.data as Body[];
      expect(data.map((d) => d.ticket)).toEqual([opened[4], opened[3]]);
      expect(first.next_cursor).toEqual(expect.any(String));
      const second = json(await t.admin('GET', `${HD}/tickets?limit=2&cursor=${String(first.next_cursor)}`));
      expect((second.data as Body[]).map((d) => d.ticket)).toEqual([opened[2], opened[1]]);
      const third = json(await t.admin('GET', `${HD}/tickets?limit=2&cursor=${String(second.next_cursor)}`));
      expect((third.data as Body[]).map((d) => d.ticket)).toEqual([opened[0]]);
      expect(third.next_cursor).toBeNull();

      const all = json(await t.admin('GET', `${HD}/tickets`));
      expect((all.data as Body[]).map((d) => d.ticket)).toEqual([...opened].reverse());
      expect(all.next_cursor).toBeNull();

      const beta = json(await t.admin('GET', `${HD}/tickets?system=beta`)).data as Body[];
      expect(beta.map((d) => d.external_id)).toEqual(['ext-3']);
      const byExternalId = json(await t.admin('GET', `${HD}/tickets?external_id=ext-2`)).data as Body[];
      expect(byExternalId).toHaveLength(1);
      expect(byExternalId[0]).toMatchObject({
        ticket: opened[1],
        system: 'alpha',
        external_id: 'ext-2',
        source: 'api',
        company: 'acme',
        description: 'Terminal 3 does not print.',
        category_id: 30,
        priority_id: 4,
        support_level: 1,
        nature: null,
        cnpj: '12ABC34501DE35',
        requester: { name: 'Ana Souza', contact: 'ana@example.com' },
      });
      expect(byExternalId[0]!.id).toEqual(expect.any(String));
      expect(byExternalId[0]!.created_at).toMatch(ISO_SECONDS);
      expect(json(await t.admin('GET', `${HD}/tickets?system=alpha&external_id=ext-3`)).data).toEqual([]);
    });

    it('bad query parameters: 422 naming them', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['limit=abc', 'limit'],
        ['cursor=abc', 'cursor'],
        ['system=Alpha', 'system'],
        ['colour=red', 'colour'],
      ] as const) {
        const body = expectProblem(
          await asOperator(t, 'GET', `${HD}/tickets?${query}`),
          422,
          'validation_failed',
        );
        expect(String(body.detail)).toContain(field);
      }
      // An external_id with NUL matches nothing rather than breaking the query.
      const nul = await asOperator(t, 'GET', `${HD}/tickets?external_id=a%00b`);
      expect(nul.statusCode).toBeLessThan(500);
    });

    it('DELETE a category: tickets that had it keep category_id null', async () => {
      const keys = await seedHelpdesk(t);
      expect((await postTicket(t, keys.alpha, ticket({ category: 10 }))).statusCode).toBe(201);
      expect((await asOperator(t, 'DELETE', `${HD}/categories/10`)).statusCode).toBe(204);
      const [stored] = json(await t.admin('GET', `${HD}/tickets`)).data as Body[];
      expect(stored!.category_id).toBeNull();
      expect((await list(t, 'categories')).map((c) => c.id)).not.toContain(10);
      expect(json(await t.admin('GET', `${HD}/systems/alpha`)).released_category_ids).toEqual([11, 40]);
    });
  });

  describe('maintenance switch', () => {
    it('PUT and GET; while on, the ticket API answers 503 with its Retry-After', async () => {
      const keys = await seedHelpdesk(t);
      expect(json(await t.admin('GET', `${HD}/maintenance`))).toEqual({
        enabled: false,
        retry_after_seconds: 300,
      });
      const on = await asOperator(t, 'PUT', `${HD}/maintenance`, { enabled: true });
      expect(on.statusCode).toBe(200);
      expect(json(on)).toEqual({ enabled: true, retry_after_seconds: 300 });
      expect(json(await t.admin('GET', `${HD}/maintenance`))).toEqual({
        enabled: true,
        retry_after_seconds: 300,
      });
      const refused = await postTicket(t, keys.alpha, ticket());
      expectProblem(refused, 503, 'temporarily_unavailable');
      expect(refused.headers['retry-after']).toBe('300');

      const custom = json(
        await t.admin('PUT', `${HD}/maintenance`, { enabled: true, retry_after_seconds: 42 }),
      );
      expect(custom).toEqual({ enabled: true, retry_after_seconds: 42 });
      expect((await postTicket(t, keys.alpha, ticket())).headers['retry-after']).toBe('42');

      expect(json(await t.admin('PUT', `${HD}/maintenance`, { enabled: false }))).toEqual({
        enabled: false,
        retry_after_seconds: 300,
      });
      expect((await postTicket(t, keys.alpha, ticket())).statusCode).toBe(201);
    });

    it('bad maintenance input: 422, switch unchanged', async () => {
      for (const [body, field] of [
        [{ enabled: 'yes' }, 'enabled'],
        [{}, 'enabled'],
        [{ enabled: true, retry_after_seconds: 0 }, 'retry_after_seconds'],
        [{ enabled: true, retry_after_seconds: 2.5 }, 'retry_after_seconds'],
      ] as const) {
        expectInvalid(await asOperator(t, 'PUT', `${HD}/maintenance`, body), field);
      }
      expect(json(await t.admin('GET', `${HD}/maintenance`)).enabled).toBe(false);
    });
  });

  describe('health and metrics', () => {
    it('/healthz and /readyz need no token', async () => {
      const health = await t.app.admin.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(json(health).status).toBe('ok');
      const ready = await t.app.admin.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(json(ready).status).toBe('ready');
    });

    it('/metrics needs the token and answers Prometheus text', async () => {
      expectProblem(await t.app.admin.inject({ method: 'GET', url: '/metrics' }), 401, 'unauthorized');
      await t.call({ method: 'GET', url: OPTIONS_URL });
      const metrics = await asOperator(t, 'GET', '/metrics');
      expect(metrics.statusCode).toBe(200);
      expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
      expect(metrics.body).toMatch(/^# HELP http_requests_total /m);
      expect(metrics.body).toMatch(/^# TYPE http_requests_total counter$/m);
      expect(metrics.body).toMatch(/^http_requests_total\{api="helpdesk",status="401"\} 1$/m);
    });
  });
});
