import type { Catalogue } from '../../../web/i18n.js';

// The texts of the keys' recent refusals in the merchant panel (key-refusals.ts), in Portuguese (the
// default) and English; the table's own are the web kit's (src/web/refusal-table.ts).

const ptBR = {
  refusalsLink: 'Recusas recentes',
  refusalsAllLink: 'Recusas recentes de todas as chaves',
  refusalsKeyTitle: 'Recusas recentes da chave “{name}”',
  refusalsAccountTitle: 'Recusas recentes das chaves',
  refusalsIntro:
    'As chamadas à API de dados que foram recusadas (status 400 ou acima), da mais recente à mais antiga. Ficam guardadas as últimas {kept} recusas da conta, por até 30 dias, e podem levar alguns segundos para aparecer. Cada código leva à sua explicação na documentação. Ao falar com o suporte, informe o id da requisição.',
  refusalsKeyEmpty: 'Nenhuma chamada desta chave foi recusada entre as últimas {kept} recusas da conta.',
  refusalsAccountEmpty: 'Nenhuma chamada das chaves desta conta foi recusada recentemente.',
  refusalsUnavailable:
    'Não foi possível ler as recusas agora: o armazenamento que as guarda não responde. Tente de novo em instantes.',
  refusalsCount: '{count} recusa(s).',
};

type Key = keyof typeof ptBR;

const en: Record<Key, string> = {
  refusalsLink: 'Recent refusals',
  refusalsAllLink: 'Recent refusals of all keys',
  refusalsKeyTitle: 'Recent refusals of the key “{name}”',
  refusalsAccountTitle: 'Recent refusals of your keys',
  refusalsIntro:
    'The data API calls that were refused (status 400 or above), newest first. The account’s last {kept} refusals are kept, for up to 30 days, and may take a few seconds to appear. Each code links to its explanation in the documentation. When you contact support, give the request id.',
  refusalsKeyEmpty: 'No call of this key was refused among the account’s last {kept} refusals.',
  refusalsAccountEmpty: 'No call of this account’s keys was refused recently.',
  refusalsUnavailable:
    'The refusals cannot be read right now: the store that keeps them does not answer. Try again in a moment.',
  refusalsCount: '{count} refusal(s).',
};

/** The panel's texts of the keys' refusals. */
export const KEY_REFUSAL_MESSAGES: Catalogue<Key> = { 'pt-BR': ptBR, en };
