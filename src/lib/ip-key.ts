import { isIPv4, isIPv6 } from 'node:net';

/** The key of a call whose address cannot be read (see `ipBlockKey`); never a valid address. */
export const UNKNOWN_IP_KEY = 'unknown';

/**
 * The key under which an address counts for IP limits: an IPv4 address as it is, an IPv6 address by
 * its /64 block (docs/api-conventions.md). IPv4-mapped IPv6 addresses count as their IPv4 address.
 * No address (`undefined` or empty) counts as `unknown`.
 */
export function ipBlockKey(address: string | undefined): string {
  // Fastify's `request.ip` is the socket's remote address, which Node no longer knows once the client
  // has closed the connection (typed string, it is then undefined). Such a call's answer reaches
  // nobody, so sharing one key costs nothing, and it must not throw: a client leaving is not a fault.
  // The listeners are TCP only (HOST:PORT), where a live socket always has an address.
  if (address === undefined || address === '') return UNKNOWN_IP_KEY;
  const zoneless = address.replace(/%.*$/, '');
  if (isIPv4(zoneless) || !isIPv6(zoneless)) return zoneless;
  const groups = expandIPv6(zoneless);
  // ::ffff:0:0/96 in any spelling (`::ffff:192.0.2.1`, `::ffff:c000:201`, zeros written out): by /64,
  // every IPv4 client would share one key, and one of them could block all the others.
  if (groups.slice(0, 6).join(':') === '0:0:0:0:0:ffff') {
    return groups
      .slice(6)
      .flatMap((group) => {
        const value = parseInt(group, 16);
        return [value >> 8, value & 0xff];
      })
      .join('.');
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as lowercase hex without leading zeros. */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4 !== null) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}
