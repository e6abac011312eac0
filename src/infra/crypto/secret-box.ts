import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret could not be read: wrong key, or the text was altered. Never carries the secret. */
export class SecretDecryptionError extends Error {
  constructor(reason: string) {
    super(`Cannot decrypt a stored secret: ${reason}`);
    this.name = 'SecretDecryptionError';
  }
}

function requireKey(key: Buffer): Buffer {
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes (64 hexadecimal characters)');
  return key;
}

/**
 * Secrets at rest (DESIGN §8): AES-256-GCM, a random 12-byte IV per value, the 16-byte tag kept with it.
 * Text format `v1:<iv>:<tag>:<ciphertext>` (base64), so a later key or algorithm can be told apart by
 * its prefix and old values still read.
 */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, requireKey(key), iv, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const parts = stored.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretDecryptionError('unknown format');
  const [, ivText, tagText, bodyText] = parts;
  const iv = Buffer.from(ivText, 'base64');
  const tag = Buffer.from(tagText, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretDecryptionError('malformed');
  try {
    const decipher = createDecipheriv(ALGORITHM, requireKey(key), iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(bodyText, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretDecryptionError('wrong SECRETS_KEY or altered value');
  }
}
