import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { AdminClient, TestApp } from '../helper.js';
import { publicRequest } from '../request.js';

// The catalog every ticket-API suite starts from, written through the admin API as the operator would.

/** The path prefix of the ticket API. */
export const PREFIX = '/v1/api-external-system/';
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
  options: { url?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return publicRequest(t, {
    method: 'POST',
    url: options.url ?? TICKET_URL,
    key,
    type: 'application/json',
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: options.headers,
  });
}

/** A GET of the options route with the key (none when undefined). */
export function getOptions(t: TestApp, key?: string): Promise<LightMyRequestResponse> {
  return publicRequest(t, { url: OPTIONS_URL, key });
}

/** The parsed JSON body of a response. */
export { bodyOf as json } from '../expect-http.js';

/** A key of the right shape that no system has. */
export const UNKNOWN_KEY = `gtes_${'A'.repeat(43)}`;

/** The scopes of `alpha`: the ticket routes only. */
export const HD_SCOPES = ['help-desk-ticket.create'];

/** Rewrites a fixture system (PUT replaces every setting, so the fixture's values are repeated). */
export function putSystem(
  t: AdminClient,
  identifier: string,
  scopes: string[],
  settings: Record<string, unknown> = {},
) {
  return t.admin('PUT', `/admin/v1/helpdesk/systems/${identifier}`, {
    name: identifier,
    scopes,
    default_category_id: CATALOG.defaultCategory,
    released_category_ids: [...CATALOG.released],
    ...settings,
  });
}

/** The remaining balance of the key's system as a fresh call sees it (that call spends one). */
export async function remainingAfterOneMore(t: TestApp, key: string): Promise<string | undefined> {
  const response = await getOptions(t, key);
  expect(response.statusCode).toBe(200);
  return response.headers['x-ratelimit-remaining'] as string | undefined;
}

/** Spends the whole balance of a system whose limit is `limit`. */
export async function exhaust(t: TestApp, key: string, limit: number) {
  for (let i = 0; i < limit; i += 1) {
    expect((await getOptions(t, key)).statusCode).toBe(200);
  }
}

/** The body limit of the ticket API: 65,536 bytes as sent (Errors, 413). */
export const BODY_LIMIT = 65_536;

/** A JSON ticket of exactly `bytes` bytes as sent, its description padded with `unit`. */
export function ticketOfBytes(bytes: number, unit: string, externalId = 'big-1'): string {
  const base = JSON.stringify({ external_id: externalId, company: 'acme', description: '' });
  const room = bytes - Buffer.byteLength(base);
  const unitBytes = Buffer.byteLength(unit);
  const description = unit.repeat(Math.floor(room / unitBytes)) + 'a'.repeat(room % unitBytes);
  const text = `${base.slice(0, -2)}${description}"}`;
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** A JSON ticket of exactly `bytes` bytes as sent, padded with JSON whitespace (bytes, no characters). */
export function ticketPaddedWithSpaces(bytes: number): string {
  const base = JSON.stringify(ticket({ external_id: 'big-spaces' }));
  const text = `{${' '.repeat(bytes - Buffer.byteLength(base))}${base.slice(1)}`;
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** A body streamed in chunks, without Content-Length (chunked transfer). */
export function chunked(text: string, chunkBytes = 8192): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
  return Readable.from(chunks);
}

/** `{"a":"\xff\xfe"}`: a JSON object whose bytes are not UTF-8. */
export const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
