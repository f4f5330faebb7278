import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AdminClient, TestApp } from '../helper.js';

// The catalog every ticket-API suite starts from, written through the admin API as the operator would.

export const TICKET_URL = '/v1/api-external-system/help-desk-ticket';
export const OPTIONS_URL = '/v1/api-external-system/help-desk-ticket-options';
export const LEAD_URL = '/v1/api-external-system/lead';
export const webhookUrl = (system: string) => `/v1/api-external-system/webhook/${system}`;

/** Ids of the fixture catalog. */
export const CATALOG = {
  companies: { active: 'acme', other: 'Brisa', inactive: 'legado' },
  /** Default category of `alpha`: type Solicitação de Serviço, default priority 4. */
  defaultCategory: 30,
  /** Released to `alpha`: 10 (priority 2), 11 (priority 3), 40 (no default priority). */
  released: [10, 11, 40],
  /** Exists but is not released to `alpha`. */
  unreleased: 20,
  priorities: [1, 2, 3, 4],
  supportLevels: [1, 2, 3],
  natures: { active: 'duvida', inactive: 'sugestao' },
} as const;

/** Keys issued to the fixture systems. */
export interface Keys {
  /** `alpha`: active, scope help-desk-ticket.create, limit 120. */
  alpha: string;
  /** `beta`: active, both scopes. */
  beta: string;
  /** `gamma`: active, only lead.create. */
  gamma: string;
}

/** Writes the fixture catalog and systems, and issues one key per system. */
export async function seedHelpdesk(
  t: AdminClient,
  systemOverrides: Record<string, unknown> = {},
): Promise<Keys> {
  const put = (path: string, body: unknown) => t.admin('PUT', `/admin/v1/helpdesk/${path}`, body);
  await put('companies/acme', { name: 'Acme Comércio' });
  await put('companies/Brisa', { name: 'Água Brisa' });
  await put('companies/legado', { name: 'Legado', active: false });
  const types = ['Incidente', 'Problema', 'Solicitação de Serviço', 'Solicitação de Mudança'];
  for (const [index, name] of types.entries()) await put(`category-types/${index + 1}`, { name });
  await put('priorities/1', { name: 'Crítica', level: 1, response_time_hours: 4 });
  await put('priorities/2', { name: 'Alta', level: 2, response_time_hours: 2 });
  await put('priorities/3', { name: 'Média', level: 3, response_time_hours: 24 });
  await put('priorities/4', { name: 'Baixa', level: 4, response_time_hours: 72, description: 'Sem pressa.' });
  await put('categories/10', { name: 'Terminal sem comunicação', type_id: 1, default_priority_id: 2 });
  await put('categories/11', { name: 'Étiqueta', type_id: 1, default_priority_id: 3 });
  await put('categories/20', { name: 'Divergência', type_id: 2, default_priority_id: 3 });
  await put('categories/30', { name: 'Novo usuário', type_id: 3, default_priority_id: 4 });
  await put('categories/40', { name: 'Alteração de cadastro', type_id: 4 });
  for (const id of CATALOG.supportLevels) await put(`support-levels/${id}`, { name: `N${id}` });
  await put('natures/duvida', { name: 'Dúvida' });
  await put('natures/Elogio', { name: 'Elogio' });
  await put('natures/sugestao', { name: 'Sugestão', active: false });

  const system = (identifier: string, scopes: string[]) =>
    put(`systems/${identifier}`, {
      name: identifier,
      scopes,
      default_category_id: CATALOG.defaultCategory,
      released_category_ids: [...CATALOG.released],
      ...systemOverrides,
    });
  await system('alpha', ['help-desk-ticket.create']);
  await system('beta', ['help-desk-ticket.create', 'lead.create']);
  await system('gamma', ['lead.create']);
  const rotate = async (identifier: string) =>
    (
      JSON.parse((await t.admin('POST', `/admin/v1/helpdesk/systems/${identifier}/keys/rotate`)).body) as {
        key: string;
      }
    ).key;
  return { alpha: await rotate('alpha'), beta: await rotate('beta'), gamma: await rotate('gamma') };
}

/** A minimal valid ticket body. */
export function ticket(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { external_id: 'ext-1', company: 'acme', description: 'Terminal 3 does not print.', ...overrides };
}

/** POSTs a ticket body as JSON with the key. */
export function postTicket(
  t: TestApp,
  key: string,
  body: unknown,
  options: Partial<InjectOptions> & { url?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.call({
    method: 'POST',
    url: options.url ?? TICKET_URL,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...options.headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The parsed JSON body of a response. */
export function json(response: LightMyRequestResponse): Record<string, unknown> {
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** A key of the right shape that no system has. */
export const UNKNOWN_KEY = `gtes_${'A'.repeat(43)}`;
