import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The one way this service compares a secret, token, signature or MAC with what it expects: in time that
 * does not depend on where the two first differ (`crypto.timingSafeEqual`), so an attacker cannot learn a
 * valid value a byte at a time by timing refusals.
 *
 * MACs and signatures have a fixed, public length: two buffers of different lengths are simply unequal
 * (timingSafeEqual itself would throw, which a caller might turn into a 500).
 */
export function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Secret text whose length is itself secret (a configured bearer token): both sides are hashed first, so
 * the compare is always 32 bytes against 32 and neither the length nor the content leaks.
 */
export function sameSecretText(given: string, expected: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
