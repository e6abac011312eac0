import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/**
 * argon2id with the library's defaults (64 MiB, 3 passes). A login for an unknown account still spends
 * one verification on a fixed hash, so response time does not reveal which e-mails exist.
 */
@Injectable()
export class PasswordHasher {
  private decoy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
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
