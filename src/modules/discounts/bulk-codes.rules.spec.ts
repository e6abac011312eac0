import {
  ALPHANUMERIC_ALPHABET,
  DIGIT_ALPHABET,
  alphabetFor,
  bulkCodePattern,
  codeSpaceSize,
  drawCodes,
  fillUniqueCodes,
  fitsCodeSpace,
  maxCodesOfShape,
} from './bulk-codes.rules.js';

describe('bulk code generation rules', () => {
  describe('the alphabets', () => {
    it('uses A–Z and 2–9 without the look-alikes O, I, 0 and 1 for alphanumeric codes', () => {
      expect(ALPHANUMERIC_ALPHABET).toHaveLength(32);
      expect(new Set(ALPHANUMERIC_ALPHABET).size).toBe(32);
      for (const c of 'OI01') expect(ALPHANUMERIC_ALPHABET).not.toContain(c);
      expect(ALPHANUMERIC_ALPHABET).toMatch(/^[A-HJ-NP-Z2-9]+$/);
      expect(alphabetFor(true)).toBe(ALPHANUMERIC_ALPHABET);
    });

    it('uses the ten digits for numeric codes', () => {
      expect(alphabetFor(false)).toBe(DIGIT_ALPHABET);
      expect(DIGIT_ALPHABET).toBe('0123456789');
    });
  });

  describe('the code-space guard (at most 1% of the codes of one shape)', () => {
    it('computes the space exactly, even far past Number’s range', () => {
      expect(codeSpaceSize(10, 4)).toBe(10_000n);
      expect(codeSpaceSize(32, 32)).toBe(2n ** 160n);
    });

    it('allows 100 four-digit codes and refuses 101', () => {
      expect(maxCodesOfShape(false, 4)).toBe(100n);
      expect(fitsCodeSpace({ alphanumeric: false, codeLength: 4, count: 100, existing: 0 })).toBe(true);
      expect(fitsCodeSpace({ alphanumeric: false, codeLength: 4, count: 101, existing: 0 })).toBe(false);
    });

    it('counts the codes of the same shape the site already has', () => {
      expect(fitsCodeSpace({ alphanumeric: false, codeLength: 4, count: 40, existing: 60 })).toBe(true);
      expect(fitsCodeSpace({ alphanumeric: false, codeLength: 4, count: 41, existing: 60 })).toBe(false);
    });

    it('lets the largest request (10,000) through from 4 alphanumeric or 6 numeric characters', () => {
      expect(fitsCodeSpace({ alphanumeric: true, codeLength: 4, count: 10_000, existing: 0 })).toBe(true);
      expect(fitsCodeSpace({ alphanumeric: false, codeLength: 5, count: 10_000, existing: 0 })).toBe(false);
      expect(fitsCodeSpace({ alphanumeric: false, codeLength: 6, count: 10_000, existing: 0 })).toBe(true);
    });
  });

  describe('drawing codes', () => {
    it('draws the asked number of distinct codes: prefix, then characters of the alphabet only', () => {
      const codes = drawCodes(2000, { prefix: 'SAVE-', alphabet: ALPHANUMERIC_ALPHABET, length: 8 });
      expect(codes).toHaveLength(2000);
      expect(new Set(codes).size).toBe(2000);
      for (const c of codes) expect(c).toMatch(/^SAVE-[A-HJ-NP-Z2-9]{8}$/);
    });

    it('draws every character of the alphabet about equally often (no modulo bias)', () => {
      const codes = drawCodes(5000, { prefix: '', alphabet: DIGIT_ALPHABET, length: 12 });
      const counts = new Map<string, number>();
      for (const c of codes.join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
      const expected = (5000 * 12) / 10;
      expect(counts.size).toBe(10);
      // 60,000 draws: each digit within 5% of 6,000 (over 10 standard deviations).
      for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.05);
    });

    it('throws bytes away that would favour the first characters of a 10-letter alphabet', () => {
      // 250..255 are rejected for a 10-character alphabet; 7 maps to '7'.
      const bytes = [250, 251, 252, 253, 254, 255, 7, 7, 7, 7];
      let at = 0;
      const random = (size: number): Uint8Array => Uint8Array.from({ length: size }, () => bytes[at++ % 10]);
      expect(drawCodes(1, { prefix: 'X', alphabet: DIGIT_ALPHABET, length: 4 }, random)).toEqual(['X7777']);
    });

    it('refuses to draw more codes than the shape holds', () => {
      expect(() => drawCodes(101, { prefix: '', alphabet: DIGIT_ALPHABET, length: 2 })).toThrow(RangeError);
    });

    it('describes the shape as the prefix and one # per generated character', () => {
      expect(bulkCodePattern('SAVE-', 6)).toBe('SAVE-######');
      expect(bulkCodePattern('', 4)).toBe('####');
    });
  });

  describe('filling unique codes with collisions retried', () => {
    it('replaces the codes the store refused until it has them all', async () => {
      const existing = new Set(['A', 'B', 'C']);
      const queue = [['A', 'B', 'D'], ['C', 'E'], ['F']];
      const asked: number[] = [];
      const insert = (batch: string[]): Promise<string[]> => {
        const fresh = batch.filter((c) => !existing.has(c));
        fresh.forEach((c) => existing.add(c));
        return Promise.resolve(fresh);
      };
      const stored = await fillUniqueCodes(
        3,
        (n) => {
          asked.push(n);
          return queue.shift()!.slice(0, n);
        },
        insert,
      );
      expect(stored).toEqual(['D', 'E', 'F']);
      expect(asked).toEqual([3, 2, 1]);
    });

    it('stops after the last round with what it has', async () => {
      const stored = await fillUniqueCodes(
        5,
        () => ['X'],
        () => Promise.resolve([]),
        4,
      );
      expect(stored).toEqual([]);
    });

    it('asks once when nothing collides', async () => {
      let rounds = 0;
      const stored = await fillUniqueCodes(
        3,
        (n) => {
          rounds++;
          return ['P', 'Q', 'R'].slice(0, n);
        },
        (batch) => Promise.resolve(batch),
      );
      expect(stored).toEqual(['P', 'Q', 'R']);
      expect(rounds).toBe(1);
    });
  });
});
