import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, QueryFailedError, type Repository } from 'typeorm';
import { SubscriptionTier } from './entities/subscription-tier.entity.js';

export type NewTier = Omit<SubscriptionTier, 'id' | 'created_at' | 'updated_at'>;

const UNIQUE_VIOLATION = '23505';

/** True when `error` is the database refusing a duplicate tier name (the unique index decides). */
export function isDuplicateName(error: unknown): boolean {
  return (
    error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION
  );
}

@Injectable()
export class TiersRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** SubscriptionTiers in the ambient transaction when there is one. */
  private get tiers(): Repository<SubscriptionTier> {
    return this.tx.repo(SubscriptionTier);
  }

  private repo(manager?: EntityManager): Repository<SubscriptionTier> {
    return manager ? manager.getRepository(SubscriptionTier) : this.tiers;
  }

  findById(id: string, manager?: EntityManager): Promise<SubscriptionTier | null> {
    return this.repo(manager).findOne({ where: { id } });
  }

  findByName(
    siteId: string,
    normalizedName: string,
    manager?: EntityManager,
  ): Promise<SubscriptionTier | null> {
    return this.repo(manager).findOne({ where: { site_id: siteId, name_normalized: normalizedName } });
  }

  async insert(tier: NewTier, manager?: EntityManager): Promise<SubscriptionTier> {
    return this.repo(manager).save(this.repo(manager).create(tier));
  }

  async update(id: string, changes: Partial<SubscriptionTier>, manager?: EntityManager): Promise<void> {
    if (Object.keys(changes).length) await this.repo(manager).update({ id }, changes);
  }

  /**
   * A site's tiers by `sort_order`, then name; `activeOnly` for the public list. The cursor is the
   * last tier's id: the page continues after that tier's place in the order (keyset, no offsets).
   */
  list(siteId: string, activeOnly: boolean, limit: number, cursor?: string): Promise<SubscriptionTier[]> {
    const qb = this.tiers
      .createQueryBuilder('t')
      .where('t.site_id = :siteId', { siteId })
      .orderBy('t.sort_order', 'ASC')
      .addOrderBy('t.name_normalized', 'ASC')
      .take(limit);
    if (activeOnly) qb.andWhere('t.active = true');
    if (cursor)
      qb.andWhere(
        '(t.sort_order, t.name_normalized) > (SELECT c.sort_order, c.name_normalized FROM subscription_tiers c WHERE c.id = :cursor)',
        { cursor },
      );
    return qb.getMany();
  }
}
