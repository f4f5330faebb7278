import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { wireTime } from '../lib/wire-time.js';
import {
  createPosKeyService,
  keyCreateInput,
  keyEditInput,
  keyListInput,
  keyRotateInput,
  type PosKey,
} from '../pos/key-service.js';
import { POS_IDENTIFIER } from '../pos/pos-identifier.js';
import { parseInput } from './admin-api.js';

const BASE = '/admin/v1/pos';

const accountPath = z.strictObject({
  account: z.string().regex(POS_IDENTIFIER, 'must be an account identifier (^[A-Za-z0-9]{1,64}$)'),
});
const keyPath = accountPath.extend({
  id: z.string().regex(POS_IDENTIFIER, 'must be a key identifier (^[A-Za-z0-9]{1,64}$)'),
});

/** The back office's view of a key: metadata and state, never the key text or its hashes. */
export function posKeyView(key: PosKey) {
  return {
    id: key.id,
    account: key.accountId,
    name: key.name,
    permissions: key.permissions,
    places: key.places,
    expires_at: wireTime(key.expiresAt),
    state: key.state,
    paused: key.paused,
    revoked_at: key.revokedAt === null ? null : wireTime(key.revokedAt),
    previous_key_valid_until: key.previousValidUntil === null ? null : wireTime(key.previousValidUntil),
    created_at: wireTime(key.createdAt),
    updated_at: wireTime(key.updatedAt),
  };
}

/**
 * Merchants' API keys (admin-api.md, Point of sale): the operator does everything; support may list
 * keys (of one account or all) and revoke them.
 */
export function registerPosKeyRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; rotationGraceSeconds: number },
): void {
  const keys = createPosKeyService(deps);
  const support = { config: { support: true } };

  app.post(`${BASE}/accounts/:account/keys`, async (request, reply) => {
    const { account } = parseInput(accountPath, request.params, 'path');
    const created = await keys.create(account, parseInput(keyCreateInput, request.body, 'body'));
    return reply
      .code(201)
      .send({ id: created.id, key: created.key, expires_at: wireTime(created.expiresAt) });
  });
  app.get(`${BASE}/accounts/:account/keys`, support, async (request) =>
    (await keys.list(parseInput(accountPath, request.params, 'path').account)).map(posKeyView),
  );
  app.get(`${BASE}/keys`, support, async (request) =>
    (await keys.listAll(parseInput(keyListInput, request.query, 'query'))).map(posKeyView),
  );
  app.patch(`${BASE}/accounts/:account/keys/:id`, async (request) => {
    const { account, id } = parseInput(keyPath, request.params, 'path');
    return posKeyView(await keys.edit(account, id, parseInput(keyEditInput, request.body, 'body')));
  });
  app.post(`${BASE}/accounts/:account/keys/:id/rotate`, async (request, reply) => {
    const { account, id } = parseInput(keyPath, request.params, 'path');
    const { key, previousValidUntil } = await keys.rotate(
      account,
      id,
      parseInput(keyRotateInput, request.body ?? {}, 'body'),
    );
    return reply.code(201).send({
      key,
      previous_valid_until: previousValidUntil === null ? null : wireTime(previousValidUntil),
    });
  });
  app.post(`${BASE}/accounts/:account/keys/:id/pause`, async (request) => {
    const { account, id } = parseInput(keyPath, request.params, 'path');
    return posKeyView(await keys.pause(account, id));
  });
  app.post(`${BASE}/accounts/:account/keys/:id/reactivate`, async (request) => {
    const { account, id } = parseInput(keyPath, request.params, 'path');
    return posKeyView(await keys.reactivate(account, id));
  });
  app.post(`${BASE}/accounts/:account/keys/:id/revoke`, support, async (request) => {
    const { account, id } = parseInput(keyPath, request.params, 'path');
    return posKeyView(await keys.revoke(account, id));
  });
}
