import { isRaced, isUnder18 } from './auth.rules.js';

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
