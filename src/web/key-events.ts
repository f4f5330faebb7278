import type { KeyEventName } from '../audit/key-audit-repository.js';
import type { WebMessage } from './web-messages.js';

// The words of a key's history (the audit trail's events), shared by every face that shows one: the
// merchant panel's key page and the back-office console's account and key pages.

/** The message of each audit event, as a key's history names it. */
export const KEY_EVENT_MESSAGES: Readonly<Record<KeyEventName, WebMessage>> = {
  issued: 'evIssued',
  rotated: 'evRotated',
  previous_stopped: 'evPreviousStopped',
  paused: 'evPaused',
  reactivated: 'evReactivated',
  revoked: 'evRevoked',
  edited: 'evEdited',
  expired: 'evExpired',
  grace_ended: 'evGraceEnded',
};
