import { Check, Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

@Entity('subscription_tiers')
@Check(
  'ck_subscription_tiers_counts',
  '"amount_cents" >= 0 AND "entry_credits_per_period" >= 0 AND "trial_days" >= 0',
)
// A tier's name is unique per site, compared without case: subscriptions and upgrades name tiers by it.
@Index('uq_subscription_tiers_site_name', ['site_id', 'name_normalized'], { unique: true })
// The public list: a site's active tiers in their display order.
@Index('ix_subscription_tiers_site_order', ['site_id', 'sort_order', 'name_normalized'])
export class SubscriptionTier extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** lower(trim(name)), so the unique index and name lookups need no expression. */
  @Column({ type: 'varchar', length: 100 })
  name_normalized!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  display_name!: string | null;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** Price per billing interval, in cents. */
  @Column({ type: 'integer' })
  amount_cents!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ type: 'varchar', length: 10, default: 'month' })
  billing_interval!: BillingInterval;

  /** Days of free trial a new subscription on this tier starts with (DESIGN §5); 0 = none. */
  @Column({ type: 'integer', default: 0 })
  trial_days!: number;

  @Column({ type: 'integer', default: 0 })
  entry_credits_per_period!: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  features!: string[];

  @Column({ type: 'integer', default: 0 })
  sort_order!: number;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  image_url!: string | null;
}
