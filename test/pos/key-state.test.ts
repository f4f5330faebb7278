import { describe, expect, it } from 'vitest';
import { keyState, type KeyMatch, type KeyStateRow } from '../../src/pos/keys/key-state.js';

// The pure state of a merchant key (docs/pos-api.md, "States and transitions"): one test per row of the
// table, named after it, then the order of reasons, the owner account and unknown keys. Rows are written
// the way the key service leaves them after each transition.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
/** 23:59:59 of 2027-11-20 in UTC-03:00. */
const EXPIRES_AT = Date.UTC(2027, 10, 21, 2, 59, 59);

function row(overrides: Partial<KeyStateRow> = {}): KeyStateRow {
  return { expires_at: EXPIRES_AT, paused: 0, revoked_at: null, previous_valid_until: null, ...overrides };
}

const state = (key: KeyStateRow | undefined, matched: KeyMatch, now = NOW, accountActive = true) =>
  keyState({ key, matched, accountActive, now });

const WORKS = { ok: true, superseded: false, supersededUntil: null };
const refused = (reason: string | null, countsTowardIpBlock = false) => ({
  ok: false,
  reason,
  countsTowardIpBlock,
});

describe('key state table (docs/pos-api.md, States and transitions)', () => {
  it('active | merchant removes a permission | still active (the route answers 403, not the key)', () => {
    // Permissions are not part of the key's state: the same row stays active.
    expect(state(row(), 'current')).toEqual(WORKS);
  });

  it('active | merchant removes a place | still active (the place answers 404)', () => {
    expect(state(row(), 'current')).toEqual(WORKS);
  });

  it('active | merchant pauses | paused: 401 reason paused, not counted for the IP block', () => {
    expect(state(row({ paused: 1 }), 'current')).toEqual(refused('paused'));
  });

  it('paused | merchant reactivates | active (same key works again)', () => {
    expect(state(row({ paused: 1 }), 'current')).toEqual(refused('paused'));
    expect(state(row({ paused: 0 }), 'current')).toEqual(WORKS);
  });

  it('active | merchant rotates | new key active; the old key is previous and works 24 hours, superseded', () => {
    const rotated = row({ previous_valid_until: NOW + DAY });
    expect(state(rotated, 'current')).toEqual(WORKS);
    expect(state(rotated, 'previous')).toEqual({ ok: true, superseded: true, supersededUntil: NOW + DAY });
    expect(state(rotated, 'previous', NOW + DAY - 1)).toEqual({
      ok: true,
      superseded: true,
      supersededUntil: NOW + DAY,
    });
  });

  it('previous (within 24 hours) | 24 hours pass | replaced: 401 reason replaced', () => {
    const rotated = row({ previous_valid_until: NOW + DAY });
    expect(state(rotated, 'previous', NOW + DAY)).toEqual(refused('replaced'));
    expect(state(rotated, 'previous', NOW + 30 * DAY)).toEqual(refused('replaced'));
    expect(state(rotated, 'current', NOW + DAY)).toEqual(WORKS);
  });

  it('active | merchant rotates invalidating the current key | the old key (and any previous key) is replaced at once', () => {
    // The old current key becomes a previous key whose grace ends now; the key that was previous is kept
    // as the replaced key.
    const rotated = row({ previous_valid_until: NOW });
    expect(state(rotated, 'previous')).toEqual(refused('replaced'));
    expect(state(rotated, 'replaced')).toEqual(refused('replaced'));
    expect(state(rotated, 'current')).toEqual(WORKS);
  });

  it('previous (within 24 hours) | merchant pauses the key | previous replaced from then on, not back on reactivation; the new key paused until reactivated', () => {
    // Pausing ends the previous key's grace at once.
    const paused = row({ paused: 1, previous_valid_until: NOW });
    expect(state(paused, 'previous')).toEqual(refused('replaced'));
    expect(state(paused, 'current')).toEqual(refused('paused'));
    const reactivated = row({ paused: 0, previous_valid_until: NOW });
    expect(state(reactivated, 'previous', NOW + HOUR)).toEqual(refused('replaced'));
    expect(state(reactivated, 'current', NOW + HOUR)).toEqual(WORKS);
    // Even a row still inside the grace: the previous key of a paused key is replaced, not paused.
    expect(state(row({ paused: 1, previous_valid_until: NOW + DAY }), 'previous')).toEqual(
      refused('replaced'),
    );
  });

  it('any | second rotation | the key from two rotations back: 401 without reason, counted as a nonexistent key', () => {
    // Only current and previous are remembered: its hash matches no row.
    expect(state(undefined, 'current')).toEqual(refused(null, true));
  });

  it('active / previous | merchant or support revokes | revoked for ever; within the grace both current and previous answer revoked', () => {
    const revoked = row({ revoked_at: NOW, previous_valid_until: NOW + DAY });
    expect(state(revoked, 'current')).toEqual(refused('revoked'));
    expect(state(revoked, 'previous')).toEqual(refused('revoked'));
    expect(state(revoked, 'current', NOW + 400 * DAY)).toEqual(refused('revoked'));
    expect(state(row({ revoked_at: NOW, paused: 0 }), 'current', NOW + HOUR)).toEqual(refused('revoked'));
  });

  it('active | validity date passes | expired: 401 reason expired; extending validity revives the same key', () => {
    expect(state(row(), 'current', EXPIRES_AT)).toEqual(WORKS);
    expect(state(row(), 'current', EXPIRES_AT + 999)).toEqual(WORKS);
    expect(state(row(), 'current', EXPIRES_AT + 1000)).toEqual(refused('expired'));
    expect(state(row({ expires_at: EXPIRES_AT + 30 * DAY }), 'current', EXPIRES_AT + 1000)).toEqual(WORKS);
  });
});

describe('order of reasons and the exceptions', () => {
  it('revoked wins over expired, paused and replaced', () => {
    const all = row({ revoked_at: NOW, paused: 1, expires_at: NOW - DAY, previous_valid_until: NOW - HOUR });
    expect(state(all, 'current')).toEqual(refused('revoked'));
    expect(state(all, 'previous')).toEqual(refused('revoked'));
    expect(state(all, 'replaced')).toEqual(refused('revoked'));
  });

  it('expired wins over paused and replaced', () => {
    const expiredPaused = row({ paused: 1, expires_at: NOW - DAY, previous_valid_until: NOW - HOUR });
    expect(state(expiredPaused, 'current')).toEqual(refused('expired'));
    expect(state(expiredPaused, 'previous')).toEqual(refused('expired'));
    expect(state(expiredPaused, 'replaced')).toEqual(refused('expired'));
  });

  it('paused wins over replaced for the current key', () => {
    expect(state(row({ paused: 1, previous_valid_until: NOW - HOUR }), 'current')).toEqual(refused('paused'));
  });

  it('exception: a previous key whose grace ended answers replaced even if the key is paused', () => {
    expect(state(row({ paused: 1, previous_valid_until: NOW - HOUR }), 'previous')).toEqual(
      refused('replaced'),
    );
  });

  it('a deactivated owner account: 401 without reason, not counted for the IP block (docs/pos-api.md, Settled details)', () => {
    for (const matched of ['current', 'previous', 'replaced'] as const) {
      expect(state(row({ previous_valid_until: NOW + DAY }), matched, NOW, false)).toEqual(refused(null));
      expect(state(row({ revoked_at: NOW, paused: 1 }), matched, NOW, false)).toEqual(refused(null));
    }
  });

  it('an unknown key: no reason, counted for the IP block', () => {
    expect(state(undefined, 'previous', NOW, false)).toEqual(refused(null, true));
  });
});
