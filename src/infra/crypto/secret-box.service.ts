import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config/app-config.js';
import { decryptSecret, encryptSecret } from './secret-box.js';

/**
 * Encrypts secrets at rest under the configured SECRETS_KEY, and decrypts them under it or, while a
 * rotation is under way, under one of SECRETS_KEY_PREVIOUS (until `npm run secrets:rotate` has
 * re-encrypted everything under the new key).
 */
@Injectable()
export class SecretBox {
  constructor(private readonly config: AppConfig) {}

  encrypt(plaintext: string): string {
    return encryptSecret(this.config.secretsKey, plaintext);
  }

  decrypt(stored: string): string {
    return decryptWithAny([this.config.secretsKey, ...this.config.secretsKeysPrevious], stored);
  }

  /** The value encrypted under the current key (what rotation writes back); unchanged text if it already is. */
  reencrypt(stored: string): string {
    try {
      decryptSecret(this.config.secretsKey, stored);
      return stored;
    } catch {
      return this.encrypt(this.decrypt(stored));
    }
  }
}

/** Decrypts under the first of `keys` that opens the value. */
export function decryptWithAny(keys: Buffer[], stored: string): string {
  let last: unknown;
  for (const key of keys) {
    try {
      return decryptSecret(key, stored);
    } catch (error) {
      last = error;
    }
  }
  throw last;
}
