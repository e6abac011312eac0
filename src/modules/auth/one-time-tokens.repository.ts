import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, In, IsNull, type Repository } from 'typeorm';
import { OneTimeToken, type OneTimePurpose } from './entities/one-time-token.entity.js';

@Injectable()
export class OneTimeTokensRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** OneTimeTokens in the ambient transaction when there is one. */
  private get tokens(): Repository<OneTimeToken> {
    return this.tx.repo(OneTimeToken);
  }

  async create(
    row: Pick<OneTimeToken, 'user_id' | 'purpose' | 'token_hash' | 'expires_at'>,
    manager: EntityManager,
  ): Promise<void> {
    await manager.getRepository(OneTimeToken).insert(row);
  }

  /**
   * Spends a token: one conditional UPDATE, so two concurrent uses cannot both succeed.
   * Answers the token's user when it was valid, unused and unexpired.
   */
  async consume(
    tokenHash: string,
    purposes: readonly OneTimePurpose[],
    now: Date,
    manager: EntityManager,
  ): Promise<{ user_id: string; purpose: OneTimePurpose } | null> {
    const result = await manager.query<[Array<{ user_id: string; purpose: OneTimePurpose }>, number]>(
      `UPDATE one_time_tokens SET used_at = $2
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND purpose = ANY($3)
        RETURNING user_id, purpose`,
      [tokenHash, now, purposes],
    );
    return result[0][0] ?? null;
  }

  /** After a password change, outstanding links of `purposes` must not work any more. */
  async spendAll(
    userId: string,
    purposes: readonly OneTimePurpose[],
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    await manager
      .getRepository(OneTimeToken)
      .update({ user_id: userId, purpose: In(purposes), used_at: IsNull() }, { used_at: now });
  }

  findByHash(tokenHash: string): Promise<OneTimeToken | null> {
    return this.tokens.findOne({ where: { token_hash: tokenHash } });
  }
}
