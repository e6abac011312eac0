import { hasAtMostDecimals, isCurrencyCode, roundHalfUp, scaleDecimal } from './money.js';

describe('scaleDecimal and hasAtMostDecimals', () => {
  it('scales a percentage exactly to the given places', () => {
    expect(scaleDecimal(12.5, 4)).toBe(125000n);
    expect(scaleDecimal(100, 4)).toBe(1000000n);
    expect(scaleDecimal('33.3333', 4)).toBe(333333n);
  });

  it('tells whether a value fits the places', () => {
    expect(hasAtMostDecimals(12.34, 2)).toBe(true);
    expect(hasAtMostDecimals(12.345, 2)).toBe(false);
    expect(hasAtMostDecimals(12.34, 2)).toBe(true);
    expect(hasAtMostDecimals(1e-7, 4)).toBe(false);
  });
});

describe('roundHalfUp', () => {
  it.each([
    [5n, 10n, 1n],
    [4n, 10n, 0n],
    [15n, 10n, 2n],
    [14n, 10n, 1n],
    [25n, 10n, 3n],
    [0n, 7n, 0n],
    [-5n, 10n, -1n],
    [-4n, 10n, 0n],
    [1_500_000n, 1_000_000n, 2n],
    [1_499_999n, 1_000_000n, 1n],
  ])('rounds %p / %p to %p', (n, d, r) => {
    expect(roundHalfUp(n, d)).toBe(r);
  });

  it('refuses a zero or negative denominator', () => {
    expect(() => roundHalfUp(1n, 0n)).toThrow(RangeError);
  });
});

describe('isCurrencyCode', () => {
  it.each(['GBP', 'EUR', 'USD', 'JPY'])('accepts %p', (code) => {
    expect(isCurrencyCode(code)).toBe(true);
  });

  it.each(['gbp', 'GB', 'GBPX', 'XYZ', '', 12, null, undefined])('refuses %p', (code) => {
    expect(isCurrencyCode(code)).toBe(false);
  });
});
