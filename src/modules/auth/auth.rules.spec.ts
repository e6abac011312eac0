import {
  isRaced,
  isSpendable,
  isUnder18,
  PASSWORD_LINKS,
  passwordProblems,
  SPENT_BY_PASSWORD_CHANGE,
} from './auth.rules.js';

describe('the 18+ rule', () => {
  const now = new Date('2030-06-15T10:00:00Z');

  it('is 18 from the 18th birthday on, UTC', () => {
    expect(isUnder18('2012-06-15', now)).toBe(false);
    expect(isUnder18('2012-06-16', now)).toBe(true);
    expect(isUnder18('1970-01-01', now)).toBe(false);
  });

  it('refuses what is not a plain date rather than let it through', () => {
    expect(isUnder18('2015-06-15T00:00:00.000Z', now)).toBe(true);
    expect(isUnder18('15/06/2000', now)).toBe(true);
    expect(isUnder18('', now)).toBe(true);
  });
});

describe('a refresh racing its token’s rotation', () => {
  const rotatedAt = new Date('2030-06-15T10:00:00.500Z');

  it('raced when it came before the rotation, or in its millisecond', () => {
    expect(isRaced(new Date('2030-06-15T10:00:00.480Z'), rotatedAt)).toBe(true);
    expect(isRaced(new Date('2030-06-15T10:00:00.500Z'), rotatedAt)).toBe(true);
  });

  it('a reuse when it came after the rotation, however soon', () => {
    expect(isRaced(new Date('2030-06-15T10:00:00.501Z'), rotatedAt)).toBe(false);
    expect(isRaced(new Date('2030-06-16T10:00:00.000Z'), rotatedAt)).toBe(false);
  });
});

describe('whether a one-time token could be spent (endpoint 1’s look before it hashes)', () => {
  const now = new Date('2030-06-15T10:00:00Z');
  const live = { purpose: 'password_reset', used_at: null, expires_at: new Date('2030-06-15T10:30:00Z') };

  it('takes an unused, unexpired token of a purpose asked for', () => {
    expect(isSpendable(live, PASSWORD_LINKS, now)).toBe(true);
    expect(isSpendable({ ...live, purpose: 'password_set' }, PASSWORD_LINKS, now)).toBe(true);
  });

  it('refuses a used, an expired (at its very instant too) or another kind of token', () => {
    expect(isSpendable({ ...live, used_at: now }, PASSWORD_LINKS, now)).toBe(false);
    expect(isSpendable({ ...live, expires_at: now }, PASSWORD_LINKS, now)).toBe(false);
    expect(isSpendable({ ...live, purpose: 'magic_link' }, PASSWORD_LINKS, now)).toBe(false);
  });
});

describe('what a completed password reset or set spends', () => {
  it('is every outstanding link, sign-in links included: none outlives the password it was issued under', () => {
    expect([...SPENT_BY_PASSWORD_CHANGE].sort()).toEqual(['magic_link', 'password_reset', 'password_set']);
  });
});

describe('a password’s length (DESIGN §3: 10 to 128 characters)', () => {
  const emoji = '\u{1F512}'; // one character, two UTF-16 units

  it('counts characters, not UTF-16 units', () => {
    expect(emoji.repeat(5)).toHaveLength(10);
    expect(passwordProblems(emoji.repeat(5))).toEqual(['must be at least 10 characters']);
    expect(passwordProblems(`${emoji.repeat(5)}horse`)).toEqual([]);
    expect(passwordProblems(emoji.repeat(128))).toEqual([]);
    expect(passwordProblems(emoji.repeat(129))).toEqual(['must be at most 128 characters']);
  });
});
