import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecretBox } from './secret-box.service.js';
import { SecretsKeyCheck } from './secrets-key-check.entity.js';
import { SecretsKeyCheckRepository } from './secrets-key-check.repository.js';
import { SecretsKeyCheckService } from './secrets-key-check.service.js';

/** Secrets at rest: the AES-256-GCM box and the start-up check of its key. */
@Module({
  imports: [TypeOrmModule.forFeature([SecretsKeyCheck])],
  providers: [SecretBox, SecretsKeyCheckRepository, SecretsKeyCheckService],
  exports: [SecretBox],
})
export class CryptoModule {}
