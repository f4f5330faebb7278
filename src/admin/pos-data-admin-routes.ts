import { z } from 'zod';
import {
  accountIdPath,
  accountInput,
  accountPath,
  eventIdPath,
  eventInput,
  placeIdPath,
  placeInput,
  placePath,
} from '../pos/places/pos-data-input.js';
import {
  accountBody,
  accountView,
  eventBody,
  eventView,
  placeBody,
  placeView,
} from '../pos/places/pos-data-view.js';
import { receiptBatchDocument, receiptBatchInput } from '../pos/receipts/receipt-input.js';
import { receiptCountsBody } from '../pos/receipts/receipt-view.js';
import { adminRoute, putStatus, type AdminRoute } from './admin-route.js';
import { posDataProblem, type PosDataOutcome } from '../pos/places/pos-data-refusal.js';
import { ADMIN_API } from '../lib/api-registry.js';

// The point-of-sale data half of the back office (docs/admin-rules.md, Point of sale): accounts, places,
// events and receipts, one entry per operation; merchants' keys are in merchant-key-admin-routes.ts.

const BASE = `${ADMIN_API.prefix}pos`;

/** The value of the point-of-sale data service's outcome; a refusal becomes its problem of the catalogue. */
function posDataAnswered<T>(outcome: PosDataOutcome<T>): T {
  if (!outcome.ok) throw posDataProblem(outcome);
  return outcome;
}

/** The point-of-sale data routes of the back office (docs/admin-rules.md, Point of sale). */
export const posDataAdminRoutes: readonly AdminRoute[] = [
  adminRoute({
    operationId: 'putPosAccount',
    method: 'PUT',
    path: `${BASE}/accounts/{id}`,
    summary: 'Creates or replaces a merchant’s account.',
    access: 'operator',
    params: accountIdPath,
    body: { kind: 'json', schema: accountInput },
    responses: { 200: accountBody, 201: accountBody },
    problems: ['validation_failed'],
    handle: async ({ params, body }, { posData }) => {
      const { created, account } = await posData.putAccount(params.id, body);
      return { status: putStatus(created), body: accountView(account) };
    },
  }),
  adminRoute({
    operationId: 'listPosAccounts',
    method: 'GET',
    path: `${BASE}/accounts`,
    summary: 'Lists the merchants’ accounts.',
    access: 'operator',
    responses: { 200: z.array(accountBody) },
    problems: [],
    handle: async (_input, { posData }) => ({
      status: 200,
      body: (await posData.listAccounts()).map(accountView),
    }),
  }),
  adminRoute({
    operationId: 'getPosAccount',
    method: 'GET',
    path: `${BASE}/accounts/{id}`,
    summary: 'One merchant’s account.',
    access: 'operator',
    params: accountIdPath,
    responses: { 200: accountBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params }, { posData }) => ({
      status: 200,
      body: accountView(await posData.account(params.id)),
    }),
  }),

  adminRoute({
    operationId: 'putPosPlace',
    method: 'PUT',
    path: `${BASE}/accounts/{account}/places/{id}`,
    summary: 'Creates or replaces a place of an account (its IANA time zone checked).',
    access: 'operator',
    params: placeIdPath,
    body: { kind: 'json', schema: placeInput },
    responses: { 200: placeBody, 201: placeBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, body }, { posData }) => {
      const { created, place } = posDataAnswered(await posData.putPlace(params.account, params.id, body));
      return { status: putStatus(created), body: placeView(place) };
    },
  }),
  adminRoute({
    operationId: 'listPosPlaces',
    method: 'GET',
    path: `${BASE}/accounts/{account}/places`,
    summary: 'Lists the places of an account.',
    access: 'operator',
    params: accountPath,
    responses: { 200: z.array(placeBody) },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params }, { posData }) => ({
      status: 200,
      body: (await posData.listPlaces(params.account)).map(placeView),
    }),
  }),

  adminRoute({
    operationId: 'putPosEvent',
    method: 'PUT',
    path: `${BASE}/accounts/{account}/places/{place}/events/{id}`,
    summary: 'Creates or replaces an event of a place; a replaced event keeps its registration instant.',
    access: 'operator',
    params: eventIdPath,
    body: { kind: 'json', schema: eventInput },
    responses: { 200: eventBody, 201: eventBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, body }, { posData }) => {
      const { created, event } = posDataAnswered(
        await posData.putEvent(params.account, params.place, params.id, body),
      );
      return { status: putStatus(created), body: eventView(event) };
    },
  }),
  adminRoute({
    operationId: 'listPosEvents',
    method: 'GET',
    path: `${BASE}/accounts/{account}/places/{place}/events`,
    summary: 'Lists the events of a place.',
    access: 'operator',
    params: placePath,
    responses: { 200: z.array(eventBody) },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params }, { posData }) => ({
      status: 200,
      body: (await posData.listEvents(params.account, params.place)).map(eventView),
    }),
  }),
  adminRoute({
    operationId: 'deletePosEvent',
    method: 'DELETE',
    path: `${BASE}/accounts/{account}/places/{place}/events/{id}`,
    summary: 'Deletes an event; receipts recorded with it keep its id.',
    access: 'operator',
    params: eventIdPath,
    responses: { 204: null },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params }, { posData }) => {
      posDataAnswered(await posData.deleteEvent(params.account, params.place, params.id));
      return { status: 204 };
    },
  }),

  adminRoute({
    operationId: 'importPosReceipts',
    method: 'POST',
    path: `${BASE}/accounts/{account}/receipts`,
    summary:
      'Upserts receipts by id: `{receipts: [...]}` 1 to 10,000 per call, or NDJSON of any length; a bad receipt rejects the whole call, and so does an upload with no receipts (422 `no_receipts`).',
    access: 'operator',
    params: accountPath,
    body: { kind: 'json-or-ndjson', schema: receiptBatchInput },
    requestBody: receiptBatchDocument,
    responses: { 200: receiptCountsBody },
    problems: [
      'validation_failed',
      'not_found',
      'no_receipts',
      'request_timeout',
      'upload_write_timeout',
      'upload_interrupted',
    ],
    handle: async ({ params, body }, { receipts, metrics }) => {
      const counts =
        body.kind === 'ndjson'
          ? await receipts.importLines(params.account, body.stream)
          : await receipts.importJson(params.account, body.stream, body.declaredLength);
      metrics.receiptsIngested(counts);
      return { status: 200, body: counts };
    },
  }),
];
