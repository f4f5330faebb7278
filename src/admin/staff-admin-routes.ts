import { z } from 'zod';
import { wireTime, wireTimeText } from '../lib/wire-time.js';
import { STAFF_ROLES, staffUserInput, staffUserPath } from '../staff/staff-user-input.js';
import type { StaffPasswordLink, StaffUser } from '../staff/staff-user-service.js';
import { adminRoute, type AdminRoute } from './admin-route.js';
import { ADMIN_API } from '../lib/api-registry.js';

// The operator's staff users (issue 14; docs/back-office.md, Staff users), who sign in to the back-office console:
// the operator creates one with a role and hands over the one-time link (72 hours) where they set a
// password, issues a fresh link when one is lost or a password forgotten, and disables one who leaves.
// The staff user service writes each change to the back-office log itself (in its transaction, as when
// the console makes it), so these routes are not logged again by the registrar.

const BASE = `${ADMIN_API.prefix}staff/users`;

const userExample = {
  id: 's7Qm2Xa9Lp3Rt6Vw8Yz1Bc4D',
  email: 'bia@operator.example',
  name: 'Bia',
  role: 'support',
  active: false,
  disabled_at: null,
  created_at: '2026-11-20T12:00:00Z',
};

const linkExample = {
  set_password_url: 'http://127.0.0.1:8081/console/set-password?token=Xq3…',
  set_password_expires_at: '2026-11-23T12:00:00Z',
};

const staffUserBody = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(STAFF_ROLES),
    /** True once a password is set, until the user is disabled. */
    active: z.boolean(),
    /** When the operator disabled the user; null while they are not. */
    disabled_at: wireTimeText.nullable(),
    created_at: wireTimeText,
  })
  .meta({ id: 'StaffUser', examples: [userExample] });

/** The one-time link where the user sets a password: for the operator to hand over, shown this once. */
const passwordLinkBody = z
  .strictObject({ set_password_url: z.string(), set_password_expires_at: wireTimeText })
  .meta({ id: 'StaffPasswordLink', examples: [linkExample] });

const createdUserBody = staffUserBody
  .extend(passwordLinkBody.shape)
  .meta({ id: 'CreatedStaffUser', examples: [{ ...userExample, ...linkExample }] });

function userView(user: StaffUser): z.infer<typeof staffUserBody> {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    active: user.active,
    disabled_at: user.disabledAt === null ? null : wireTime(user.disabledAt),
    created_at: wireTime(user.createdAt),
  };
}

function linkView(link: StaffPasswordLink): z.infer<typeof passwordLinkBody> {
  return { set_password_url: link.url, set_password_expires_at: wireTime(link.expiresAt) };
}

/** The staff user routes of the back office: the operator's only. */
export const staffAdminRoutes: readonly AdminRoute[] = [
  adminRoute({
    operationId: 'createStaffUser',
    method: 'POST',
    path: BASE,
    summary:
      'Creates a staff user of the back-office console with a role; answers the one-time link (72 hours) where they set a password, for the operator to hand over (nothing is e-mailed).',
    access: 'operator',
    body: { kind: 'json', schema: staffUserInput },
    responses: { 201: createdUserBody },
    problems: ['validation_failed', 'conflict'],
    loggedBy: 'service',
    handle: async ({ body, actor }, { staffUsers }) => {
      const { user, link } = await staffUsers.create(body, actor);
      return { status: 201, body: { ...userView(user), ...linkView(link) } };
    },
  }),
  adminRoute({
    operationId: 'listStaffUsers',
    method: 'GET',
    path: BASE,
    summary: 'The staff users, disabled ones too, by e-mail address (never a password or its hash).',
    access: 'operator',
    responses: { 200: z.array(staffUserBody) },
    problems: [],
    handle: async (_input, { staffUsers }) => ({
      status: 200,
      body: (await staffUsers.list()).map(userView),
    }),
  }),
  adminRoute({
    operationId: 'issueStaffUserPasswordLink',
    method: 'POST',
    path: `${BASE}/{id}/password-link`,
    summary:
      'Issues a fresh one-time link (72 hours) where the staff user sets a password (a lost link, a forgotten password); their earlier links stop working.',
    access: 'operator',
    params: staffUserPath,
    responses: { 201: passwordLinkBody },
    problems: ['validation_failed', 'not_found', 'conflict'],
    loggedBy: 'service',
    handle: async ({ params, actor }, { staffUsers }) => ({
      status: 201,
      body: linkView(await staffUsers.newPasswordLink(params.id, actor)),
    }),
  }),
  adminRoute({
    operationId: 'disableStaffUser',
    method: 'POST',
    path: `${BASE}/{id}/disable`,
    summary:
      'Disables a staff user: they can no longer sign in, their links stop working and their console sessions end. The last operator who can sign in is not disabled (409), so that the console always has one.',
    access: 'operator',
    params: staffUserPath,
    responses: { 200: staffUserBody },
    problems: ['validation_failed', 'not_found', 'conflict'],
    loggedBy: 'service',
    handle: async ({ params, actor }, { staffUsers }) => ({
      status: 200,
      body: userView(await staffUsers.disable(params.id, actor)),
    }),
  }),
];
