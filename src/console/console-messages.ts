import { mergeCatalogues, type Catalogue } from '../web/i18n.js';
import { REFUSAL_MESSAGES } from '../web/refusal-table.js';
import { WEB_MESSAGES } from '../web/web-messages.js';
import { ACCOUNTS_MESSAGES } from './messages/accounts.js';
import { CATALOG_MESSAGES } from './messages/catalog.js';
import { DASHBOARD_MESSAGES } from './messages/dashboard.js';
import { MAILBOX_MESSAGES } from './messages/mailbox.js';
import { SYSTEM_MESSAGES } from './messages/systems.js';
import { STAFF_MESSAGES } from './messages/staff.js';

// The back-office console's texts, in English and Portuguese: the frame's, the first start's, the
// search's and the gate's. Each group of pages keeps its own texts in src/console/messages/, merged here
// into the one catalogue the pages are typed by.

const en = {
  faceName: 'Back-office console',
  backHome: 'Back to the start',
  navFind: 'Find',
  navDashboard: 'Dashboard',
  navSystems: 'Partner systems',
  navAccounts: 'Merchant accounts',
  navCatalog: 'Catalog',
  navMaintenance: 'Maintenance',
  navStaff: 'Staff',
  role_operator: 'operator',
  role_support: 'support',
  roleForbiddenTitle: 'Not for your role',
  roleForbiddenText:
    'Your role ({role}) cannot open this page or do this. Ask an operator if you need it done.',
  firstTitle: 'Set up the first operator',
  firstIntro:
    'Nobody can sign in to the console yet. Prove that you run this service with its admin token (ADMIN_TOKEN), and create the first operator: you.',
  firstToken: 'Admin token (ADMIN_TOKEN)',
  firstTokenHint: 'The token the service was started with. It is checked, never stored or shown.',
  firstTokenWrong: 'This is not the admin token.',
  firstName: 'Your name',
  firstButton: 'Create the operator and sign in',
  firstTaken: 'The first operator exists already: sign in.',
  firstDone: 'Welcome, {name}: you are the console’s first operator.',
  findTitle: 'Find a partner system or a merchant account',
  findLabel: 'Identifier or name',
  findHint: 'Part of a system’s identifier or name, or of an account’s id or name; case does not matter.',
  findButton: 'Find',
  findSystems: 'Partner systems',
  findAccounts: 'Merchant accounts',
  findNone: 'Nothing found for “{q}”.',
  findCount: '{count} found',
  colIdentifier: 'Identifier',
  colName: 'Name',
  colState: 'State',
  active: 'Active',
  inactive: 'Inactive',
  who_operator: 'Operator token (ADMIN_TOKEN)',
  who_support: 'Support token (SUPPORT_TOKEN)',
  who_system: 'The service',
  who_unnamed: 'A user whose name was not recorded',
  channel_admin_api: 'Admin API',
  channel_cli: 'Command line',
  channel_panel: 'Merchant panel',
  channel_console: 'Console',
  channel_service: 'The service itself',
};

type Key = keyof typeof en;

const ptBR: Record<Key, string> = {
  faceName: 'Console de retaguarda',
  backHome: 'Voltar ao início',
  navFind: 'Buscar',
  navDashboard: 'Painel de controle',
  navSystems: 'Sistemas parceiros',
  navAccounts: 'Contas de lojistas',
  navCatalog: 'Catálogo',
  navMaintenance: 'Manutenção',
  navStaff: 'Equipe',
  role_operator: 'operador',
  role_support: 'suporte',
  roleForbiddenTitle: 'Não disponível para o seu papel',
  roleForbiddenText:
    'O seu papel ({role}) não pode abrir esta página nem fazer isto. Peça a um operador, se for preciso.',
  firstTitle: 'Configurar o primeiro operador',
  firstIntro:
    'Ninguém pode entrar no console ainda. Prove que você administra este serviço com o token de administração (ADMIN_TOKEN) e crie o primeiro operador: você.',
  firstToken: 'Token de administração (ADMIN_TOKEN)',
  firstTokenHint: 'O token com que o serviço foi iniciado. Ele é conferido, nunca guardado nem exibido.',
  firstTokenWrong: 'Este não é o token de administração.',
  firstName: 'Seu nome',
  firstButton: 'Criar o operador e entrar',
  firstTaken: 'O primeiro operador já existe: entre.',
  firstDone: 'Bem-vindo(a), {name}: você é o primeiro operador do console.',
  findTitle: 'Buscar um sistema parceiro ou uma conta de lojista',
  findLabel: 'Identificador ou nome',
  findHint:
    'Parte do identificador ou do nome de um sistema, ou do id ou do nome de uma conta; maiúsculas não importam.',
  findButton: 'Buscar',
  findSystems: 'Sistemas parceiros',
  findAccounts: 'Contas de lojistas',
  findNone: 'Nada encontrado para “{q}”.',
  findCount: '{count} encontrado(s)',
  colIdentifier: 'Identificador',
  colName: 'Nome',
  colState: 'Situação',
  active: 'Ativo',
  inactive: 'Inativo',
  who_operator: 'Token do operador (ADMIN_TOKEN)',
  who_support: 'Token do suporte (SUPPORT_TOKEN)',
  who_system: 'O serviço',
  who_unnamed: 'Um usuário cujo nome não foi registrado',
  channel_admin_api: 'API de administração',
  channel_cli: 'Linha de comando',
  channel_panel: 'Painel do lojista',
  channel_console: 'Console',
  channel_service: 'O próprio serviço',
};

const CORE: Catalogue<Key> = { en, 'pt-BR': ptBR };

/** Every text of the console: the shared ones, then the console's. */
export const CONSOLE_MESSAGES = mergeCatalogues(
  WEB_MESSAGES,
  CORE,
  DASHBOARD_MESSAGES,
  SYSTEM_MESSAGES,
  ACCOUNTS_MESSAGES,
  CATALOG_MESSAGES,
  STAFF_MESSAGES,
  MAILBOX_MESSAGES,
  REFUSAL_MESSAGES,
);

export type ConsoleMessage = keyof (typeof CONSOLE_MESSAGES)['en'];
