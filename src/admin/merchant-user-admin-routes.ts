import { z } from 'zod';
import { keyAccountPath } from '../pos/keys/merchant-key-input.js';
import { userInviteInput, type MerchantUser } from '../pos/users/merchant-user-service.js';
import { wireTime, wireTimeText } from '../lib/wire-time.js';
import { adminRoute, type AdminRoute } from './admin-route.js';
import { ADMIN_API } from '../lib/api-registry.js';

// Merchant users (issue 13, Who signs in): the operator invites a person to an account's panel by e-mail
// address and name; the invitation e-mail carries a one-time link (72 hours) where the password is set.

const BASE = `${ADMIN_API.prefix}pos`;

const merchantUserBody = z
  .strictObject({
    id: z.string(),
    account: z.string(),
    email: z.string(),
    name: z.string(),
    /** False until the invitation's link was used to set a password. */
    active: z.boolean(),
    created_at: wireTimeText,
  })
  .meta({
    id: 'MerchantUser',
    examples: [
      {
        id: 'u7Qm2Xa9',
        account: 'acme',
        email: 'ana@acme.example',
        name: 'Ana',
        active: false,
        created_at: '2026-11-20T12:00:00Z',
      },
    ],
  });

const invitedUserBody = merchantUserBody.extend({ invitation_expires_at: wireTimeText }).meta({
  id: 'InvitedMerchantUser',
  examples: [
    {
      id: 'u7Qm2Xa9',
      account: 'acme',
      email: 'ana@acme.example',
      name: 'Ana',
      active: false,
      created_at: '2026-11-20T12:00:00Z',
      invitation_expires_at: '2026-11-23T12:00:00Z',
    },
  ],
});

function userView(user: MerchantUser): z.infer<typeof merchantUserBody> {
  return {
    id: user.id,
    account: user.accountId,
    email: user.email,
    name: user.name,
    active: user.active,
    created_at: wireTime(user.createdAt),
  };
}

/** The merchant user routes of the back office. */
export const merchantUserAdminRoutes: readonly AdminRoute[] = [
  adminRoute({
    operationId: 'inviteMerchantUser',
    method: 'POST',
    path: `${BASE}/accounts/{account}/users`,
    summary:
      'Invites a person to the account’s merchant panel: the e-mail carries a one-time link (72 hours) to set a password; again for one not yet accepted sends a new link.',
    access: 'operator',
    params: keyAccountPath,
    body: { kind: 'json', schema: userInviteInput },
    responses: { 201: invitedUserBody },
    problems: ['validation_failed', 'not_found', 'conflict'],
    handle: async ({ params, body }, { merchantUsers }) => {
      const { user, expiresAt } = await merchantUsers.invite(params.account, body);
      return { status: 201, body: { ...userView(user), invitation_expires_at: wireTime(expiresAt) } };
    },
  }),
  adminRoute({
    operationId: 'listMerchantUsers',
    method: 'GET',
    path: `${BASE}/accounts/{account}/users`,
    summary: 'The panel users of an account (never a password or its hash).',
    access: 'support',
    params: keyAccountPath,
    responses: { 200: z.array(merchantUserBody) },
    problems: ['validation_failed'],
    handle: async ({ params }, { merchantUsers }) => ({
      status: 200,
      body: (await merchantUsers.list(params.account)).map(userView),
    }),
  }),
];
