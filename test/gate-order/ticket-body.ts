import { expect } from 'vitest';
import { bodyOf, expectNoRateHeaders } from '../expect-http.js';
import type { TestApp } from '../helper.js';
import {
  BODY_LIMIT,
  chunked,
  INVALID_UTF8,
  LEAD_URL,
  OPTIONS_URL,
  remainingAfterOneMore,
  seedHelpdesk,
  ticket,
  ticketOfBytes,
  ticketPaddedWithSpaces,
  TICKET_URL,
  webhookUrl,
  type Keys,
} from '../helpdesk/fixtures.js';
import { publicRequest, type PublicRequest } from '../request.js';
import { row, type OrderCase } from './order-cases.js';

// Rows of one problem alone among the ticket API's body gates before the key (POST ticket; Errors, 413,
// 415 and 422 invalid_body): 65,536 bytes as sent, a lowercase JSON Content-Type on the ticket and lead
// routes, and a JSON object. None is counted.

const seeded = (t: TestApp) => seedHelpdesk(t);
const notCounted = async (t: TestApp, keys: Keys) => {
  expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
};
const TOO_LARGE = { status: 413, code: 'payload_too_large' } as const;
const MEDIA_TYPE = { status: 415, code: 'unsupported_media_type' } as const;

/** A ticket of alpha that must be accepted (201). */
async function accepted(t: TestApp, request: PublicRequest) {
  const response = await publicRequest(t, request);
  expect(response.statusCode, response.body).toBe(201);
}

const post = (
  keys: Keys | undefined,
  payload: PublicRequest['payload'],
  url = TICKET_URL,
): PublicRequest => ({
  method: 'POST',
  url,
  ...(keys === undefined ? {} : { key: keys.alpha }),
  type: 'application/json',
  payload,
});

const UNSUPPORTED: [string, string | undefined][] = [
  ['missing type', undefined],
  ['Application/JSON', 'Application/JSON'],
  ['APPLICATION/JSON', 'APPLICATION/JSON'],
  ['text/plain', 'text/plain'],
  ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
  ['text/json', 'text/json'],
  ['application/json with another charset', 'application/json; charset=iso-8859-1'],
];
const ACCEPTED_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
  'application/vnd.x+json',
  'application/problem+json; charset=utf-8',
];
const NOT_OBJECTS: [string, string | Buffer][] = [
  ['broken JSON', '{"external_id": "x",'],
  ['invalid UTF-8 bytes', INVALID_UTF8],
  ['a list', JSON.stringify([ticket()])],
  ['a string', '"ticket"'],
  ['a number', '42'],
  ['true', 'true'],
  ['null', 'null'],
  ['an empty body', ''],
  ['two objects', '{}{}'],
];

/** The body gates of the ticket API, one problem alone. */
export const TICKET_BODY_CASES: readonly OrderCase<unknown>[] = [
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: '65,536 bytes as sent pass, 65,537 get 413 before the key',
    answer: { ...TOO_LARGE, also: expectNoRateHeaders },
    cite: 'Errors, 413',
    async given(t) {
      const keys = await seedHelpdesk(t);
      await accepted(t, post(keys, ticketPaddedWithSpaces(BODY_LIMIT)));
      return keys;
    },
    send: () => [post(undefined, ticketPaddedWithSpaces(BODY_LIMIT + 1))],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: '413 counts bytes, not characters: emoji (4 bytes) and accents (2 bytes)',
    answer: TOO_LARGE,
    cite: 'Errors, 413',
    async given(t) {
      const keys = await seedHelpdesk(t);
      // About 16,380 emoji: far fewer than 65,536 characters, and within the 20,000 of `description`.
      await accepted(t, post(keys, ticketOfBytes(BODY_LIMIT, '😀')));
      return keys;
    },
    send: (keys) => ['😀', 'é'].map((unit) => post(keys, ticketOfBytes(BODY_LIMIT + 1, unit, 'big-2'))),
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: '413 counts JSON unicode escapes as sent: \\u00e9 costs 6 bytes, an escaped emoji 12',
    answer: TOO_LARGE,
    cite: 'Errors, 413',
    given: seeded,
    send: (keys) => [post(keys, ticketOfBytes(BODY_LIMIT + 1, '\\ud83d\\ude00'))],
    then: (t, keys) => accepted(t, post(keys, ticketOfBytes(BODY_LIMIT, '\\u00e9'))),
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: '413 for a chunked body without Content-Length as soon as it passes the limit',
    answer: { ...TOO_LARGE, also: expectNoRateHeaders },
    cite: 'Errors, 413',
    given: seeded,
    send: (keys) => [post(keys, chunked(ticketOfBytes(BODY_LIMIT + 1, 'x')))],
    then: (t, keys) => accepted(t, post(keys, chunked(ticketOfBytes(BODY_LIMIT, '😀')))),
  }),
  row({
    api: 'ticket',
    route: 'every route',
    wins: '413 on every route, webhook and lead included, not counted',
    answer: TOO_LARGE,
    cite: 'Errors, 413; Limits',
    given: seeded,
    send: (keys) => {
      const big = ticketOfBytes(BODY_LIMIT + 1, 'x');
      return [
        ...[TICKET_URL, webhookUrl('alpha'), LEAD_URL].map((url) => post(keys, big, url)),
        ...(
          [
            ['GET', OPTIONS_URL],
            ['OPTIONS', TICKET_URL],
          ] as const
        ).map(([method, url]) => ({ ...post(keys, big, url), method })),
        {
          method: 'POST',
          url: webhookUrl('alpha'),
          key: keys.alpha,
          type: 'text/plain',
          payload: chunked(big),
        },
      ];
    },
    async then(t, keys, responses) {
      // The three POSTs of a JSON type are not measured either.
      for (const response of responses.slice(0, 3)) expectNoRateHeaders(response);
      await notCounted(t, keys);
    },
  }),
  ...UNSUPPORTED.map(([label, type]) =>
    row({
      api: 'ticket',
      route: 'POST ticket and lead',
      wins: `${label} gets 415 before the key`,
      answer: { ...MEDIA_TYPE, also: expectNoRateHeaders },
      cite: 'POST ticket; Errors, 415',
      given: seeded,
      send: () =>
        [TICKET_URL, LEAD_URL].map((url) => ({
          method: 'POST',
          url,
          type,
          payload: JSON.stringify(ticket()),
        })),
    }),
  ),
  ...['', 'json', '/'].map((type) =>
    row({
      api: 'ticket',
      route: 'POST ticket',
      wins: `an empty or malformed Content-Type (${JSON.stringify(type)}) gets 415 unsupported_media_type, not a framework 500`,
      answer: MEDIA_TYPE,
      cite: 'POST ticket; Errors, 415',
      given: seeded,
      send: () => [{ method: 'POST', url: TICKET_URL, type, payload: JSON.stringify(ticket()) }],
    }),
  ),
  ...ACCEPTED_TYPES.map((type) =>
    row({
      api: 'ticket',
      route: 'POST ticket',
      wins: `${type} is accepted`,
      answer: { status: 201 },
      cite: 'POST ticket',
      given: seeded,
      send: (keys) => [{ ...post(keys, JSON.stringify(ticket())), type }],
    }),
  ),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: '415 with a valid key, not counted',
    answer: { status: 415 },
    cite: 'Limits',
    given: seeded,
    send: (keys) => [{ ...post(keys, JSON.stringify(ticket())), type: 'text/plain' }],
    then: notCounted,
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: 'the options route has no body rule: GET without Content-Type is fine',
    answer: { status: 200 },
    cite: 'POST ticket, 415 for ticket and lead only',
    given: seeded,
    send: (keys) => [{ method: 'GET', url: OPTIONS_URL, key: keys.alpha, type: 'text/plain' }],
  }),
  ...NOT_OBJECTS.map(([label, payload]) =>
    row({
      api: 'ticket',
      route: 'POST ticket and lead',
      wins: `${label} gets 422 invalid_body before the key, without param or X-RateLimit-*`,
      answer: {
        status: 422,
        code: 'invalid_body',
        also: (response) => {
          expect(bodyOf(response)).not.toHaveProperty('param');
          expectNoRateHeaders(response);
        },
      },
      cite: 'Errors, 422 invalid_body',
      given: seeded,
      send: () => [TICKET_URL, LEAD_URL].map((url) => post(undefined, payload, url)),
    }),
  ),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: 'invalid_body with a valid key, not counted',
    answer: { status: 422, code: 'invalid_body', also: expectNoRateHeaders },
    cite: 'Authentication, order',
    given: seeded,
    send: (keys) => [post(keys, '[]')],
    then: notCounted,
  }),
];
