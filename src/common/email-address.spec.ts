import { normalizedEmail } from './email-address';

describe('normalizedEmail', () => {
  it('is one form for one address however it is written', () => {
    const composed = 'Jos\u00e9@Example.com';
    const decomposed = 'JOSE\u0301@example.COM';
    expect(normalizedEmail(composed)).toBe('jos\u00e9@example.com');
    expect(normalizedEmail(decomposed)).toBe(normalizedEmail(composed));
  });

  it('drops surrounding blanks and leaves plain addresses as lower case', () => {
    expect(normalizedEmail('  Ann.Lee+raffles@Example.org ')).toBe('ann.lee+raffles@example.org');
  });

  it('composes what lower-casing leaves decomposable', () => {
    // The Ångström sign and "A" with a combining ring are the one letter "å".
    expect(normalizedEmail('\u212Bsa@example.com')).toBe('\u00e5sa@example.com');
    expect(normalizedEmail('A\u030Asa@example.com')).toBe('\u00e5sa@example.com');
  });

  it('is stable: normalising twice changes nothing', () => {
    for (const e of ['\u0130stanbul@example.com', 'stra\u00dfe@example.de', 'e\u0301e\u0301@x.io'])
      expect(normalizedEmail(normalizedEmail(e))).toBe(normalizedEmail(e));
  });
});
