import { describe, expect, it } from 'vitest';
import { ipBlockKey, UNKNOWN_IP_KEY } from '../../src/lib/ip-key.js';

// The key under which an address counts for the IP block: IPv4 as it is, IPv6 by its /64
// (docs/ticket-api.md, Limits: "for IPv6 the whole /64 block counts"; docs/api-conventions.md).

describe('ipBlockKey', () => {
  it('IPv4: the address itself', () => {
    expect(ipBlockKey('192.0.2.1')).toBe('192.0.2.1');
    expect(ipBlockKey('10.0.0.255')).not.toBe(ipBlockKey('10.0.0.254'));
  });

  it('IPv6: every address of one /64 gives one key', () => {
    const key = ipBlockKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const address of [
      '2001:db8:1:2:3:4:5:6',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2::',
      '2001:db8:1:2:0:0:0:0',
      '2001:db8:1:2::abcd:1',
      '2001:db8:1:2:a::1.2.3.4',
      '2001:db8:1:2::9%eth0',
    ]) {
      expect(ipBlockKey(address), address).toBe(key);
    }
  });

  it('IPv6: another /64 gives another key', () => {
    const key = ipBlockKey('2001:db8:1:2::1');
    for (const address of ['2001:db8:1:3::1', '2001:db8:1::2', '2001:db8::1:2:0:1', '2001:db9:1:2::1']) {
      expect(ipBlockKey(address), address).not.toBe(key);
    }
  });

  it('IPv6 with :: in every position', () => {
    expect(ipBlockKey('::')).toBe('0:0:0:0::/64');
    expect(ipBlockKey('::1')).toBe('0:0:0:0::/64');
    expect(ipBlockKey('1::')).toBe('1:0:0:0::/64');
    expect(ipBlockKey('1:2::')).toBe('1:2:0:0::/64');
    expect(ipBlockKey('1:2:3::8')).toBe('1:2:3:0::/64');
    expect(ipBlockKey('1::5:6:7:8')).toBe('1:0:0:0::/64');
    expect(ipBlockKey('1:2:3:4:5::')).toBe('1:2:3:4::/64');
    expect(ipBlockKey('::4:5:6:7:8')).toBe('0:0:0:4::/64');
    expect(ipBlockKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(ipBlockKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('IPv4-mapped IPv6 counts as its IPv4 address, in every spelling', () => {
    for (const address of [
      '::ffff:192.0.2.1',
      '::FFFF:192.0.2.1',
      '0:0:0:0:0:ffff:192.0.2.1',
      '::ffff:c000:201',
      '0000:0000:0000:0000:0000:FFFF:C000:0201',
    ]) {
      expect(ipBlockKey(address), address).toBe('192.0.2.1');
    }
    // Two mapped addresses are two IPs, never one shared ::/64.
    expect(ipBlockKey('::ffff:c000:202')).toBe('192.0.2.2');
  });

  it('text that is no IP address is kept as it is', () => {
    expect(ipBlockKey('unknown')).toBe('unknown');
  });

  it('no address (a client gone, its socket closed) counts as `unknown` and never throws (review, Clients that go away)', () => {
    expect(ipBlockKey(undefined)).toBe(UNKNOWN_IP_KEY);
    expect(ipBlockKey('')).toBe(UNKNOWN_IP_KEY);
    expect(UNKNOWN_IP_KEY).toBe('unknown');
    // Never the key of a real address.
    expect(ipBlockKey('0.0.0.0')).not.toBe(UNKNOWN_IP_KEY);
    expect(ipBlockKey('::')).not.toBe(UNKNOWN_IP_KEY);
  });
});
