import { SERVICE_ACTOR } from '../audit/actor.js';
import type { Db } from '../db/database.js';
import type { CatalogService } from './catalog-service.js';
import type { SystemService } from './system-service.js';
import { systemOutcomeValue } from './system-refusal.js';

/** The demo partner system created on a first start. */
export const DEMO_SYSTEM = 'demo';

/** True when the help-desk tables hold nothing yet (a first start). */
export async function helpdeskIsEmpty(db: Db): Promise<boolean> {
  const [company, system] = await Promise.all([
    db.selectFrom('hd_companies').select('id').limit(1).executeTakeFirst(),
    db.selectFrom('hd_systems').select('identifier').limit(1).executeTakeFirst(),
  ]);
  return company === undefined && system === undefined;
}

/**
 * Creates a demo catalog (companies, the four category types, categories, priorities, support levels,
 * natures) and the demo system, through the same service the admin API uses. Returns the demo key.
 */
export async function seedHelpdeskDemo(services: {
  catalog: Pick<CatalogService, 'putEntry'>;
  systems: Pick<SystemService, 'put' | 'rotateKey'>;
}): Promise<string> {
  const { catalog, systems } = services;
  const put = (...args: Parameters<typeof catalog.putEntry>) => catalog.putEntry(...args);
  await put('hd_companies', 'acme', { name: 'Acme Comércio Ltda', active: true });
  await put('hd_companies', 'brisa', { name: 'Brisa Alimentos S.A.', active: true });
  await put('hd_companies', 'legado', { name: 'Legado Participações', active: false });

  const types = ['Incidente', 'Problema', 'Solicitação de Serviço', 'Solicitação de Mudança'];
  for (const [index, name] of types.entries()) {
    await put('hd_category_types', index + 1, { name, description: null });
  }
  const priorities = [
    { name: 'Crítica', level: 1, response_time_hours: 2, description: 'Operação parada.' },
    { name: 'Alta', level: 2, response_time_hours: 8, description: null },
    { name: 'Média', level: 3, response_time_hours: 24, description: null },
    { name: 'Baixa', level: 4, response_time_hours: 72, description: null },
  ];
  for (const [index, priority] of priorities.entries()) await put('hd_priorities', index + 1, priority);

  const categories = [
    { id: 10, name: 'Terminal sem comunicação', type_id: 1, default_priority_id: 2 },
    { id: 11, name: 'Falha de impressão', type_id: 1, default_priority_id: 3 },
    { id: 20, name: 'Divergência recorrente de vendas', type_id: 2, default_priority_id: 3 },
    { id: 30, name: 'Novo usuário no painel', type_id: 3, default_priority_id: 4 },
    { id: 31, name: 'Bobinas e suprimentos', type_id: 3, default_priority_id: 4 },
    { id: 40, name: 'Alteração de cadastro', type_id: 4, default_priority_id: 4 },
  ];
  for (const { id, ...category } of categories)
    await put('hd_categories', id, { ...category, description: null });

  await put('hd_support_levels', 1, { name: 'N1 - Atendimento', description: 'Primeiro atendimento.' });
  await put('hd_support_levels', 2, { name: 'N2 - Suporte técnico', description: null });
  await put('hd_support_levels', 3, { name: 'N3 - Engenharia', description: null });

  await put('hd_natures', 'duvida', { name: 'Dúvida', active: true });
  await put('hd_natures', 'reclamacao', { name: 'Reclamação', active: true });
  await put('hd_natures', 'elogio', { name: 'Elogio', active: true });
  await put('hd_natures', 'sugestao', { name: 'Sugestão', active: false });

  systemOutcomeValue(
    await systems.put(
      DEMO_SYSTEM,
      {
        name: 'Demo partner system',
        active: true,
        scopes: ['help-desk-ticket.create'],
        rate_limit_per_minute: 120,
        key_grace_seconds: 86400,
        default_category_id: 30,
        released_category_ids: [10, 11, 20, 31, 40],
      },
      SERVICE_ACTOR,
    ),
  );
  return systemOutcomeValue(await systems.rotateKey(DEMO_SYSTEM, SERVICE_ACTOR)).key;
}
