import { isIP } from 'node:net';

/**
 * Addresses a site's settings may not point the service at in production (DESIGN §11
 * `ALLOWED_PRIVATE_HOSTS`): loopback, link-local (cloud metadata lives there), private and shared ranges,
 * "this network", and IPv6's equivalents, IPv4-mapped ones included. A pure function of the address.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare) === 4) return privateV4(bare);
  if (isIP(bare) !== 6) return false;
  const ip = canonicalV6(bare);
  const mapped = mappedV4(ip);
  if (mapped) return privateV4(mapped);
  if (ip === '::' || ip === '::1') return true;
  const first = parseInt(ip.split(':')[0] || '0', 16);
  return (first & 0xffc0) === 0xfe80 || (first & 0xfe00) === 0xfc00; // fe80::/10 link-local, fc00::/7 unique local
}

/**
 * An IPv6 address in the one spelling URLs give it (`0:0:0:0:0:ffff:a9fe:a9fe`, `::FFFF:169.254.169.254` and
 * `::ffff:a9fe:a9fe` are one address): a host read from a URL arrives in that spelling (`hostOf`), and the
 * checks below must not depend on how the address was written.
 */
function canonicalV6(ip: string): string {
  const address = ip.replace(/%.*$/, ''); // a zone (`fe80::1%eth0`) names an interface, not another address
  try {
    return new URL(`http://[${address}]`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** The IPv4 address an IPv4-mapped IPv6 address (canonical, `::ffff:hhhh:hhhh`) carries, else null. */
function mappedV4(ip: string): string | null {
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

function privateV4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/**
 * Whether a host names this machine itself (`localhost`, 127.0.0.0/8, `::1`, IPv4-mapped loopback): traffic to it
 * never crosses a network. Judged on the name as written, not on what it resolves to (so `*.localhost`, which a
 * resolver need not send to loopback, is not taken as this machine).
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) !== 6) return false;
  const ip = canonicalV6(name);
  return ip === '::1' || !!mappedV4(ip)?.startsWith('127.');
}

/** One label of a DNS name (RFC 1123): letters, digits and inner hyphens, 63 characters at most. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** The longest DNS name, dots included. */
export const HOST_NAME_MAX = 253;

/**
 * Whether `value` names a host a client can connect to as it is: an IP address (IPv6 without brackets), or a DNS
 * name of RFC 1123 labels. Not a URL, not `host:port`, no spaces: those are the usual slips in an SMTP host,
 * and saved they would fail every e-mail of a site later instead of the form now.
 */
export function isHostName(value: string): boolean {
  if (isIP(value)) return true;
  return value.length <= HOST_NAME_MAX && value.split('.').every((label) => LABEL.test(label));
}

/** The host a setting names: a URL's host, or the value itself (an SMTP host). */
export function hostOf(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  if (isIP(text) === 6) return text.toLowerCase(); // an SMTP host's IPv6 address, unbracketed: no URL reads it
  try {
    return new URL(text.includes('://') ? text : `http://${text}`).hostname
      .replace(/^\[|\]$/g, '')
      .toLowerCase();
  } catch {
    return null;
  }
}
