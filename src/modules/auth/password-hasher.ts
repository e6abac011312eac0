import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';
import { AppConfig } from '#app/config/app-config.js';

/** The test suite's cost (`passwordHashing: 'light'`): still argon2id, at 1 MiB and one pass. */
const LIGHT = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/**
 * argon2id with the library's defaults (64 MiB, 3 passes). A login for an unknown account still spends
 * one verification on a fixed hash, so response time does not reveal which e-mails exist. A hash keeps its
 * own parameters, so verification follows whatever cost a hash was made at.
 */
@Injectable()
export class PasswordHasher {
  private decoy: Promise<string> | undefined;
  private readonly options: argon2.HashOptions & { raw?: false };

  constructor(config: AppConfig) {
    this.options =
      config.passwordHashing === 'light' ? { type: argon2.argon2id, ...LIGHT } : { type: argon2.argon2id };
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, this.options);
  }

  async verify(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) {
      this.decoy ??= this.hash('decoy password for timing');
      await argon2.verify(await this.decoy, password);
      return false;
    }
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
