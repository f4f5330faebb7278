import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  accountInput,
  accountView,
  createPosAdmin,
  eventInput,
  eventView,
  identifier,
  placeInput,
  placeView,
  receiptBatchInput,
} from '../pos/pos-admin.js';
import { parseInput, type AdminDeps } from './admin-api.js';

const BASE = '/admin/v1/pos';

/** NDJSON receipts: any length, so the stream is handed over unread (no body limit) and read by line. */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

const accountPath = z.strictObject({ id: identifier });
const accountScope = z.strictObject({ account: identifier });
const placePath = z.strictObject({ account: identifier, id: identifier });
const placeScope = z.strictObject({ account: identifier, place: identifier });
const eventPath = z.strictObject({ account: identifier, place: identifier, id: identifier });

const putStatus = (reply: FastifyReply, created: boolean) => reply.code(created ? 201 : 200);

/** The point-of-sale data routes of the back office (admin-api.md, Point of sale); keys live elsewhere. */
export function registerPosAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const admin = createPosAdmin(deps);

  app.addContentTypeParser(NDJSON_MEDIA_TYPE, (_request, payload, done) => {
    done(null, payload);
  });

  app.put(`${BASE}/accounts/:id`, async (request, reply) => {
    const { id } = parseInput(accountPath, request.params, 'path');
    const { created, account } = await admin.putAccount(id, parseInput(accountInput, request.body, 'body'));
    return putStatus(reply, created).send(accountView(account));
  });
  app.get(`${BASE}/accounts`, async () => (await admin.listAccounts()).map(accountView));
  app.get(`${BASE}/accounts/:id`, async (request) =>
    accountView(await admin.account(parseInput(accountPath, request.params, 'path').id)),
  );

  app.put(`${BASE}/accounts/:account/places/:id`, async (request, reply) => {
    const { account, id } = parseInput(placePath, request.params, 'path');
    const { created, place } = await admin.putPlace(
      account,
      id,
      parseInput(placeInput, request.body, 'body'),
    );
    return putStatus(reply, created).send(placeView(place));
  });
  app.get(`${BASE}/accounts/:account/places`, async (request) =>
    (await admin.listPlaces(parseInput(accountScope, request.params, 'path').account)).map(placeView),
  );

  app.put(`${BASE}/accounts/:account/places/:place/events/:id`, async (request, reply) => {
    const { account, place, id } = parseInput(eventPath, request.params, 'path');
    const { created, event } = await admin.putEvent(
      account,
      place,
      id,
      parseInput(eventInput, request.body, 'body'),
    );
    return putStatus(reply, created).send(eventView(event));
  });
  app.get(`${BASE}/accounts/:account/places/:place/events`, async (request) => {
    const { account, place } = parseInput(placeScope, request.params, 'path');
    return (await admin.listEvents(account, place)).map(eventView);
  });
  app.delete(`${BASE}/accounts/:account/places/:place/events/:id`, async (request, reply) => {
    const { account, place, id } = parseInput(eventPath, request.params, 'path');
    await admin.deleteEvent(account, place, id);
    return reply.code(204).send();
  });

  app.post(`${BASE}/accounts/:account/receipts`, async (request, reply) => {
    const body = request.body;
    if (body instanceof Readable) {
      try {
        const { account } = parseInput(accountScope, request.params, 'path');
        return await admin.importReceiptLines(account, body);
      } catch (error) {
        // The rest of the body is not read: discard it and close the connection after the answer.
        reply.header('connection', 'close');
        body.resume();
        throw error;
      }
    }
    const { account } = parseInput(accountScope, request.params, 'path');
    const { receipts } = parseInput(receiptBatchInput, body, 'body');
    return admin.importReceiptBatch(account, receipts);
  });
}
