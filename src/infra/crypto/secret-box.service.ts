import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config/app-config.js';
import { decryptSecret, encryptSecret } from './secret-box.js';

/** Encrypts and decrypts secrets at rest under the configured SECRETS_KEY. */
@Injectable()
export class SecretBox {
  constructor(private readonly config: AppConfig) {}

  encrypt(plaintext: string): string {
    return encryptSecret(this.config.secretsKey, plaintext);
  }

  decrypt(stored: string): string {
    return decryptSecret(this.config.secretsKey, stored);
  }
}
