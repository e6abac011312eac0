import { isIP } from 'node:net';

/**
 * Addresses a site's settings may not point the service at in production (DESIGN §11
 * `ALLOWED_PRIVATE_HOSTS`): loopback, link-local (cloud metadata lives there), private and shared ranges,
 * "this network", and IPv6's equivalents, IPv4-mapped ones included. A pure function of the address.
 */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(ip) === 4) return privateV4(ip);
  if (isIP(ip) !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return privateV4(mapped[1]);
  if (ip === '::' || ip === '::1') return true;
  const first = parseInt(ip.split(':')[0] || '0', 16);
  return (first & 0xffc0) === 0xfe80 || (first & 0xfe00) === 0xfc00; // fe80::/10 link-local, fc00::/7 unique local
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
  return name === '::1' || /^::ffff:127\.\d+\.\d+\.\d+$/.test(name);
}

/** The host a setting names: a URL's host, or the value itself (an SMTP host). */
export function hostOf(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  try {
    return new URL(text.includes('://') ? text : `http://${text}`).hostname
      .replace(/^\[|\]$/g, '')
      .toLowerCase();
  } catch {
    return null;
  }
}
