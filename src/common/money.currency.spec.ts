import {
  currencyExponent,
  majorToMinor,
  MoneyError,
  minorToMajor,
  minorToMajorString,
  normalizeCurrency,
} from './money.js';

describe('money is converted between minor units and major-unit text exactly', () => {
  it.each([
    [1210, 'GBP', '12.10'],
    [1250, 'EUR', '12.50'],
    [5, 'GBP', '0.05'],
    [0, 'GBP', '0.00'],
    [100, 'usd', '1.00'],
    [123456789012, 'GBP', '1234567890.12'],
    [1000, 'JPY', '1000'],
    [0, 'JPY', '0'],
    [1234, 'KWD', '1.234'],
    [5, 'BHD', '0.005'],
    [12345, 'CLF', '1.2345'],
  ])('writes %d %s as "%s"', (minor, currency, text) => {
    expect(minorToMajorString(minor, currency)).toBe(text);
  });

  it.each([
    [1210, 'GBP', 12.1],
    [7, 'GBP', 0.07],
    [500, 'JPY', 500],
    [1005, 'KWD', 1.005],
  ])('shows %d %s as the number %d', (minor, currency, major) => {
    expect(minorToMajor(minor, currency)).toBe(major);
  });

  it('round-trips every amount through the number the API shows, in each kind of currency', () => {
    for (const currency of ['GBP', 'JPY', 'KWD'])
      for (let minor = 0; minor <= 20_000; minor++)
        expect(majorToMinor(minorToMajor(minor, currency), currency)).toBe(minor);
  });

  it.each([
    ['12.10', 'GBP', 1210],
    ['12.1', 'GBP', 1210],
    ['12', 'GBP', 1200],
    ['0.05', 'GBP', 5],
    ['0.5', 'GBP', 50],
    ['0', 'GBP', 0],
    ['007.00', 'GBP', 700],
    ['1000', 'JPY', 1000],
    ['1.234', 'KWD', 1234],
    ['1.2', 'KWD', 1200],
    ['90071992547409.91', 'GBP', 9007199254740991],
  ])('reads "%s" %s as %d', (text, currency, minor) => {
    expect(majorToMinor(text, currency)).toBe(minor);
  });

  it('reads JSON numbers by their shortest exact text (12.1 → 1210, 19.99 → 1999, 0.07 → 7)', () => {
    expect(majorToMinor(12.1, 'GBP')).toBe(1210);
    expect(majorToMinor(19.99, 'GBP')).toBe(1999);
    expect(majorToMinor(0.07, 'GBP')).toBe(7);
    expect(majorToMinor(1.005, 'KWD')).toBe(1005);
  });

  it('round-trips every amount from 0 to 100000 minor units without drift', () => {
    const drifted: number[] = [];
    for (let minor = 0; minor <= 100_000; minor++) {
      if (majorToMinor(minorToMajorString(minor, 'GBP'), 'GBP') !== minor) drifted.push(minor);
    }
    expect(drifted).toEqual([]);
  });

  it.each([
    ['1e3'],
    ['1E3'],
    ['-1.00'],
    ['+1.00'],
    ['-0'],
    [' 1.00'],
    ['1.00 '],
    ['1,00'],
    ['1.'],
    ['.5'],
    [''],
    ['Infinity'],
    ['NaN'],
    ['0x10'],
    ['12.101'],
    ['1.001'],
    ['99999999999999999.99'],
  ])('refuses "%s" for GBP rather than guess', (text) => {
    expect(() => majorToMinor(text, 'GBP')).toThrow(MoneyError);
  });

  it('refuses decimals a zero-decimal currency does not have', () => {
    expect(() => majorToMinor('1000.5', 'JPY')).toThrow(MoneyError);
    expect(() => majorToMinor('1000.0', 'JPY')).toThrow(MoneyError);
  });

  it('refuses numbers that are not exact decimals, negative or not finite', () => {
    expect(() => majorToMinor(0.1 + 0.2, 'GBP')).toThrow(MoneyError);
    expect(() => majorToMinor(-1, 'GBP')).toThrow(MoneyError);
    expect(() => majorToMinor(1e21, 'GBP')).toThrow(MoneyError);
    expect(() => majorToMinor(Number.NaN, 'GBP')).toThrow(MoneyError);
    expect(() => majorToMinor(Number.POSITIVE_INFINITY, 'GBP')).toThrow(MoneyError);
  });

  it.each([[-1], [1.5], [Number.NaN], [Number.MAX_SAFE_INTEGER + 1]])(
    'refuses to write %d minor units',
    (minor) => {
      expect(() => minorToMajorString(minor, 'GBP')).toThrow(MoneyError);
    },
  );

  it('knows each currency’s minor unit and refuses codes that are not three letters', () => {
    expect(currencyExponent('GBP')).toBe(2);
    expect(currencyExponent('jpy')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(normalizeCurrency('eur')).toBe('EUR');
    for (const bad of ['', 'EU', 'EURO', 'E1R', '€']) {
      expect(() => currencyExponent(bad)).toThrow(MoneyError);
    }
  });
});
