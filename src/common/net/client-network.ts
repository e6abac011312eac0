import { isIPv4, isIPv6 } from 'node:net';

/** Bits of an IPv6 address that name one client: a /64 is what a single line or host is given, and picks from. */
const IPV6_CLIENT_HEXTETS = 4;

/**
 * The network a per-IP limit counts a client by, and the referral rule's "same IP" compares: an IPv4 address as
 * it is (an IPv4-mapped IPv6 one, `::ffff:a.b.c.d`, as its IPv4), an IPv6 address by its /64 prefix. A client
 * on IPv6 holds a whole /64 and may send each request from a new address in it; counted per address, no per-IP
 * limit would hold for it. Anything else (no address) is `unknown`, one count for all.
 */
export function clientNetwork(ip: string | undefined): string {
  if (!ip) return 'unknown';
  if (isIPv4(ip)) return ip;
  const address = ip.split('%')[0]; // a zone (`fe80::1%eth0`) names an interface, not a client
  if (!isIPv6(address)) return ip;
  const hextets = expand(address);
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff)
    return [hextets[6] >> 8, hextets[6] & 255, hextets[7] >> 8, hextets[7] & 255].join('.');
  return `${hextets
    .slice(0, IPV6_CLIENT_HEXTETS)
    .map((h) => h.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (its `::` filled, a dotted IPv4 tail read as two groups). */
function expand(address: string): number[] {
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const halves = address.split('::');
  if (halves.length === 1) return groups(address);
  const left = groups(halves[0]);
  const right = groups(halves[1]);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
