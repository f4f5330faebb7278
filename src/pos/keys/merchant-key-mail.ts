import type { Db } from '../../db/database.js';
import { renderHtml, renderText, type MailDocument } from '../../mail/mail-document.js';
import { enqueueMail } from '../../mail/outbox-repository.js';
import type { PosPermission } from '../api/pos-permissions.js';

// The merchant's e-mail about a key (docs/pos-api.md, States and transitions: "The merchant receives an
// e-mail when a key is created or rotated and when an edit widens its access"), in Portuguese, the
// merchants' language: which key (name, id), what changed, when (UTC-03:00, the key dates' offset), and
// what to do if it was not them. Never the key's text. Written to the outbox in the transaction of the
// change, so the message exists exactly when the change was committed.

/** What a key may reach and until when: what an edit widens or narrows. */
export interface KeyAccess {
  permissions: readonly PosPermission[];
  places: 'all' | readonly string[];
  /** Last valid instant (ms). */
  expires_at: number;
}

/** One way an edit widened a key's access; narrowing has none. */
export type KeyWidening =
  | { kind: 'permission'; permission: PosPermission }
  | { kind: 'place'; place: string }
  | { kind: 'all_places' }
  | { kind: 'validity'; from: number; to: number };

/** What happened to the key, as the message tells it. */
export type KeyNotice =
  | { kind: 'created'; access: KeyAccess }
  | { kind: 'rotated'; previousValidUntil: number | null }
  | { kind: 'widened'; widenings: readonly KeyWidening[] };

/** How an edit from `before` to `after` widened the key's access: empty when it did not. */
export function wideningOf(before: KeyAccess, after: KeyAccess): KeyWidening[] {
  const widenings: KeyWidening[] = [];
  for (const permission of after.permissions) {
    if (!before.permissions.includes(permission)) widenings.push({ kind: 'permission', permission });
  }
  if (after.places === 'all') {
    if (before.places !== 'all') widenings.push({ kind: 'all_places' });
  } else if (before.places !== 'all') {
    for (const place of after.places) {
      if (!before.places.includes(place)) widenings.push({ kind: 'place', place });
    }
  }
  if (after.expires_at > before.expires_at)
    widenings.push({ kind: 'validity', from: before.expires_at, to: after.expires_at });
  return widenings;
}

const OFFSET_MS = -3 * 3_600_000;

/** An instant as a reader in UTC-03:00 reads it: `20/11/2026 21:30 (UTC-03:00)`. */
export function brazilTime(ms: number): string {
  const iso = new Date(ms + OFFSET_MS).toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)} (UTC-03:00)`;
}

const PERMISSION_WORDS: Readonly<Record<PosPermission, string>> = {
  'sale-by-payment-method.view': 'vendas por forma de pagamento',
  'event.view': 'eventos',
};

const permissionText = (permission: PosPermission) => `${PERMISSION_WORDS[permission]} (${permission})`;

function accessFacts(access: KeyAccess): [string, string][] {
  return [
    [
      'Permissões',
      access.permissions.length === 0 ? 'nenhuma' : access.permissions.map(permissionText).join(', '),
    ],
    [
      'Locais',
      access.places === 'all'
        ? 'todos os locais da conta'
        : access.places.length === 0
          ? 'nenhum'
          : access.places.join(', '),
    ],
    ['Válida até', brazilTime(access.expires_at)],
  ];
}

function wideningText(widening: KeyWidening): string {
  switch (widening.kind) {
    case 'permission':
      return `Permissão adicionada: ${permissionText(widening.permission)}`;
    case 'place':
      return `Local adicionado: ${widening.place}`;
    case 'all_places':
      return 'A chave passou a valer para todos os locais da conta, inclusive os que forem criados depois';
    case 'validity':
      return `Validade estendida: de ${brazilTime(widening.from)} para ${brazilTime(widening.to)}`;
  }
}

/** The message about `notice` on the key, to the account's address, at `now`. */
export function keyNoticeMail(
  account: { id: string; name: string; email: string },
  key: { id: string; name: string },
  notice: KeyNotice,
  now: number,
) {
  const subjects = {
    created: `Nova chave de API criada: ${key.name}`,
    rotated: `Chave de API renovada: ${key.name}`,
    widened: `Acesso ampliado na chave de API: ${key.name}`,
  };
  const leads = {
    created: `Uma nova chave de API foi criada na conta ${account.id}.`,
    rotated: `A chave de API abaixo, da conta ${account.id}, foi renovada: um novo texto de chave foi emitido.`,
    widened: `O acesso da chave de API abaixo, da conta ${account.id}, foi ampliado:`,
  };
  const facts: [string, string][] = [
    ['Chave', key.name],
    ['Identificador', key.id],
  ];
  if (notice.kind === 'created') facts.push(...accessFacts(notice.access));
  if (notice.kind === 'rotated')
    facts.push([
      'Chave anterior',
      notice.previousValidUntil === null
        ? 'deixou de funcionar imediatamente'
        : `continua funcionando até ${brazilTime(notice.previousValidUntil)}`,
    ]);
  facts.push(['Quando', brazilTime(now)]);
  const doc: MailDocument = {
    greeting: `Olá, ${account.name}.`,
    lead: leads[notice.kind],
    changes: notice.kind === 'widened' ? notice.widenings.map(wideningText) : [],
    facts,
    closing: [
      'Se não foi você nem alguém da sua equipe, revogue esta chave agora no painel (ou peça ao suporte ' +
        'que a revogue), crie outra se precisar e troque as senhas de quem tem acesso ao painel.',
      'Por segurança, a chave nunca é enviada por e-mail: ela é mostrada uma única vez, quando é criada ' +
        'ou renovada.',
    ],
    signature: 'Partner Gateway',
  };
  const subject = subjects[notice.kind];
  return {
    kind: `pos_key_${notice.kind}`,
    to: account.email,
    subject,
    text: renderText(doc),
    html: renderHtml(doc, { language: 'pt-BR', title: subject }),
  };
}

/**
 * Writes the message about `notice` to the outbox, in the change's transaction `trx`, when the account
 * has an e-mail address (none: nothing is sent). A widening notice without widenings writes nothing.
 */
export async function queueKeyNotice(
  trx: Db,
  change: { accountId: string; key: { id: string; name: string }; notice: KeyNotice; now: number },
): Promise<void> {
  const { accountId, key, notice, now } = change;
  if (notice.kind === 'widened' && notice.widenings.length === 0) return;
  const account = await trx
    .selectFrom('pos_accounts')
    .select(['id', 'name', 'email'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (account?.email == null) return;
  await enqueueMail(trx, keyNoticeMail({ ...account, email: account.email }, key, notice, now), now);
}
