import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SecretBox } from './secret-box.service.js';
import { SecretsKeyCheckRepository } from './secrets-key-check.repository.js';

const CHECK_NAME = 'SECRETS_KEY';
const CHECK_TEXT = 'secrets-key-check-v1';

export class WrongSecretsKeyError extends Error {
  constructor() {
    super(
      'SECRETS_KEY does not match the key this database was first started with: its encrypted secrets ' +
        '(site API keys, SMTP passwords) cannot be read. Start with the original SECRETS_KEY.',
    );
    this.name = 'WrongSecretsKeyError';
  }
}

/** Start-up check (DESIGN §8): a wrong SECRETS_KEY fails loudly now, not silently at the first e-mail. */
@Injectable()
export class SecretsKeyCheckService implements OnModuleInit {
  constructor(
    private readonly box: SecretBox,
    private readonly checks: SecretsKeyCheckRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    const stored = await this.checks.ensure(CHECK_NAME, this.box.encrypt(CHECK_TEXT));
    let text: string;
    try {
      text = this.box.decrypt(stored);
    } catch {
      throw new WrongSecretsKeyError();
    }
    if (text !== CHECK_TEXT) throw new WrongSecretsKeyError();
  }
}
