import { createHmac } from 'node:crypto';
import { signingSecret } from './jwt-keys.rules.js';

const sign = (secret: string): string => {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify({ sub: 'u' })).toString('base64url');
  return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
};

describe('signingSecret', () => {
  const current = 'c'.repeat(40);
  const previous = 'p'.repeat(40);

  it('finds the secret that signed the token, current or previous', () => {
    expect(signingSecret(sign(current), [current, previous])).toBe(current);
    expect(signingSecret(sign(previous), [current, previous])).toBe(previous);
  });

  it('finds none for another secret, a tampered token or garbage', () => {
    expect(signingSecret(sign('x'.repeat(40)), [current, previous])).toBeNull();
    const token = sign(current);
    expect(signingSecret(`${token.slice(0, -2)}AA`, [current])).toBeNull();
    expect(signingSecret('not-a-token', [current])).toBeNull();
  });
});
