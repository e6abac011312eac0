import { randomBytes } from 'node:crypto';

/**
 * Bulk code generation (DESIGN §6) as plain functions: the alphabets, the code-space guard, the
 * crypto-random draw, and the insert-and-retry loop with the database insert passed in.
 */

/** A–Z and 2–9 without the look-alikes O, I, 0 and 1: 32 characters. */
export const ALPHANUMERIC_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const DIGIT_ALPHABET = '0123456789';

/**
 * A request may fill at most 1 % of the codes of its shape (prefix, alphabet, length), counting the
 * codes the site already generated with that prefix and length. At that share a fresh random code
 * collides with an existing one at most 1 time in 100, so the retry rounds converge at once, and a
 * guessed code is right at most 1 time in 100.
 */
export const MAX_SPACE_SHARE_DIVISOR = 100n;

/** How many rounds of "draw the missing ones, insert, keep what did not collide" before giving up. */
export const MAX_GENERATION_ROUNDS = 20;

export function alphabetFor(alphanumeric: boolean): string {
  return alphanumeric ? ALPHANUMERIC_ALPHABET : DIGIT_ALPHABET;
}

/** alphabet^length, exactly (32^32 is far past Number's range). */
export function codeSpaceSize(alphabetSize: number, length: number): bigint {
  return BigInt(alphabetSize) ** BigInt(length);
}

export interface SpaceCheck {
  alphanumeric: boolean;
  codeLength: number;
  count: number;
  /** Codes the site already generated with the same prefix and length. */
  existing: number;
}

/** The most codes of one shape (prefix, alphabet, length) a site may hold. */
export function maxCodesOfShape(alphanumeric: boolean, codeLength: number): bigint {
  return codeSpaceSize(alphabetFor(alphanumeric).length, codeLength) / MAX_SPACE_SHARE_DIVISOR;
}

/** Whether the request stays within the safe share of its code space (see above). */
export function fitsCodeSpace(s: SpaceCheck): boolean {
  return BigInt(s.existing) + BigInt(s.count) <= maxCodesOfShape(s.alphanumeric, s.codeLength);
}

export type RandomSource = (size: number) => Uint8Array;

export interface CodeShape {
  prefix: string;
  alphabet: string;
  length: number;
}

/**
 * `count` distinct codes of the shape, each character drawn uniformly: random bytes at or above the
 * largest multiple of the alphabet's size are thrown away, so no character is favoured (for 32
 * nothing is thrown away; for 10, 6 byte values in 256).
 */
export function drawCodes(count: number, shape: CodeShape, random: RandomSource = randomBytes): string[] {
  const size = shape.alphabet.length;
  if (BigInt(count) > codeSpaceSize(size, shape.length))
    throw new RangeError('More codes than the shape holds.');
  const accept = 256 - (256 % size);
  const codes = new Set<string>();
  let pool = random(0);
  let at = 0;
  const nextIndex = (): number => {
    for (;;) {
      if (at >= pool.length) {
        pool = random(Math.max(64, (count - codes.size) * shape.length * 2));
        at = 0;
      }
      const byte = pool[at++];
      if (byte < accept) return byte % size;
    }
  };
  while (codes.size < count) {
    let body = '';
    for (let i = 0; i < shape.length; i++) body += shape.alphabet[nextIndex()];
    codes.add(shape.prefix + body);
  }
  return [...codes];
}

/**
 * Fills `count` unique codes: draw what is missing, hand the batch to `insert` (which stores what does
 * not collide and answers those), repeat for the collisions. Gives up after `maxRounds` rounds with
 * what it has, which the caller treats as a code space too full to continue.
 */
export async function fillUniqueCodes(
  count: number,
  draw: (n: number) => string[],
  insert: (codes: string[]) => Promise<string[]>,
  maxRounds = MAX_GENERATION_ROUNDS,
): Promise<string[]> {
  const stored: string[] = [];
  for (let round = 0; round < maxRounds && stored.length < count; round++) {
    stored.push(...(await insert(draw(count - stored.length))));
  }
  return stored;
}

/** How a bulk code's shape reads in `code_pattern`: the prefix, then one `#` per generated character. */
export function bulkCodePattern(prefix: string, length: number): string {
  return `${prefix}${'#'.repeat(length)}`;
}
