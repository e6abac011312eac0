import {
  MASK_CHAR,
  claimRefusal,
  type ValidityFacts,
  csvCell,
  csvLine,
  isCodeValid,
  isUuid,
  isValidityWindowOrdered,
  presentCode,
  slugify,
  validUntilOf,
} from './discounts.rules.js';

const NOW = new Date('2025-06-15T12:00:00Z');
const valid: ValidityFacts = {
  active: true,
  valid_from: null,
  valid_until: null,
  current_uses: 0,
  max_uses: null,
  is_bulk_code: false,
  has_unclaimed_codes: false,
};

describe('validUntilOf', () => {
  it.each([
    ['2026-12-31', '2026-12-31T23:59:59.999Z'],
    ['2028-02-28', '2028-02-28T23:59:59.999Z'],
    ['2026-12', '2026-12-31T23:59:59.999Z'],
    ['2028-02', '2028-02-29T23:59:59.999Z'],
    ['2026', '2026-12-31T23:59:59.999Z'],
    ['0050-06-30', '0050-06-30T23:59:59.999Z'],
  ])('reads %s, given alone, as the whole of it', (text, last) => {
    expect(validUntilOf(text).toISOString()).toBe(last);
  });

  it('reads a date-time as that moment', () => {
    expect(validUntilOf('2026-12-31T00:00:00Z').toISOString()).toBe('2026-12-31T00:00:00.000Z');
    expect(validUntilOf('2031-06-01T10:00:00.5+01:00').toISOString()).toBe('2031-06-01T09:00:00.500Z');
  });
});

describe('is_valid (DESIGN §5)', () => {
  it('holds for an active code without window or limit', () => {
    expect(isCodeValid(valid, NOW)).toBe(true);
  });

  it('fails for an inactive code', () => {
    expect(isCodeValid({ ...valid, active: false }, NOW)).toBe(false);
  });

  it('includes both ends of the window', () => {
    expect(isCodeValid({ ...valid, valid_from: NOW, valid_until: NOW }, NOW)).toBe(true);
  });

  it('fails before valid_from and after valid_until', () => {
    expect(isCodeValid({ ...valid, valid_from: new Date(NOW.getTime() + 1) }, NOW)).toBe(false);
    expect(isCodeValid({ ...valid, valid_until: new Date(NOW.getTime() - 1) }, NOW)).toBe(false);
  });

  it('needs uses left when max_uses is set', () => {
    expect(isCodeValid({ ...valid, max_uses: 3, current_uses: 2 }, NOW)).toBe(true);
    expect(isCodeValid({ ...valid, max_uses: 3, current_uses: 3 }, NOW)).toBe(false);
    expect(isCodeValid({ ...valid, max_uses: null, current_uses: 1_000_000 }, NOW)).toBe(true);
  });

  it('needs an unclaimed generated code for a bulk code', () => {
    expect(isCodeValid({ ...valid, is_bulk_code: true, has_unclaimed_codes: true }, NOW)).toBe(true);
    expect(isCodeValid({ ...valid, is_bulk_code: true, has_unclaimed_codes: false }, NOW)).toBe(false);
  });

  it('refuses a window that starts after it ends', () => {
    expect(isValidityWindowOrdered(new Date(2), new Date(1))).toBe(false);
    expect(isValidityWindowOrdered(new Date(1), new Date(1))).toBe(true);
    expect(isValidityWindowOrdered(null, new Date(1))).toBe(true);
  });
});

describe('what a viewer sees of the code', () => {
  const single = { code: 'SUMMER20', is_bulk_code: false, prefix: null, code_length: 8 };
  const bulk = { code: null, is_bulk_code: true, prefix: 'SAVE-', code_length: 6 };
  const stranger = { isAdmin: false, claimedCodes: [], hasClaimed: false };

  it('masks a single code for someone who has not claimed it, keeping only its length', () => {
    expect(presentCode(single, stranger)).toEqual({ code: null, code_display: MASK_CHAR.repeat(8) });
  });

  it('shows a single code to admins and to a user who claimed it', () => {
    expect(presentCode(single, { ...stranger, isAdmin: true })).toEqual({
      code: 'SUMMER20',
      code_display: 'SUMMER20',
    });
    expect(presentCode(single, { ...stranger, hasClaimed: true })).toEqual({
      code: 'SUMMER20',
      code_display: 'SUMMER20',
    });
  });

  it('shows a bulk code’s prefix and one bullet per generated character, to admins as well', () => {
    const masked = { code: null, code_display: `SAVE-${MASK_CHAR.repeat(6)}` };
    expect(presentCode(bulk, stranger)).toEqual(masked);
    expect(presentCode(bulk, { ...stranger, isAdmin: true })).toEqual(masked);
  });

  it('shows a claimer of a bulk code its latest claimed code', () => {
    const viewer = { isAdmin: false, claimedCodes: ['SAVE-AAAAAA', 'SAVE-BBBBBB'], hasClaimed: true };
    expect(presentCode(bulk, viewer)).toEqual({ code: 'SAVE-BBBBBB', code_display: 'SAVE-BBBBBB' });
  });
});

describe('slugs', () => {
  it('makes lower-case hyphenated ASCII from a name', () => {
    expect(slugify('Summer Sale 2025!')).toBe('summer-sale-2025');
    expect(slugify('  Café & Crème  ')).toBe('cafe-creme');
    expect(slugify('!!!')).toBe('');
  });
});

describe('CSV cells', () => {
  it('leaves plain text alone and writes null as an empty cell', () => {
    expect(csvCell('SAVE-ABC')).toBe('SAVE-ABC');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a\nb')).toBe('"a\nb"');
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('\tX')).toBe("'\tX");
    expect(csvCell('\rX')).toBe(`"'\rX"`); // neutralised, then quoted for its CR
  });

  it('ends each line with CRLF', () => {
    expect(csvLine(['a', null, false])).toBe('a,,false\r\n');
  });
});

describe('ids', () => {
  it('tells a uuid from anything else', () => {
    expect(isUuid('0b5c5d1e-8f9a-4b3c-9d2e-1f0a9b8c7d6e')).toBe(true);
    expect(isUuid('nope')).toBe(false);
  });
});

describe('claimRefusal', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const open = { active: true, valid_from: null, valid_until: null };
  it('lets an active code inside its window be claimed', () => {
    expect(claimRefusal(open, now)).toBeNull();
    expect(claimRefusal({ ...open, valid_until: now }, now)).toBeNull();
  });
  it('refuses an inactive code and one outside its window', () => {
    expect(claimRefusal({ ...open, active: false }, now)).toBe('CODE_NOT_VALID');
    expect(claimRefusal({ ...open, valid_from: new Date('2026-06-02T00:00:00Z') }, now)).toBe(
      'CODE_NOT_VALID',
    );
    expect(claimRefusal({ ...open, valid_until: new Date('2026-05-31T00:00:00Z') }, now)).toBe(
      'CODE_NOT_VALID',
    );
  });
});
