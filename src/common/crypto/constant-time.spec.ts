import { createHmac, timingSafeEqual } from 'node:crypto';
import { sameBytes, sameSecretText } from './constant-time';

describe('constant-time comparison of secrets', () => {
  const mac = createHmac('sha256', 'k').update('body').digest();

  it('accepts the same bytes', () => {
    expect(sameBytes(Buffer.from(mac), mac)).toBe(true);
  });

  it('refuses one flipped bit, first byte or last', () => {
    for (const at of [0, mac.length - 1]) {
      const wrong = Buffer.from(mac);
      wrong[at] ^= 1;
      expect(sameBytes(wrong, mac)).toBe(false);
    }
  });

  it('refuses a shorter or longer value without throwing (timingSafeEqual alone would throw)', () => {
    expect(() => timingSafeEqual(mac.subarray(0, 16), mac)).toThrow();
    expect(sameBytes(mac.subarray(0, 16), mac)).toBe(false);
    expect(sameBytes(Buffer.concat([mac, Buffer.alloc(1)]), mac)).toBe(false);
    expect(sameBytes(Buffer.alloc(0), mac)).toBe(false);
  });

  it('compares secret text of any length through equal-length digests', () => {
    expect(sameSecretText('metrics-token', 'metrics-token')).toBe(true);
    expect(sameSecretText('metrics-toke', 'metrics-token')).toBe(false);
    expect(sameSecretText('', 'metrics-token')).toBe(false);
    expect(sameSecretText('metrics-token-and-more', 'metrics-token')).toBe(false);
  });
});
