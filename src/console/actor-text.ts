import type { Actor } from '../audit/actor.js';
import type { Translate } from '../web/i18n.js';
import type { ConsoleMessage } from './console-messages.js';

// Who acted and through which face, as every console page writes it (a key's history, the action log):
// a person by name, a token by its role, the service as itself. One place, so that the systems', the
// accounts' and the action log's pages say it the same way.

type T = Translate<ConsoleMessage>;

const CHANNEL: Readonly<Record<Actor['channel'], ConsoleMessage>> = {
  admin_api: 'channel_admin_api',
  cli: 'channel_cli',
  panel: 'channel_panel',
  console: 'channel_console',
  service: 'channel_service',
};

/** Who: a staff or merchant user by name, a token by its role, the service as itself. */
export function actorText(t: T, actor: Actor): string {
  switch (actor.role) {
    case 'staff':
    case 'merchant_user':
      return actor.displayName ?? t('who_unnamed');
    case 'operator':
      return t('who_operator');
    case 'support':
      return t('who_support');
    case 'system':
      return t('who_system');
  }
}

/** Through which face the change came. */
export function channelText(t: T, channel: Actor['channel']): string {
  return t(CHANNEL[channel]);
}

/** Who and through which face, in one cell: "Olga Souza (console)". */
export function actorWithChannel(t: T, actor: Actor): string {
  return actor.role === 'system'
    ? actorText(t, actor)
    : `${actorText(t, actor)} (${channelText(t, actor.channel)})`;
}
