import { normalizedEmail } from '../email-address.js';
import { fitsEmailColumns } from './email.rules.js';

const I = '\u0130'; // LATIN CAPITAL LETTER I WITH DOT ABOVE: lower-cases to two UTF-16 units

describe('an address that fits the account’s columns', () => {
  it('fits at 254 characters and not at 255', () => {
    const at = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`;
    expect(fitsEmailColumns(at(254))).toBe(true);
    expect(fitsEmailColumns(at(255))).toBe(false);
  });

  it('must still fit once lower-cased, which can make it longer', () => {
    const email = `${I.repeat(32)}@${I.repeat(60)}.${I.repeat(60)}.com`;
    expect(email).toHaveLength(158);
    expect(normalizedEmail(email)).toHaveLength(310);
    expect(fitsEmailColumns(email)).toBe(false);
    expect(fitsEmailColumns(`${I.repeat(10)}@example.com`)).toBe(true);
  });
});
