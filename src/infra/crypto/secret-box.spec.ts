import { decryptSecret, encryptSecret, SecretDecryptionError } from './secret-box.js';

const KEY = Buffer.alloc(32, 1);

describe('secrets at rest', () => {
  it('reads back what it stored, in the versioned v1:<iv>:<tag>:<ciphertext> form', () => {
    const stored = encryptSecret(KEY, 'smtp-password-1234');
    expect(stored).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain('smtp-password-1234');
    expect(decryptSecret(KEY, stored)).toBe('smtp-password-1234');
  });

  it('uses a fresh 12-byte IV each time, so equal secrets do not look equal', () => {
    const a = encryptSecret(KEY, 'same');
    const b = encryptSecret(KEY, 'same');
    expect(a).not.toBe(b);
    expect(Buffer.from(a.split(':')[1], 'base64')).toHaveLength(12);
    expect(Buffer.from(a.split(':')[2], 'base64')).toHaveLength(16);
  });

  it('keeps unicode and empty text intact', () => {
    expect(decryptSecret(KEY, encryptSecret(KEY, 'pässwörd ✓'))).toBe('pässwörd ✓');
    expect(decryptSecret(KEY, encryptSecret(KEY, ''))).toBe('');
  });

  it('refuses another key, without revealing anything', () => {
    const stored = encryptSecret(KEY, 'top-secret');
    expect(() => decryptSecret(Buffer.alloc(32, 2), stored)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(Buffer.alloc(32, 2), stored)).not.toThrow(/top-secret/);
  });

  it('refuses an altered ciphertext, tag or format', () => {
    const [v, iv, tag, body] = encryptSecret(KEY, 'top-secret').split(':');
    const flipped = Buffer.from(body, 'base64');
    flipped[0] ^= 1;
    expect(() => decryptSecret(KEY, [v, iv, tag, flipped.toString('base64')].join(':'))).toThrow(
      SecretDecryptionError,
    );
    expect(() => decryptSecret(KEY, [v, iv, Buffer.alloc(16).toString('base64'), body].join(':'))).toThrow(
      SecretDecryptionError,
    );
    expect(() => decryptSecret(KEY, `v2:${iv}:${tag}:${body}`)).toThrow(/unknown format/);
    expect(() => decryptSecret(KEY, 'plain text')).toThrow(/unknown format/);
  });

  it('wants a 32-byte key', () => {
    expect(() => encryptSecret(Buffer.alloc(16), 'x')).toThrow(/32 bytes/);
  });
});
