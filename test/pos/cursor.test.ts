import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CURSOR_DETAILS,
  cursorProblem,
  signCursor,
  verifyCursor,
  type EventPosition,
} from '../../src/pos/places/cursor.js';

// The events cursor (docs/pos-api.md, GET /v1/api-public/events, "Cursor rules"; docs/pos-api.md, Settled
// details: signed by the server with HMAC and a secret from config, bound to the place, positioned after the
// last event of the page by (registration time, id)). A genuine cursor of another place, or of another
// account's place of the same id, is foreign; anything the API did not issue is invalid.

const SECRET = 'test-cursor-secret-0123456789';
const ACME_P1 = { accountId: 'acme', placeId: 'p1' };
const POSITION: EventPosition = { registeredAt: Date.UTC(2026, 10, 20, 12, 0, 0, 250), id: 'e42' };
const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const invalid = { ok: false, reason: 'invalid' };
const foreign = { ok: false, reason: 'foreign' };

describe('events cursor (docs/pos-api.md, Cursor rules)', () => {
  it('a cursor read back for the same place gives the position it was signed with', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    expect(verifyCursor(SECRET, cursor, ACME_P1)).toEqual({ ok: true, position: POSITION });
  });

  it('is opaque text safe in a query string: base64url and one dot, no padding', () => {
    expect(signCursor(SECRET, ACME_P1, POSITION)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  it('round-trips any position and scope (identifiers up to 64 characters, any instant)', () => {
    const identifier = fc.stringMatching(/^[A-Za-z0-9]{1,64}$/);
    fc.assert(
      fc.property(
        identifier,
        identifier,
        identifier,
        fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }),
        (accountId, placeId, id, registeredAt) => {
          const scope = { accountId, placeId };
          const cursor = signCursor(SECRET, scope, { registeredAt, id });
          expect(verifyCursor(SECRET, cursor, scope)).toEqual({ ok: true, position: { registeredAt, id } });
        },
      ),
    );
  });

  it('the cursor of another place of the account is foreign: "cursor" does not belong to this query.', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    expect(verifyCursor(SECRET, cursor, { accountId: 'acme', placeId: 'p2' })).toEqual(foreign);
    expect(CURSOR_DETAILS.foreign).toBe('"cursor" does not belong to this query.');
  });

  it("the cursor of another account's place with the same id is foreign", () => {
    const cursor = signCursor(SECRET, { accountId: 'other', placeId: 'p1' }, POSITION);
    expect(verifyCursor(SECRET, cursor, ACME_P1)).toEqual(foreign);
  });

  it('ids are compared exactly: another case, or a prefix, is another place or account', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    for (const scope of [
      { accountId: 'acme', placeId: 'P1' },
      { accountId: 'Acme', placeId: 'p1' },
      { accountId: 'acm', placeId: 'p1' },
      { accountId: 'acme', placeId: 'p12' },
      // The boundary between account and place is part of what is signed.
      { accountId: 'acmep', placeId: '1' },
    ]) {
      expect(verifyCursor(SECRET, cursor, scope)).toEqual(foreign);
    }
  });

  it('garbage is invalid: "cursor" is not valid.', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    const [payload = '', mac = ''] = cursor.split('.');
    for (const text of [
      '',
      '.',
      'abc',
      'null',
      '0',
      payload,
      `${payload}.`,
      `.${mac}`,
      `${mac}.${payload}`,
      `${cursor}.`,
      `${cursor}=`,
      `${cursor} `,
      ` ${cursor}`,
      `${cursor}\n`,
      `${payload}==.${mac}`,
      `${payload}.${mac}${mac}`,
      `${payload}.${mac.slice(0, -1)}`,
      cursor.toUpperCase(),
      'x'.repeat(5000),
      `${payload}.${'A'.repeat(43)}`,
      Buffer.from(JSON.stringify([1, 'acme', 'p1', POSITION.registeredAt, POSITION.id])).toString(
        'base64url',
      ),
    ]) {
      expect(verifyCursor(SECRET, text, ACME_P1), JSON.stringify(text)).toEqual(invalid);
    }
    expect(CURSOR_DETAILS.invalid).toBe('"cursor" is not valid.');
  });

  it('changing any one character, to any other base64url character or separator, makes it invalid', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    let tried = 0;
    for (let index = 0; index < cursor.length; index += 1) {
      for (const replacement of `${BASE64URL_ALPHABET}.=+/ `) {
        if (replacement === cursor[index]) continue;
        const tampered = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
        expect(verifyCursor(SECRET, tampered, ACME_P1), tampered).toEqual(invalid);
        tried += 1;
      }
    }
    expect(tried).toBeGreaterThan(5000);
  });

  it('removing or inserting any one character makes it invalid', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    for (let index = 0; index <= cursor.length; index += 1) {
      const removed = cursor.slice(0, index) + cursor.slice(index + 1);
      if (index < cursor.length) expect(verifyCursor(SECRET, removed, ACME_P1)).toEqual(invalid);
      for (const inserted of ['A', '_', '.']) {
        const longer = cursor.slice(0, index) + inserted + cursor.slice(index);
        expect(verifyCursor(SECRET, longer, ACME_P1)).toEqual(invalid);
      }
    }
  });

  it('flipping any bit of the decoded payload or signature makes it invalid (random property)', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    const [payload = '', mac = ''] = cursor.split('.');
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.integer({ min: 0, max: 7 }), (inPayload, at, bit) => {
        const bytes = Buffer.from(inPayload ? payload : mac, 'base64url');
        const index = at % bytes.length;
        bytes[index] = bytes[index]! ^ (1 << bit);
        const part = bytes.toString('base64url');
        const tampered = inPayload ? `${part}.${mac}` : `${payload}.${part}`;
        expect(verifyCursor(SECRET, tampered, ACME_P1)).toEqual(invalid);
      }),
    );
  });

  it('a position or place rewritten by the client without the secret is invalid, not foreign', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    const mac = cursor.split('.')[1] ?? '';
    for (const members of [
      [1, 'acme', 'p1', POSITION.registeredAt + 1, POSITION.id],
      [1, 'acme', 'p1', POSITION.registeredAt, 'e43'],
      [1, 'acme', 'p2', POSITION.registeredAt, POSITION.id],
      [1, 'other', 'p1', POSITION.registeredAt, POSITION.id],
    ]) {
      const payload = Buffer.from(JSON.stringify(members)).toString('base64url');
      expect(verifyCursor(SECRET, `${payload}.${mac}`, ACME_P1)).toEqual(invalid);
      expect(verifyCursor(SECRET, `${payload}.${mac}`, { accountId: 'acme', placeId: 'p2' })).toEqual(
        invalid,
      );
    }
  });

  it('a cursor signed with another secret is invalid, even for another place (the signature is checked first)', () => {
    const cursor = signCursor('another-secret-0123456789abcdef', ACME_P1, POSITION);
    expect(verifyCursor(SECRET, cursor, ACME_P1)).toEqual(invalid);
    expect(verifyCursor(SECRET, cursor, { accountId: 'acme', placeId: 'p2' })).toEqual(invalid);
    // And back: the other secret reads its own cursor.
    expect(verifyCursor('another-secret-0123456789abcdef', cursor, ACME_P1)).toEqual({
      ok: true,
      position: POSITION,
    });
  });

  it('an HMAC of the bare payload with the right secret (no domain label) is invalid', () => {
    const payload = signCursor(SECRET, ACME_P1, POSITION).split('.')[0] ?? '';
    const bare = createHmac('sha256', SECRET).update(payload).digest('base64url');
    expect(verifyCursor(SECRET, `${payload}.${bare}`, ACME_P1)).toEqual(invalid);
  });

  it('a genuinely signed payload that is not of this format is invalid', () => {
    const label = 'pos-events-cursor/v1\n';
    for (const members of [
      [2, 'acme', 'p1', POSITION.registeredAt, POSITION.id],
      [1, 'acme', 'p1', String(POSITION.registeredAt), POSITION.id],
      [1, 'acme', 'p1', 1.5, POSITION.id],
      [1, 'acme', 'p1', POSITION.registeredAt],
      { account: 'acme' },
    ]) {
      const payload = Buffer.from(JSON.stringify(members)).toString('base64url');
      const mac = createHmac('sha256', SECRET).update(label).update(payload).digest('base64url');
      expect(verifyCursor(SECRET, `${payload}.${mac}`, ACME_P1), JSON.stringify(members)).toEqual(invalid);
    }
    // The same construction with a good payload is accepted: the test above is not vacuous.
    const good = Buffer.from(JSON.stringify([1, 'acme', 'p1', 7, 'e1'])).toString('base64url');
    const mac = createHmac('sha256', SECRET).update(label).update(good).digest('base64url');
    expect(verifyCursor(SECRET, `${good}.${mac}`, ACME_P1)).toEqual({
      ok: true,
      position: { registeredAt: 7, id: 'e1' },
    });
  });

  it('refusals are 422 invalid_parameter with param cursor and the documented details', () => {
    const body = (reason: 'foreign' | 'invalid' | 'dangling') => cursorProblem(reason).toJSON();
    expect(body('foreign')).toMatchObject({
      status: 422,
      code: 'invalid_parameter',
      param: 'cursor',
      detail: '"cursor" does not belong to this query.',
    });
    for (const reason of ['invalid', 'dangling'] as const) {
      expect(body(reason)).toMatchObject({
        status: 422,
        code: 'invalid_parameter',
        param: 'cursor',
        detail: '"cursor" is not valid.',
      });
    }
  });

  it('does not expire: the same text verifies again and again, it carries no time', () => {
    const cursor = signCursor(SECRET, ACME_P1, POSITION);
    expect(signCursor(SECRET, ACME_P1, POSITION)).toBe(cursor);
    for (let i = 0; i < 3; i += 1) expect(verifyCursor(SECRET, cursor, ACME_P1).ok).toBe(true);
  });
});
