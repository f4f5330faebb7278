import { beforeEach, expect, it } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { systemOutcomeValue } from '../../src/helpdesk/system-refusal.js';
import { seedHelpdeskDemo } from '../../src/helpdesk/demo.js';
import { hashApiKey } from '../../src/lib/api-key.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { csrfIn, signedInStaff, type ConsoleAgent, type FormFields } from './console-agent.js';

// The partner systems' pages of the console (issue 14) at the request level: support reads systems,
// keys' states and history, refusals and tickets, and stops a previous key (recorded with the staff user
// in the key audit trail and the back-office log); everything else about systems is the operator's, and a
// support user's page or forged post of it is refused with nothing changed; the forms are checked by the
// admin API's schemas and name the field they refuse.

const OPTIONS_URL = '/v1/api-external-system/help-desk-ticket-options';
const TICKET_URL = '/v1/api-external-system/help-desk-ticket';

describeEachDialect('console: partner systems', (dialect) => {
  const t = useTestApp(dialect);
  let demoKey: string;

  beforeEach(async () => {
    demoKey = await seedHelpdeskDemo(t.services);
  });

  async function staff(role: 'operator' | 'support'): Promise<ConsoleAgent> {
    return (await signedInStaff(t, role)).agent;
  }

  const options = (key: string) =>
    t.call({ method: 'GET', url: OPTIONS_URL, headers: { authorization: `Bearer ${key}` } });

  /** Everything a change of a system could touch: its row, its key trail, the back-office log. */
  async function snapshot() {
    return {
      systems: await t.services.systems.list(),
      trail: (await t.services.keyAudit.all({ limit: 200 })).events.length,
      log: (await t.services.backOfficeLog.list()).actions.length,
    };
  }

  /** The changes made in the console, newest first (not the staff users' creation, nor sign-ins). */
  const consoleActions = async () =>
    (await t.services.backOfficeLog.list()).actions.filter(
      (a) => a.actor.channel === 'console' && !a.action.startsWith('console.'),
    );

  /** A valid create form (fields as the page sends them). */
  const createFields = (identifier: string): FormFields => ({
    identifier,
    name: 'Parceiro Novo',
    active: 'true',
    scopes: ['help-desk-ticket.create'],
    rate_limit_per_minute: '60',
    key_grace_seconds: '3600',
    default_category_id: '30',
    released_category_ids: ['10', '11'],
  });

  it('support reads the list, the system, its refusals and tickets: no key, no hash, no operator action', async () => {
    const support = await staff('support');
    const list = await support.get('/console/systems?q=DEMO');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('data-system="demo"');
    expect(list.body).not.toContain('/console/systems/new');
    expect((await support.get('/console/systems?q=nothing-like-it')).body).not.toContain('data-system=');

    const page = await support.get('/console/systems/demo');
    expect(page.statusCode).toBe(200);
    for (const secret of [demoKey, hashApiKey(demoKey)]) expect(page.body).not.toContain(secret);
    expect(page.body).toContain('Terminal sem comunicação (10)');
    expect(page.body).toContain('<tr data-event="issued">');
    expect(page.body).toContain('/console/systems/demo/refusals');
    expect(page.body).toContain('/console/systems/demo/tickets');
    for (const operatorOnly of ['/edit"', '/rotate"', '/deactivate"'])
      expect(page.body).not.toContain(`/console/systems/demo${operatorOnly}`);
    // No previous key yet: nothing to stop, so no button.
    expect(page.body).not.toContain('/console/systems/demo/stop-previous');

    const refusals = await support.get('/console/systems/demo/refusals');
    expect(refusals.statusCode).toBe(200);
    expect(refusals.body).toContain('Nenhuma recusa registrada');
    const tickets = await support.get('/console/systems/demo/tickets');
    expect(tickets.statusCode).toBe(200);
    expect(tickets.body).toContain('ainda não abriu nenhum chamado');
    expect((await support.get('/console/systems/nobody')).statusCode).toBe(404);
    expect((await support.get('/console/systems/Not%20An%20Id')).statusCode).toBe(404);
  });

  it('support gets 403 on the operator’s pages and on forged posts with a valid CSRF token; nothing changes', async () => {
    const support = await staff('support');
    for (const path of ['/new', '/demo/edit', '/demo/rotate', '/demo/deactivate', '/demo/reactivate']) {
      const page = await support.get(`/console/systems${path}`);
      expect(page.statusCode, path).toBe(403);
      expect(page.body).not.toContain('name="rate_limit_per_minute"');
    }
    const before = await snapshot();
    const token = await support.csrfOf('/console/systems/demo');
    const forged: [string, FormFields][] = [
      ['/console/systems/new', createFields('forged')],
      ['/console/systems/demo/edit', { ...createFields('demo'), rate_limit_per_minute: '1' }],
      ['/console/systems/demo/rotate', {}],
      ['/console/systems/demo/deactivate', {}],
      ['/console/systems/demo/reactivate', {}],
    ];
    for (const [path, fields] of forged) {
      const answer = await support.postWithToken(path, fields, token);
      expect(answer.statusCode, path).toBe(403);
      expect(answer.body).not.toMatch(/gtes_[A-Za-z0-9_-]{43}/);
    }
    expect(await snapshot()).toEqual(before);
    expect((await options(demoKey)).statusCode).toBe(200);
    // The same post with a token of no page is the CSRF check's refusal, before the gate.
    expect((await support.postWithToken('/console/systems/demo/rotate', {}, 'forged')).statusCode).toBe(403);
  });

  it('the create form refuses what the admin API refuses, naming the field; nothing is created', async () => {
    const operator = await staff('operator');
    const before = await snapshot();
    const cases: [FormFields, string][] = [
      [{ ...createFields('novo'), rate_limit_per_minute: '0' }, 'rate_limit_per_minute'],
      [{ ...createFields('novo'), rate_limit_per_minute: 'muitas' }, 'rate_limit_per_minute'],
      [{ ...createFields('novo'), key_grace_seconds: '31536001' }, 'key_grace_seconds'],
      [{ ...createFields('Novo Sistema') }, 'identifier'],
      [{ ...createFields('novo'), name: 'x'.repeat(201) }, 'name'],
      [{ ...createFields('novo'), name: '   ' }, 'name'],
      [{ ...createFields('novo'), scopes: ['help-desk-ticket.delete'] }, 'scopes'],
      // A category the catalog does not have: the service's 422, on the field.
      [{ ...createFields('novo'), default_category_id: '999' }, 'default_category_id'],
    ];
    for (const [fields, field] of cases) {
      const answer = await operator.post('/console/systems/new', fields);
      expect(answer.statusCode, field).toBe(422);
      expect(answer.body, field).toContain(`id="error-${field}"`);
      expect(answer.body, field).toContain(`<a href="#field-${field}">`);
      expect(answer.body, field).toContain(`aria-invalid="true"`);
    }
    const zero = await operator.post('/console/systems/new', {
      ...createFields('novo'),
      rate_limit_per_minute: '0',
    });
    expect(zero.body).toContain('Limite de chamadas por minuto: Pequeno demais: o mínimo é 1.');
    // Each refusal says what is wrong, in the page's language.
    for (const [fields, text] of [
      [{ rate_limit_per_minute: 'muitas' }, 'Digite um número inteiro, só com algarismos.'],
      [{ key_grace_seconds: '31536001' }, 'Grande demais: o máximo é 31.536.000.'],
      [{ name: 'x'.repeat(201) }, 'Longo demais: no máximo 200 caracteres.'],
      [{ identifier: 'Novo Sistema' }, 'Use só letras minúsculas, dígitos, - e _, até 40 caracteres.'],
    ] as const) {
      const answer = await operator.post('/console/systems/new', { ...createFields('novo'), ...fields });
      expect(answer.body).toContain(text);
    }
    // What was typed comes back as typed.
    expect(zero.body).toContain('value="Parceiro Novo"');
    // An identifier in use is refused instead of replacing that system's settings.
    const taken = await operator.post('/console/systems/new', createFields('demo'));
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('id="error-identifier"');
    expect(await snapshot()).toEqual(before);
  });

  it('the operator creates a system: its first key is shown once, opens a ticket, and is never logged', async () => {
    const operator = await staff('operator');
    const created = await operator.post('/console/systems/new', createFields('parceiro-novo'));
    expect(created.statusCode).toBe(201);
    const key = /gtes_[A-Za-z0-9_-]{43}/.exec(created.body)?.[0] ?? '';
    expect(key).not.toBe('');
    const ticket = await t.call({
      method: 'POST',
      url: TICKET_URL,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { external_id: 'console-1', company: 'acme', description: 'Terminal 3 não imprime.' },
    });
    expect(ticket.statusCode).toBe(201);

    const system = await t.services.systems.get('parceiro-novo');
    expect(system).toMatchObject({
      name: 'Parceiro Novo',
      active: true,
      rateLimitPerMinute: 60,
      keyGraceSeconds: 3600,
      defaultCategoryId: 30,
      releasedCategoryIds: [10, 11],
      hasKey: true,
    });
    // Shown once: the system's pages never show it again.
    for (const path of ['', '/edit', '/rotate', '/tickets']) {
      const page = await operator.get(`/console/systems/parceiro-novo${path}`);
      expect(page.statusCode, path).toBe(200);
      expect(page.body).not.toContain(key);
    }
    const tickets = await operator.get('/console/systems/parceiro-novo/tickets');
    expect(tickets.body).toContain('console-1');
    expect(tickets.body).toContain('Terminal 3 não imprime.');

    const actions = await consoleActions();
    // One action, one row: the first key is part of the creation (docs/back-office.md, Back-office console).
    expect(actions.map((a) => [a.action, a.target])).toEqual([
      ['putHelpDeskSystem', 'helpdesk/systems/parceiro-novo'],
    ]);
    expect(actions[0]?.details).toMatchObject({ created: true, first_key: true });
    for (const action of actions) {
      expect(action.actor).toMatchObject({
        role: 'staff',
        channel: 'console',
        displayName: 'Olga Operadora',
      });
    }
    expect(JSON.stringify(actions)).not.toContain(key);
    const [issued] = (await t.services.keyAudit.ofSystem('parceiro-novo', { limit: 10 })).events;
    expect(issued).toMatchObject({
      event: 'issued',
      actor: { role: 'staff', channel: 'console', displayName: 'Olga Operadora' },
    });
  });

  it('support stops the previous key: 401 at once, in the key audit trail and the back-office log with the user', async () => {
    const rotated = systemOutcomeValue(await t.services.systems.rotateKey('demo', SERVICE_ACTOR));
    expect((await options(demoKey)).statusCode).toBe(200);
    const support = await staff('support');
    const page = await support.get('/console/systems/demo');
    expect(page.body).toContain('/console/systems/demo/stop-previous');
    const confirm = await support.get('/console/systems/demo/stop-previous');
    expect(confirm.statusCode).toBe(200);
    const stopped = await support.postWithToken(
      '/console/systems/demo/stop-previous',
      {},
      csrfIn(confirm.body),
    );
    expect(stopped.statusCode).toBe(303);
    expect(stopped.headers.location).toBe('/console/systems/demo');

    expect((await options(demoKey)).statusCode).toBe(401);
    expect((await options(rotated.key)).statusCode).toBe(200);

    const [event] = (await t.services.keyAudit.ofSystem('demo', { limit: 1 })).events;
    expect(event).toMatchObject({
      event: 'previous_stopped',
      actor: { role: 'staff', channel: 'console', displayName: 'Sérgio Suporte' },
      details: { was_in_grace: true },
    });
    const [logged] = await consoleActions();
    expect(logged).toMatchObject({
      action: 'stopPreviousHelpDeskSystemKey',
      target: 'helpdesk/systems/demo/keys/stop-previous',
      actor: { role: 'staff', channel: 'console', displayName: 'Sérgio Suporte' },
      details: { stopped: true },
    });
    // The page says it once, then shows the history with the user's name and no stop button.
    const after = await support.get('/console/systems/demo');
    expect(after.body).toContain('foi encerrada');
    expect(after.body).toMatch(/<tr data-event="previous_stopped">[\s\S]*?Sérgio Suporte[\s\S]*?Console/);
    expect(after.body).not.toContain('/console/systems/demo/stop-previous');
    // A second post (another tab) stops nothing and says so.
    const again = await support.postWithToken(
      '/console/systems/demo/stop-previous',
      {},
      csrfIn(confirm.body),
    );
    expect(again.statusCode).toBe(303);
    expect((await support.get('/console/systems/demo')).body).toContain('nada a encerrar');
  });

  it('settings change only settings; deactivation keeps the rest; rotation shows the new key once', async () => {
    const operator = await staff('operator');
    const edit = await operator.get('/console/systems/demo/edit');
    expect(edit.body).toContain('value="120"');
    const saved = await operator.post('/console/systems/demo/edit', {
      ...createFields('ignored'),
      name: 'Demo renomeado',
      default_category_id: '30',
      released_category_ids: ['10'],
    });
    expect(saved.statusCode).toBe(303);
    const edited = await t.services.systems.get('demo');
    expect(edited).toMatchObject({
      name: 'Demo renomeado',
      rateLimitPerMinute: 60,
      releasedCategoryIds: [10],
      previousValidUntil: null,
      hasKey: true,
    });
    expect((await options(demoKey)).statusCode).toBe(200);
    const trail = (await t.services.keyAudit.ofSystem('demo', { limit: 10 })).events.map((e) => e.event);
    expect(trail).toEqual(['edited', 'issued']);

    const refused = await operator.post('/console/systems/demo/edit', {
      ...createFields('demo'),
      key_grace_seconds: '-1',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('id="error-key_grace_seconds"');
    expect(await t.services.systems.get('demo')).toEqual(edited);

    const off = await operator.post(
      '/console/systems/demo/deactivate',
      {},
      '/console/systems/demo/deactivate',
    );
    expect(off.statusCode).toBe(303);
    const inactive = await t.services.systems.get('demo');
    expect(inactive).toEqual({ ...edited, active: false, updatedAt: inactive.updatedAt });
    expect(JSON.parse((await options(demoKey)).body)).toMatchObject({ code: 'system_inactive' });
    await operator.post('/console/systems/demo/reactivate', {}, '/console/systems/demo/reactivate');
    expect((await t.services.systems.get('demo')).active).toBe(true);

    const confirm = await operator.get('/console/systems/demo/rotate');
    // The grace set above (3600 s), in words.
    expect(confirm.body).toContain('por 1 hora,');
    const rotated = await operator.postWithToken('/console/systems/demo/rotate', {}, csrfIn(confirm.body));
    expect(rotated.statusCode).toBe(201);
    const key = /gtes_[A-Za-z0-9_-]{43}/.exec(rotated.body)?.[0] ?? '';
    expect((await options(key)).statusCode).toBe(200);
    // The key in use before keeps working for the grace.
    expect((await options(demoKey)).statusCode).toBe(200);
    expect((await operator.get('/console/systems/demo')).body).not.toContain(key);
    expect((await consoleActions()).map((a) => a.action)).toEqual([
      'rotateHelpDeskSystemKey',
      'putHelpDeskSystem',
      'putHelpDeskSystem',
      'putHelpDeskSystem',
    ]);
  });
  it('a system’s tickets: newest first, 50 a page with a link to the next, and a search by external id', async () => {
    const support = await staff('support');
    for (let n = 1; n <= 51; n += 1) {
      const opened = await t.call({
        method: 'POST',
        url: TICKET_URL,
        headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' },
        payload: {
          external_id: `pos-${n}`,
          company: 'acme',
          description: `Chamado ${n}: ${'x'.repeat(n * 4)}`,
        },
      });
      expect(opened.statusCode).toBe(201);
    }
    const first = await support.get('/console/systems/demo/tickets');
    const rows = (body: string) => [...body.matchAll(/<tr data-ticket="(I-\d+)">/g)].map((m) => m[1]);
    expect(rows(first.body)).toHaveLength(50);
    expect(rows(first.body)[0]).toBe('I-000051');
    // A long description is cut in the row, the whole text a click away.
    expect(first.body).toMatch(/<summary>Chamado 51: x+…<\/summary>/);
    const next = /href="([^"]+)" rel="next"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(next).toMatch(/^\/console\/systems\/demo\/tickets\?cursor=\d+$/);
    const second = await support.get(next);
    expect(rows(second.body)).toEqual(['I-000001']);
    expect(second.body).not.toContain('rel="next"');
    const found = await support.get('/console/systems/demo/tickets?external_id=pos-7');
    expect(rows(found.body)).toEqual(['I-000007']);
    const wrong = await support.get('/console/systems/demo/tickets?cursor=abc');
    expect(wrong.statusCode).toBe(200);
    expect(rows(wrong.body)).toHaveLength(50);
    expect(wrong.body).toContain('role="alert"');
  });
});
