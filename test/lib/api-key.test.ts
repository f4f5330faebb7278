import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, hashMatches, hasKeyShape } from '../../src/lib/api-key.js';

describe('API keys', () => {
  it('stores a key as the hex SHA-256 of its whole text', () => {
    const key = generateApiKey('gtes_');
    expect(hasKeyShape(key, 'gtes_')).toBe(true);
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
  });

  it('matches a presented key to its stored hash only', () => {
    const key = generateApiKey('gtpk_');
    const other = generateApiKey('gtpk_');
    expect(hashMatches(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(hashMatches(hashApiKey(key), hashApiKey(other))).toBe(false);
    expect(hashMatches(hashApiKey(key), null)).toBe(false);
    // A stored value of another length (never a hash this service wrote) is no match, and no throw.
    expect(hashMatches(hashApiKey(key), hashApiKey(key).slice(0, 32))).toBe(false);
  });
});
