import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { gatePairTests } from './gate-pairs.js';
import { orderCaseTests } from './order-cases.js';
import { posBaseline, posCountsAfterKey, POS_CASES, posPairTable } from './pos-api.js';
import { TICKET_CASES, ticketBaselines, ticketPairTable } from './ticket-api.js';

// The order in which both public APIs answer problems, as one table (STYLE.md, 3: the order "pinned by one
// test per pair of gates that can both fire"). For each API: every pair of gates derived from its exported
// gate array (gate-pairs.ts: each gate alone, then both changes at once, and the gate the document puts
// first must answer), and the hand-written rows of one table (order-cases.ts: route, the two problems sent
// together, the answer that wins). Each runs on SQLite, and on PostgreSQL (+ Redis) when
// TEST_DATABASE_URL (and TEST_REDIS_URL) are set.

/** Both APIs' rows, in one table. */
const CASES = [...TICKET_CASES, ...POS_CASES];

describeEachDialect('ticket API, order of gates', (dialect) => {
  const t = useTestApp(dialect);

  it('the baseline requests, a ticket and a webhook call of alpha, are accepted: 201 (POST ticket; POST webhook)', async () => {
    for (const [route, status, body] of await ticketBaselines(t))
      expect(status, `${route}: ${body}`).toBe(201);
  });

  gatePairTests(ticketPairTable(t));
  orderCaseTests(
    t,
    CASES.filter((c) => c.api === 'ticket'),
  );
});

describeEachDialect('POS API, order of gates', (dialect) => {
  const t = useTestApp(dialect);

  it('the baseline request, a day of sales with a key of both permissions, is accepted: 200 (Endpoints)', async () => {
    const response = await posBaseline(t);
    expect(response.statusCode, response.body).toBe(200);
  });

  gatePairTests(posPairTable(t));
  orderCaseTests(
    t,
    CASES.filter((c) => c.api === 'pos'),
  );

  it('every error after the key is counted: 403, 422, 404 place, 501 (What the service does; Limits)', async () => {
    await posCountsAfterKey(t);
  });
});
