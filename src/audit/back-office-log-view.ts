import { z } from 'zod';
import { wireTime, wireTimeText } from '../lib/wire-time.js';
import { ACTOR_CHANNELS, ACTOR_ROLES } from './actor.js';
import { auditCursorText } from './audit-cursor.js';
import {
  BACK_OFFICE_PAGE_DEFAULT,
  BACK_OFFICE_PAGE_MAX,
  type BackOfficeAction,
  type BackOfficePage,
} from './back-office-log.js';

// What the operator reads of the back-office action log: who changed what through the back office,
// when and from where; never a secret.

/** The filters and page of a reading of the log (`GET /admin/v1/audit/actions`). */
export const backOfficeQueryInput = z.strictObject({
  /** Only this action: an admin operation id (`putHelpDeskCompany`) or a console action's name. */
  action: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
  /** Only the actions of this staff user (their id). */
  user: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
  cursor: auditCursorText.optional(),
  limit: z.coerce.number().int().min(1).max(BACK_OFFICE_PAGE_MAX).default(BACK_OFFICE_PAGE_DEFAULT),
});

const actionExample = {
  occurred_at: '2026-11-20T12:00:00Z',
  action: 'putHelpDeskCompany',
  target: 'helpdesk/companies/acme',
  actor: { role: 'operator', user_id: null, name: null, channel: 'cli', ip: '203.0.113.7' },
  details: {
    status: 201,
    request_id: '0837fb4d-5a43-4c55-9b1e-2f0c8d6a1e11',
    body: { name: 'Acme', active: true },
  },
};

/** One change made through the back office. */
const backOfficeActionBody = z
  .strictObject({
    occurred_at: wireTimeText,
    /** The operation: an admin operation id, or a console action's name. */
    action: z.string(),
    /** What it acted on, as a path under /admin/v1/. */
    target: z.string(),
    actor: z.strictObject({
      role: z.enum(ACTOR_ROLES),
      /** The staff user, in the console; null for a token. */
      user_id: z.string().nullable(),
      name: z.string().nullable(),
      channel: z.enum(ACTOR_CHANNELS),
      ip: z.string().nullable(),
    }),
    /** What was sent or changed: an admin call's `status`, `request_id` and `body`, a staff user's address… */
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'BackOfficeAction', examples: [actionExample] });

/** A page of the log, newest first, and the cursor of the next one (null on the last page). */
export const backOfficePageBody = z
  .strictObject({ data: z.array(backOfficeActionBody), next_cursor: z.string().nullable() })
  .meta({
    id: 'BackOfficeActionPage',
    examples: [{ data: [actionExample], next_cursor: '1795694400000.41' }],
  });

/** One action as the back office shows it. */
function backOfficeActionView(action: BackOfficeAction): z.infer<typeof backOfficeActionBody> {
  return {
    occurred_at: wireTime(action.occurredAt),
    action: action.action,
    target: action.target,
    actor: {
      role: action.actor.role,
      user_id: action.actor.userId ?? null,
      name: action.actor.displayName ?? null,
      channel: action.actor.channel,
      ip: action.actor.ip,
    },
    details: action.details,
  };
}

/** A page of actions. */
export function backOfficePageView(page: BackOfficePage): z.infer<typeof backOfficePageBody> {
  return { data: page.actions.map(backOfficeActionView), next_cursor: page.nextCursor };
}
