import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/lib/identifiers.js';

// Ticket ids (src/lib/identifiers.ts): UUIDv7 whose random bits come from a page of random bytes drawn
// 4 KB at a time; no two ids share their random bits, across the page's refills too.

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidv7', () => {
  it('is a version 7, variant 1 UUID whose first 48 bits are the milliseconds given', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const id = uuidv7(now);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('gives distinct random bits to every id, across several refills of the random page', () => {
    const now = Date.now();
    const randomParts = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = uuidv7(now);
      expect(id).toMatch(UUID_V7);
      randomParts.add(id.slice(14));
    }
    expect(randomParts.size).toBe(2000);
  });
});
