import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect, testApp, type TestApp } from '../helper.js';
import { ACCOUNTS, getWithKey, seedPos } from '../pos/fixtures.js';

// DATABASE_READ_URL (issue "Run as a fleet"): the POS data routes read places, events and receipts from
// the replica; keys are always read from the primary, so a revocation holds at once whatever the
// replica's lag. Here the "replica" is a second database whose content differs on purpose, so that each
// answer shows which database it came from.

describeEachDialect('read replica: data routes read it, keys never do', (dialect) => {
  let t: TestApp;
  let replica: TestApp;
  const dropAll: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    const primary = await dialect.open();
    const secondary = await dialect.open();
    dropAll.push(
      () => primary.drop(),
      () => secondary.drop(),
    );
    // The replica's content, written through an app of its own (as replication would bring it).
    replica = testApp({ db: secondary.db });
    await replica.admin('PUT', `${ACCOUNTS}/acme`, { name: 'Acme Bares' });
    await replica.admin('PUT', `${ACCOUNTS}/acme/places/R1`, { name: 'Só na réplica', timezone: 'UTC' });
    t = testApp({ db: primary.db, readDb: secondary.db });
  });

  afterEach(async () => {
    await t.app.close();
    await replica.app.close();
    for (const drop of dropAll.splice(0)) await drop();
  });

  it('places come from the replica; the key that reads them from the primary', async () => {
    const { key, id } = await seedPos(t);
    const places = await getWithKey(t, key, '/v1/api-public/places');
    expect(places.statusCode, places.body).toBe(200);
    const body = JSON.parse(places.body) as { data: { id: string }[] };
    expect(body.data.map((place) => place.id)).toEqual(['R1']);
    // A place only the primary has is not found on a data route.
    const events = await getWithKey(t, key, '/v1/api-public/events?place=P1');
    expect(events.statusCode).toBe(404);
    // A revocation on the primary holds at once.
    await t.admin('POST', `${ACCOUNTS}/acme/keys/${id}/revoke`);
    expect((await getWithKey(t, key, '/v1/api-public/places')).statusCode).toBe(401);
  });
});
