import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, IsNull, type Repository } from 'typeorm';
import { RefreshToken } from './entities/refresh-token.entity.js';

@Injectable()
export class RefreshTokensRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** RefreshTokens in the ambient transaction when there is one. */
  private get tokens(): Repository<RefreshToken> {
    return this.tx.repo(RefreshToken);
  }

  private repo(manager?: EntityManager): Repository<RefreshToken> {
    return manager ? manager.getRepository(RefreshToken) : this.tokens;
  }

  async create(
    row: Pick<RefreshToken, 'user_id' | 'family_id' | 'token_hash' | 'expires_at'>,
    manager?: EntityManager,
  ): Promise<void> {
    await this.repo(manager).insert(row);
  }

  findByHash(tokenHash: string, manager?: EntityManager): Promise<RefreshToken | null> {
    return this.repo(manager).findOne({ where: { token_hash: tokenHash } });
  }

  /**
   * Marks a token rotated at `at` (the moment of rotating, which a refresh racing this one is held against);
   * false when another request rotated (or revoked) it first.
   */
  async rotate(id: string, at: Date, manager: EntityManager): Promise<boolean> {
    const result = await manager
      .getRepository(RefreshToken)
      .update({ id, rotated_at: IsNull(), revoked_at: IsNull() }, { rotated_at: at });
    return (result.affected ?? 0) === 1;
  }

  async revokeFamily(familyId: string, now: Date, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ family_id: familyId, revoked_at: IsNull() }, { revoked_at: now });
  }

  async revokeAllOf(userId: string, now: Date, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ user_id: userId, revoked_at: IsNull() }, { revoked_at: now });
  }
}
