import { beforeEach, expect, it } from 'vitest';
import { CATALOG_COLLECTIONS } from '../../src/helpdesk/catalog-collections.js';
import { seedHelpdeskDemo } from '../../src/helpdesk/demo.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { signedInStaff, type ConsoleAgent, type FormFields } from './console-agent.js';

// The console's help-desk catalog and maintenance switch at the request level (issue 14): operator
// only (support gets 403 on every page and on forged posts, and nothing changes), the document's limits
// checked by the admin API's schemas with the field named, nothing stored on a refusal, and every
// change in the back-office log under the admin API's operation id with the staff user.

describeEachDialect('console: the help-desk catalog and the maintenance switch', (dialect) => {
  const t = useTestApp(dialect);
  beforeEach(async () => {
    await seedHelpdeskDemo(t.services);
  });

  async function staff(role: 'operator' | 'support'): Promise<ConsoleAgent & { id: string }> {
    const { user, agent } = await signedInStaff(t, role, { name: `The ${role}` });
    // The tests read English texts; the language is a cookie, as the switch sets it.
    await agent.post('/console/language', { lang: 'en', back: '/console/find' }, '/console/find');
    return Object.assign(agent, { id: user.id });
  }

  /** Everything the pages could change: the six tables, the switch, the back-office log. */
  async function state() {
    return {
      tables: await Promise.all(CATALOG_COLLECTIONS.map((c) => t.services.catalog.listEntries(c.table))),
      maintenance: { ...(await t.services.maintenance.get()) },
      actions: (await t.services.backOfficeLog.list({ limit: 200 })).actions.length,
    };
  }

  const long = (n: number) => 'é'.repeat(n);

  /** The message shown next to a field, and the summary's line for it. */
  function fieldError(page: string, field: string): { near: string; summary: string } {
    const near = new RegExp(`<p class="field-error" id="error-${field}">([^<]*)</p>`).exec(page)?.[1];
    const summary = new RegExp(`<a href="#field-${field}">([^<]*)</a>`).exec(page)?.[1];
    return { near: near ?? '(none)', summary: summary ?? '(none)' };
  }

  it('support gets 403 on every catalog and maintenance page and on forged posts with a valid CSRF token; nothing changes (issue 14, Support)', async () => {
    const support = await staff('support');
    const find = await support.get('/console/find');
    expect(find.statusCode).toBe(200);
    expect(find.body).not.toContain('href="/console/catalog"');
    expect(find.body).not.toContain('href="/console/maintenance"');

    const pages = ['/console/catalog', '/console/maintenance', '/console/catalog/categories/10/delete'];
    for (const c of CATALOG_COLLECTIONS) {
      const [first] = await t.services.catalog.listEntries(c.table);
      const id = String(first?.[c.key]);
      pages.push(`/console/catalog/${c.path}`, `/console/catalog/${c.path}/new`);
      pages.push(`/console/catalog/${c.path}/${id}/edit`);
    }
    for (const page of pages) {
      const answer = await support.get(page);
      expect(answer.statusCode, page).toBe(403);
      expect(answer.body, page).not.toContain('<form method="post" action="/console/catalog');
    }

    const before = await state();
    // A token from a page support may open: the CSRF check passes, the gate refuses.
    const token = await support.csrfOf('/console/find');
    const forged: [string, FormFields][] = [
      ['/console/maintenance', { enabled: 'true', retry_after_seconds: '60', confirm: 'yes' }],
      ['/console/catalog/categories/10/delete', {}],
      ['/console/catalog/companies/new', { id: 'forged', name: 'Forged', active: 'true' }],
      ['/console/catalog/companies/acme/edit', { name: 'Forged', active: 'true' }],
      ['/console/catalog/category-types/new', { id: '9', name: 'Forged', description: '' }],
      ['/console/catalog/category-types/1/edit', { name: 'Forged', description: '' }],
      ['/console/catalog/priorities/2/edit', { name: 'Forged', level: '1', response_time_hours: '1' }],
      ['/console/catalog/categories/10/edit', { name: 'Forged', type_id: '1', default_priority_id: '' }],
      ['/console/catalog/support-levels/1/edit', { name: 'Forged', description: '' }],
      ['/console/catalog/natures/duvida/edit', { name: 'Forged' }],
    ];
    for (const [path, fields] of forged) {
      const answer = await support.postWithToken(path, fields, token);
      expect(answer.statusCode, path).toBe(403);
    }
    expect(await state()).toEqual(before);
  });

  it('the forms check the document’s limits with the admin API’s schemas, name the field, and store nothing (docs/admin-rules.md, intro)', async () => {
    const operator = await staff('operator');
    const before = await state();
    const refused = async (path: string, fields: FormFields, status = 422) => {
      const answer = await operator.post(path, fields);
      expect(answer.statusCode, path).toBe(status);
      expect(answer.body).toContain('id="error-summary"');
      return answer.body;
    };

    let page = await refused('/console/catalog/companies/new', {
      id: 'not an id',
      name: long(201),
      active: 'true',
    });
    expect(fieldError(page, 'id')).toEqual({
      near: 'must be 1 to 64 letters, digits, &quot;.&quot;, &quot;_&quot; or &quot;-&quot;',
      summary: 'Id: must be 1 to 64 letters, digits, &quot;.&quot;, &quot;_&quot; or &quot;-&quot;',
    });
    expect(fieldError(page, 'name').summary).toBe('Name: must be at most 200 characters');
    // What was typed comes back, to be corrected rather than typed again.
    expect(page).toContain(`value="${long(201)}"`);

    page = await refused('/console/catalog/category-types/new', {
      id: '0',
      name: 'Tipo',
      description: long(501),
    });
    expect(fieldError(page, 'id').summary).toBe('Id: must be a positive integer');
    expect(fieldError(page, 'description')).toEqual({
      near: 'must be at most 500 characters',
      summary: 'Description: must be at most 500 characters',
    });
    expect(page).toMatch(/<textarea id="field-description"[^>]*aria-invalid="true"/);

    page = await refused('/console/catalog/priorities/new', {
      id: '2147483648',
      name: '   ',
      description: '',
      level: '0',
      response_time_hours: 'soon',
    });
    expect(fieldError(page, 'id').summary).toBe('Id: must be at most 2147483647');
    expect(fieldError(page, 'name').summary).toBe('Name: must not be empty');
    expect(fieldError(page, 'level').summary).toBe('Level: must be at least 1');
    expect(fieldError(page, 'response_time_hours').summary).toBe(
      'Response time (hours): must be a whole number',
    );

    page = await refused('/console/catalog/categories/new', {
      id: '60',
      name: 'Categoria',
      description: long(501),
      type_id: '',
      default_priority_id: '',
    });
    expect(fieldError(page, 'description').summary).toBe('Description: must be at most 500 characters');
    expect(fieldError(page, 'type_id').summary).toBe('Category type: is required');
    // The service's own refusal (a type that is not there) names its field too.
    page = await refused('/console/catalog/categories/new', {
      id: '60',
      name: 'Categoria',
      description: '',
      type_id: '99',
      default_priority_id: '',
    });
    expect(fieldError(page, 'type_id').summary).toBe('Category type: there is no category type 99');

    page = await refused('/console/catalog/support-levels/new', {
      id: '4',
      name: long(201),
      description: long(501),
    });
    expect(fieldError(page, 'name').near).toBe('must be at most 200 characters');
    expect(fieldError(page, 'description').near).toBe('must be at most 500 characters');

    page = await refused('/console/catalog/natures/new', { id: 'a/b', name: '' });
    expect(fieldError(page, 'id').near).toContain('must be 1 to 64 letters');
    expect(fieldError(page, 'name').near).toBe('must not be empty');

    // An edit is held to the same schema: the category keeps what it had.
    page = await refused('/console/catalog/categories/10/edit', {
      name: 'Terminal sem comunicação',
      description: long(501),
      type_id: '1',
      default_priority_id: '2',
    });
    expect(fieldError(page, 'description').summary).toBe('Description: must be at most 500 characters');

    // The form of a new entry does not replace one that exists (PUT would).
    page = await refused(
      '/console/catalog/companies/new',
      { id: 'acme', name: 'Another Acme', active: 'true' },
      409,
    );
    expect(fieldError(page, 'id').near).toBe('is taken: acme exists already (change it from the list)');

    expect(await state()).toEqual(before);

    // The limit is exact: 500 characters (code points) are a description.
    const saved = await operator.post('/console/catalog/categories/new', {
      id: '60',
      name: 'Categoria',
      description: long(500),
      type_id: '1',
      default_priority_id: '',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/console/catalog/categories');
    const categories = await t.services.catalog.listEntries('hd_categories');
    expect(categories.find((c) => c.id === 60)).toEqual({
      id: 60,
      name: 'Categoria',
      description: long(500),
      type_id: 1,
      default_priority_id: null,
    });
  });

  it('unknown collections and entries are 404, as are ids the PUT path refuses', async () => {
    const operator = await staff('operator');
    for (const path of [
      '/console/catalog/systems',
      '/console/catalog/systems/new',
      '/console/catalog/categories/999/edit',
      '/console/catalog/categories/abc/edit',
      '/console/catalog/companies/nobody/edit',
      '/console/catalog/categories/999/delete',
      '/console/catalog/categories/0/delete',
    ]) {
      expect((await operator.get(path)).statusCode, path).toBe(404);
    }
    const before = await state();
    const token = await operator.csrfOf('/console/catalog');
    const edit = await operator.postWithToken(
      '/console/catalog/categories/999/edit',
      { name: 'X', type_id: '1' },
      token,
    );
    expect(edit.statusCode).toBe(404);
    expect(
      (await operator.postWithToken('/console/catalog/categories/999/delete', {}, token)).statusCode,
    ).toBe(404);
    expect(await state()).toEqual(before);
  });

  it('every change is in the back-office log under the admin API’s operation id, with the staff user (issue 14)', async () => {
    const operator = await staff('operator');
    const actor = { role: 'staff', userId: operator.id, displayName: 'The operator', channel: 'console' };

    expect(
      (
        await operator.post(
          '/console/catalog/natures/new',
          { id: 'pedido', name: '  Pedido  ' },
          '/console/catalog/natures/new',
        )
      ).statusCode,
    ).toBe(303);
    // The checkbox left unticked is an inactive nature; the name is trimmed by the schema.
    const natures = await t.services.catalog.listEntries('hd_natures');
    expect(natures.find((n) => n.identifier === 'pedido')).toEqual({
      identifier: 'pedido',
      name: 'Pedido',
      active: false,
    });
    const listed = await operator.get('/console/catalog/natures');
    expect(listed.body).toContain('Nature pedido saved.');
    expect(listed.body).toMatch(/<tr data-id="pedido">[\s\S]*?Pedido[\s\S]*?Inactive/);

    expect(
      (
        await operator.post('/console/catalog/priorities/2/edit', {
          name: 'Alta',
          description: 'Line one\r\nline two',
          level: '2',
          response_time_hours: '6',
        })
      ).statusCode,
    ).toBe(303);
    const priorities = await t.services.catalog.listEntries('hd_priorities');
    expect(priorities.find((p) => p.id === 2)).toMatchObject({
      description: 'Line one\nline two',
      response_time_hours: 6,
    });

    const confirm = await operator.get('/console/catalog/categories/10/delete');
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('category_id becomes null');
    expect(confirm.body).toContain('Partner systems it is released to stop offering it: demo.');
    expect((await operator.post('/console/catalog/categories/10/delete', {})).statusCode).toBe(303);
    expect((await t.services.catalog.listEntries('hd_categories')).map((c) => c.id)).not.toContain(10);
    expect((await t.services.systems.get('demo')).releasedCategoryIds).toEqual([11, 20, 31, 40]);

    // The user's session events (`console.signIn`…) are in the log too; these are the changes.
    const actions = (await t.services.backOfficeLog.list({ userId: operator.id })).actions.filter(
      (a) => !a.action.startsWith('console.'),
    );
    expect(actions.map((a) => [a.action, a.target])).toEqual([
      ['deleteHelpDeskCategory', 'helpdesk/categories/10'],
      ['putHelpDeskPriority', 'helpdesk/priorities/2'],
      ['putHelpDeskNature', 'helpdesk/natures/pedido'],
    ]);
    for (const action of actions) expect(action.actor).toMatchObject(actor);
    expect(actions[0]?.details).toEqual({
      name: 'Terminal sem comunicação',
      default_of: [],
      released_to: ['demo'],
    });
    expect(actions[1]?.details).toEqual({
      created: false,
      body: { name: 'Alta', description: 'Line one\nline two', level: 2, response_time_hours: 6 },
    });
    expect(actions[2]?.details).toEqual({ created: true, body: { name: 'Pedido', active: false } });
  });

  it('maintenance: switching on asks first, then sets the switch and its Retry-After; off again; each recorded (docs/admin-rules.md, maintenance)', async () => {
    const operator = await staff('operator');
    const page = await operator.get('/console/maintenance');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-maintenance="off"');
    expect(page.body).toContain('503 temporarily_unavailable');

    // Out of the schema's range: refused with the field named, the switch untouched.
    const invalid = await operator.post('/console/maintenance', {
      enabled: 'true',
      retry_after_seconds: '86401',
    });
    expect(invalid.statusCode).toBe(422);
    expect(fieldError(invalid.body, 'retry_after_seconds').summary).toBe(
      'Retry-After (seconds): must be at most 86400',
    );
    const word = await operator.post('/console/maintenance', {
      enabled: 'true',
      retry_after_seconds: 'soon',
    });
    expect(fieldError(word.body, 'retry_after_seconds').near).toBe('must be a whole number');
    // Empty is the API's default, 300 seconds, to be confirmed as any other.
    const blank = await operator.post('/console/maintenance', { enabled: 'true', retry_after_seconds: '' });
    expect(blank.statusCode).toBe(200);
    expect(blank.body).toContain('Retry-After: 300');
    expect((await t.services.maintenance.get()).enabled).toBe(false);

    // The first post is a confirmation page saying what partners get; nothing is switched yet.
    const asked = await operator.post('/console/maintenance', {
      enabled: 'true',
      retry_after_seconds: '120',
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('503 temporarily_unavailable with Retry-After: 120');
    expect(asked.body).toContain('name="confirm" value="yes"');
    expect((await t.services.maintenance.get()).enabled).toBe(false);

    const on = await operator.post(
      '/console/maintenance',
      { enabled: 'true', retry_after_seconds: '120', confirm: 'yes' },
      '/console/maintenance',
    );
    expect(on.statusCode).toBe(303);
    expect(await t.services.maintenance.get()).toEqual({ enabled: true, retryAfterSeconds: 120 });
    const shown = await operator.get('/console/maintenance');
    expect(shown.body).toContain('Maintenance is on: the ticket API answers 503 with Retry-After 120 s.');
    expect(shown.body).toContain('data-maintenance="on"');

    // While on, a new wait needs no confirmation.
    await operator.post('/console/maintenance', { enabled: 'true', retry_after_seconds: '600' });
    expect(await t.services.maintenance.get()).toEqual({ enabled: true, retryAfterSeconds: 600 });

    const off = await operator.post('/console/maintenance', { enabled: 'false' });
    expect(off.statusCode).toBe(303);
    expect(await t.services.maintenance.get()).toEqual({ enabled: false, retryAfterSeconds: 600 });

    const { actions } = await t.services.backOfficeLog.list({ action: 'putHelpDeskMaintenance' });
    expect(actions.map((a) => a.details.body)).toEqual([
      { enabled: false, retry_after_seconds: 600 },
      { enabled: true, retry_after_seconds: 600 },
      { enabled: true, retry_after_seconds: 120 },
    ]);
    for (const action of actions) {
      expect(action.target).toBe('helpdesk/maintenance');
      expect(action.actor).toMatchObject({ role: 'staff', userId: operator.id, channel: 'console' });
    }
  });
});
