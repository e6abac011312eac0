import { normalizedEmail } from '../email-address.js';
import {
  acceptedEmailProblem,
  emailProblem,
  fitsEmailColumns,
  isAcceptedEmail,
  isReservedEmailDomain,
} from './email.rules.js';

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

describe('the reserved .invalid domain (RFC 2606), where erased accounts’ addresses go', () => {
  it('holds any address under it, in any case, with or without a final dot', () => {
    expect(isReservedEmailDomain('deleted-0b6f@deleted.invalid')).toBe(true);
    expect(isReservedEmailDomain('Someone@Deleted.INVALID')).toBe(true);
    expect(isReservedEmailDomain('someone@invalid')).toBe(true);
    expect(isReservedEmailDomain('someone@example.invalid.')).toBe(true);
  });

  it('holds nothing else, however close', () => {
    expect(isReservedEmailDomain('someone@invalid.com')).toBe(false);
    expect(isReservedEmailDomain('someone@notinvalid')).toBe(false);
    expect(isReservedEmailDomain('someone.invalid@example.com')).toBe(false);
  });
});

describe('why an address cannot be taken', () => {
  it('names the reason, or nothing for a good address', () => {
    expect(emailProblem('jane@example.com')).toBeUndefined();
    expect(emailProblem(`${I.repeat(150)}@example.com`)).toContain('254');
    expect(emailProblem('jane@deleted.invalid')).toContain('.invalid');
  });
});

describe('an address taken other than through a DTO (a website form, another feature)', () => {
  it('is held to what the API’s e-mail fields take', () => {
    expect(isAcceptedEmail('sam@example.com')).toBe(true);
    expect(isAcceptedEmail('Sam.O+news@Example.co.uk')).toBe(true);
  });

  it('refuses what sign-in would refuse: stray punctuation, several addresses, no domain, a reserved one', () => {
    for (const email of [
      'sam@example.com,',
      'eve,victim@example.com',
      'sam@example.com; eve@example.com',
      '<sam@example.com>',
      'sam@localhost',
      'deleted-0b6f@deleted.invalid',
    ])
      expect([email, isAcceptedEmail(email)]).toEqual([email, false]);
    // Said as the API's e-mail fields say it.
    expect(acceptedEmailProblem('sam@example.com,')).toBe('must be an e-mail address');
    expect(acceptedEmailProblem('deleted-0b6f@deleted.invalid')).toMatch(/reserved \.invalid domain/);
  });
});
