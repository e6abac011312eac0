import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { SecretsKeyCheck } from './secrets-key-check.entity.js';

@Injectable()
export class SecretsKeyCheckRepository {
  constructor(@InjectRepository(SecretsKeyCheck) private readonly checks: Repository<SecretsKeyCheck>) {}

  /** Stores the check value unless one exists (several instances may start at once), then reads it. */
  async ensure(name: string, checkValue: string): Promise<string> {
    await this.checks
      .createQueryBuilder()
      .insert()
      .values({ name, check_value: checkValue })
      .orIgnore()
      .execute();
    const row = await this.checks.findOneByOrFail({ name });
    return row.check_value;
  }
}
