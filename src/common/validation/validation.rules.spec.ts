import { essentialConstraints } from './validation.rules.js';

describe('which field errors a client is told about', () => {
  it('reports a mistyped value’s type alone, not the ranges it also fails', () => {
    expect(
      essentialConstraints({
        isNumber: 'price_display must be a number',
        min: 'price_display must not be less than 0',
        maxDecimals: 'price_display has more than 2 decimals',
      }),
    ).toEqual(['price_display must be a number']);
  });

  it('reports a missing field as missing, not as of the wrong type', () => {
    expect(
      essentialConstraints({
        isDefined: 'name should not be null or undefined',
        isString: 'name must be a string',
        maxLength: 'name must be shorter than or equal to 200 characters',
      }),
    ).toEqual(['name should not be null or undefined']);
  });

  it('reports every range and format error of a value of the right type', () => {
    expect(essentialConstraints({ min: 'too small', maxDecimals: 'too many decimals' })).toEqual([
      'too small',
      'too many decimals',
    ]);
  });
});
