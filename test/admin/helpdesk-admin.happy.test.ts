import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { bodyOf, expectProblem } from '../expect-http.js';
import { getOptions, postTicket, seedHelpdesk, ticket } from '../helpdesk/fixtures.js';
import { asOperator, HD, ISO_SECONDS } from './fixtures.js';
import { list, rotate, seedCatalog } from './helpdesk-admin-fixtures.js';

// The help-desk half of the back office when the operator's calls succeed (docs/admin-rules.md: intro, Help
// desk): PUT semantics with defaults, keys shown once and their rotation, the ticket listing and the
// maintenance switch.

type Body = Record<string, unknown>;

describeEachDialect('admin API, help desk', (dialect) => {
  const t = useTestApp(dialect);

  describe('PUT creates (201) or replaces (200), fields not given take their default', () => {
    it('companies and natures: {name, active=true}', async () => {
      for (const path of ['companies/acme', 'natures/duvida']) {
        const created = await asOperator(t, 'PUT', `${HD}/${path}`, { name: 'Primeiro' });
        expect(created.statusCode).toBe(201);
        const key = path.startsWith('natures') ? 'identifier' : 'id';
        expect(bodyOf(created)).toEqual({ [key]: path.split('/')[1], name: 'Primeiro', active: true });
        const replaced = await asOperator(t, 'PUT', `${HD}/${path}`, { name: 'Segundo', active: false });
        expect(replaced.statusCode).toBe(200);
        expect(bodyOf(replaced)).toMatchObject({ name: 'Segundo', active: false });
        // Replace, not merge: `active` left out is back to its default.
        expect(bodyOf(await asOperator(t, 'PUT', `${HD}/${path}`, { name: 'Terceiro' }))).toMatchObject({
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
      expect(bodyOf(type)).toEqual({ id: 1, name: 'Incidente', description: null });
      const priority = await asOperator(t, 'PUT', `${HD}/priorities/2`, {
        name: 'Alta',
        level: 1,
        response_time_hours: 4,
      });
      expect(priority.statusCode).toBe(201);
      expect(bodyOf(priority)).toEqual({
        id: 2,
        name: 'Alta',
        description: null,
        level: 1,
        response_time_hours: 4,
      });
      const category = await asOperator(t, 'PUT', `${HD}/categories/10`, { name: 'Terminal', type_id: 1 });
      expect(category.statusCode).toBe(201);
      expect(bodyOf(category)).toEqual({
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
      expect(bodyOf(level)).toEqual({ id: 1, name: 'N1', description: 'Primeiro.' });

      const replaced = await asOperator(t, 'PUT', `${HD}/categories/10`, {
        name: 'Terminal parado',
        description: 'Sem comunicação.',
        type_id: 1,
        default_priority_id: 2,
      });
      expect(replaced.statusCode).toBe(200);
      expect(bodyOf(replaced)).toMatchObject({ description: 'Sem comunicação.', default_priority_id: 2 });
      const again = await asOperator(t, 'PUT', `${HD}/support-levels/1`, { name: 'N1' });
      expect(again.statusCode).toBe(200);
      expect(bodyOf(again).description).toBeNull();
    });

    it('an option description of exactly 500 characters (code points, emoji included) is accepted', async () => {
      const emoji = '😀'.repeat(500);
      const response = await asOperator(t, 'PUT', `${HD}/category-types/1`, {
        name: 'T',
        description: emoji,
      });
      expect(response.statusCode).toBe(201);
      expect(bodyOf(response).description).toBe(emoji);
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
      const body = bodyOf(created);
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
        key_last_used_at: null,
        previous_key_last_used_at: null,
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
      expect(bodyOf(replaced)).toMatchObject({
        name: 'ERP 2',
        active: false,
        scopes: ['lead.create', 'help-desk-ticket.create'],
        rate_limit_per_minute: 5,
        key_grace_seconds: 60,
        default_category_id: null,
        released_category_ids: [11, 10],
      });
      expect(bodyOf(await t.admin('GET', `${HD}/systems/erp-1_a`))).toEqual(bodyOf(replaced));
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

  describe('keys (docs/admin-rules.md: rotate, stop-previous; docs/api-conventions.md, Keys: shown once, only a hash stored)', () => {
    it('rotate issues a gtes_ key of 48 characters, previous_valid_until null on the first key', async () => {
      await seedCatalog(t);
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 });
      const first = await rotate(t, 'alpha');
      expect(Object.keys(first).sort()).toEqual(['key', 'previous_valid_until']);
      expect(first.key).toMatch(/^gtes_[A-Za-z0-9_-]{43}$/);
      expect(String(first.key)).toHaveLength(48);
      expect(first.previous_valid_until).toBeNull();
      const options = await getOptions(t, String(first.key));
      expect(options.statusCode).toBe(200);

      t.clock.advance(1500);
      const second = await rotate(t, 'alpha');
      expect(second.key).not.toBe(first.key);
      // The grace period of the system (86400 s by default), from the moment of the rotation.
      expect(second.previous_valid_until).toMatch(ISO_SECONDS);
      const until = Date.parse(String(second.previous_valid_until));
      expect(Math.abs(until - (t.clock.now() + 86_400_000))).toBeLessThan(1000);
      const system = bodyOf(await t.admin('GET', `${HD}/systems/alpha`));
      expect(system.has_key).toBe(true);
      expect(system.previous_key_valid_until).toBe(second.previous_valid_until);
      // Both keys open the API during the grace period.
      for (const key of [first.key, second.key]) {
        const response = await getOptions(t, String(key));
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
      expect(bodyOf(response).key).toMatch(/^gtes_/);
    });

    it('stop-previous ends the previous key at once; the current one keeps working', async () => {
      await seedCatalog(t);
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 });
      const nothing = bodyOf(await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`));
      expect(nothing.stopped).toBe(false);
      const old = String((await rotate(t, 'alpha')).key);
      const current = String((await rotate(t, 'alpha')).key);
      const stop = bodyOf(await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`));
      expect(stop.stopped).toBe(true);
      expect(stop.system).toMatchObject({
        identifier: 'alpha',
        has_key: true,
        previous_key_valid_until: null,
        key_last_used_at: null,
        previous_key_last_used_at: null,
      });
      expect((await getOptions(t, old)).statusCode).toBe(401);
      expect((await getOptions(t, current)).statusCode).toBe(200);
      expect(bodyOf(await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`)).stopped).toBe(false);
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
        opened.push(String(bodyOf(response).ticket));
      }
      const first = bodyOf(await t.admin('GET', `${HD}/tickets?limit=2`));
      const data = first.data as Body[];
      expect(data.map((d) => d.ticket)).toEqual([opened[4], opened[3]]);
      expect(first.next_cursor).toEqual(expect.any(String));
      const second = bodyOf(
        await t.admin('GET', `${HD}/tickets?limit=2&cursor=${String(first.next_cursor)}`),
      );
      expect((second.data as Body[]).map((d) => d.ticket)).toEqual([opened[2], opened[1]]);
      const third = bodyOf(
        await t.admin('GET', `${HD}/tickets?limit=2&cursor=${String(second.next_cursor)}`),
      );
      expect((third.data as Body[]).map((d) => d.ticket)).toEqual([opened[0]]);
      expect(third.next_cursor).toBeNull();

      const all = bodyOf(await t.admin('GET', `${HD}/tickets`));
      expect((all.data as Body[]).map((d) => d.ticket)).toEqual([...opened].reverse());
      expect(all.next_cursor).toBeNull();

      const beta = bodyOf(await t.admin('GET', `${HD}/tickets?system=beta`)).data as Body[];
      expect(beta.map((d) => d.external_id)).toEqual(['ext-3']);
      const byExternalId = bodyOf(await t.admin('GET', `${HD}/tickets?external_id=ext-2`)).data as Body[];
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
      expect(bodyOf(await t.admin('GET', `${HD}/tickets?system=alpha&external_id=ext-3`)).data).toEqual([]);
    });

    it('DELETE a category: tickets that had it keep category_id null', async () => {
      const keys = await seedHelpdesk(t);
      expect((await postTicket(t, keys.alpha, ticket({ category: 10 }))).statusCode).toBe(201);
      expect((await asOperator(t, 'DELETE', `${HD}/categories/10`)).statusCode).toBe(204);
      const [stored] = bodyOf(await t.admin('GET', `${HD}/tickets`)).data as Body[];
      expect(stored!.category_id).toBeNull();
      expect((await list(t, 'categories')).map((c) => c.id)).not.toContain(10);
      expect(bodyOf(await t.admin('GET', `${HD}/systems/alpha`)).released_category_ids).toEqual([11, 40]);
    });
  });

  describe('maintenance switch', () => {
    it('PUT and GET; while on, the ticket API answers 503 with its Retry-After', async () => {
      const keys = await seedHelpdesk(t);
      expect(bodyOf(await t.admin('GET', `${HD}/maintenance`))).toEqual({
        enabled: false,
        retry_after_seconds: 300,
      });
      const on = await asOperator(t, 'PUT', `${HD}/maintenance`, { enabled: true });
      expect(on.statusCode).toBe(200);
      expect(bodyOf(on)).toEqual({ enabled: true, retry_after_seconds: 300 });
      expect(bodyOf(await t.admin('GET', `${HD}/maintenance`))).toEqual({
        enabled: true,
        retry_after_seconds: 300,
      });
      const refused = await postTicket(t, keys.alpha, ticket());
      expectProblem(refused, 503, 'temporarily_unavailable');
      expect(refused.headers['retry-after']).toBe('300');

      const custom = bodyOf(
        await t.admin('PUT', `${HD}/maintenance`, { enabled: true, retry_after_seconds: 42 }),
      );
      expect(custom).toEqual({ enabled: true, retry_after_seconds: 42 });
      expect((await postTicket(t, keys.alpha, ticket())).headers['retry-after']).toBe('42');

      expect(bodyOf(await t.admin('PUT', `${HD}/maintenance`, { enabled: false }))).toEqual({
        enabled: false,
        retry_after_seconds: 300,
      });
      expect((await postTicket(t, keys.alpha, ticket())).statusCode).toBe(201);
    });
  });
});
