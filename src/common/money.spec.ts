import {
  formatMajor,
  hasAtMostDecimals,
  isCurrencyCode,
  roundHalfUp,
  scaleDecimal,
  toMajorUnits,
  toMinorUnits,
} from './money.js';

describe('toMinorUnits', () => {
  it.each([
    ['12.10', 1210],
    [12.1, 1210],
    ['12.1', 1210],
    [0.07, 7],
    ['0.07', 7],
    [19.99, 1999],
    [0, 0],
    [-0, 0],
    ['4.50', 450],
    [100, 10000],
    ['1234567.89', 123456789],
    [-2.5, -250],
    ['3.100', 310],
  ])('converts %p major units to exactly %p cents', (major, cents) => {
    expect(toMinorUnits(major)).toBe(cents);
  });

  it('never drifts where floating-point multiplication would (0.1 + 0.2 style)', () => {
    expect(Math.round(1.15 * 100)).toBe(115);
    expect(1.13 * 100).not.toBe(113);
    expect(toMinorUnits(1.13)).toBe(113);
    expect(toMinorUnits(4.35)).toBe(435);
    expect(toMinorUnits(8.2)).toBe(820);
  });

  it.each([12.345, '0.001', '1e3', 'abc', '', '12.', '.5', NaN, Infinity, 1e-7, 0.1 + 0.2])(
    'refuses %p (more than two decimals or not a plain decimal)',
    (value) => {
      expect(() => toMinorUnits(value)).toThrow(RangeError);
    },
  );

  it('refuses amounts past the safe-integer range', () => {
    expect(() => toMinorUnits('90071992547409.92')).toThrow(RangeError);
  });
});

describe('toMajorUnits and formatMajor', () => {
  it.each([
    [1210, 12.1, '12.10'],
    [7, 0.07, '0.07'],
    [0, 0, '0.00'],
    [100, 1, '1.00'],
    [-5, -0.05, '-0.05'],
    [123456789, 1234567.89, '1234567.89'],
  ])('shows %p cents as %p / %p', (cents, major, text) => {
    expect(toMajorUnits(cents)).toBe(major);
    expect(formatMajor(cents)).toBe(text);
  });

  it('round-trips every cent amount up to 100.00', () => {
    for (let cents = 0; cents <= 10000; cents++) expect(toMinorUnits(toMajorUnits(cents))).toBe(cents);
  });

  it('refuses fractional cents', () => {
    expect(() => formatMajor(1.5)).toThrow(RangeError);
  });
});

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
