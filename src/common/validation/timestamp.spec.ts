import { readsAsTimestamp } from './timestamp.js';

describe('timestamps a field takes', () => {
  it('takes the ISO 8601 forms a Date reads', () => {
    for (const v of [
      '2026-06-01T00:00:00Z',
      '2026-06-01T10:00:00.123+01:00',
      '2026-06-01',
      '2026-06-01T10:00',
      new Date(0).toISOString(),
    ])
      expect(readsAsTimestamp(v)).toBe(true);
  });

  it('refuses the ISO 8601 forms nothing after it reads, impossible dates and non-strings', () => {
    for (const v of [
      '+2026-06-01T00:00:00Z',
      '2026-06-01T10:00:00,5Z',
      '2026-W23-1',
      '20260601',
      '2026-06-01T10Z',
      '2026-160',
      '2026-02-30T00:00:00Z',
      'tomorrow',
      1780272000000,
      null,
    ])
      expect(readsAsTimestamp(v)).toBe(false);
  });

  it('holds to a T between date and time when asked', () => {
    expect(readsAsTimestamp('2026-06-01 10:00:00Z')).toBe(true);
    expect(readsAsTimestamp('2026-06-01 10:00:00Z', true)).toBe(false);
  });
});
