import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';
import type { SubscriptionStatus } from '../subscriptions.rules.js';
import type { BillingInterval } from './subscription-tier.entity.js';
import { SubscriptionTier } from './subscription-tier.entity.js';

/**
 * A member's subscription to a tier (DESIGN §5). This service is the scheduler of record: it charges
 * the stored card (`gatewayone_registration_id`) at `next_billing_date` itself.
 */
@Entity('subscriptions')
@Check('ck_subscriptions_credits', '"credits_used_this_period" >= 0 AND "entry_credits_per_period" >= 0')
@Index('ix_subscriptions_user', ['user_id', 'created_at'])
@Index('ix_subscriptions_site_created', ['site_id', 'created_at', 'id'])
// The renewal job's scan: subscriptions due for a charge.
@Index('ix_subscriptions_due', ['next_billing_date'], {
  where: `status IN ('active', 'trialing', 'past_due') AND auto_renew`,
})
// The renewal job's look-up of charges whose answer was lost, paged in id order.
@Index('ix_subscriptions_charge_in_flight', ['id'], { where: 'pending_payment_id IS NOT NULL' })
export class Subscription extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'uuid' }) tier_id!: string;
  @ManyToOne(() => SubscriptionTier, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tier_id' })
  tierRow?: Relation<SubscriptionTier>;
  @Column({ type: 'varchar', length: 30 }) status!: SubscriptionStatus;
  @Column({ type: 'integer' }) amount_cents!: number;
  @Column({ type: 'char', length: 3 }) currency!: string;
  @Column({ type: 'varchar', length: 10 }) billing_interval!: BillingInterval;
  @Column({ type: 'varchar', length: 40, default: 'card' }) payment_method!: string;
  @Column({ type: 'boolean', default: true }) auto_renew!: boolean;
  @Column({ type: 'integer', default: 0 }) credits_used_this_period!: number;
  @Column({ type: 'integer', default: 0 }) entry_credits_per_period!: number;
  @Column({ type: 'integer', default: 0 }) trial_days!: number;
  @Column({ type: 'timestamptz', nullable: true }) current_period_start!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) current_period_end!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) next_billing_date!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) subscription_start_date!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) trial_start_date!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) trial_end_date!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) cooling_off_expiry!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) paused_until!: Date | null;
  /** When the running pause began: a resume extends the period by the pause's length. */
  @Column({ type: 'timestamptz', nullable: true }) paused_at!: Date | null;
  /**
   * The status the running pause began from (`active` or `trialing`): a resume restores it, so a trial
   * paused and resumed is still a trial, never charged. Null when not paused.
   */
  @Column({ type: 'varchar', length: 30, nullable: true }) paused_from!: SubscriptionStatus | null;
  @Column({ type: 'timestamptz', nullable: true }) cancelled_at!: Date | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) cancellation_reason!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) gatewayone_registration_id!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) gatewayone_schedule_id!: string | null;
  /** The payment of the current period (a cooling-off refund goes back through it). */
  @Column({ type: 'uuid', nullable: true }) current_payment_id!: string | null;
  /** The renewal charge in flight (claimed by one renewal run; settled by looking it up, never charged twice). */
  @Column({ type: 'uuid', nullable: true }) pending_payment_id!: string | null;
  /**
   * When the renewal run claimed that charge: a lost answer is looked up a minute after it, and one the
   * gateway never heard of fails an hour after it. Not `updated_at`, which every credit spent moves.
   * Read only while `pending_payment_id` is set.
   */
  @Column({ type: 'timestamptz', nullable: true }) pending_payment_claimed_at!: Date | null;
  /** Dunning: when the period's first charge failed, and how many charges of it have failed. */
  @Column({ type: 'timestamptz', nullable: true }) past_due_since!: Date | null;
  @Column({ type: 'integer', default: 0 }) failed_charges!: number;
  /** The renewal date a reminder was sent for (one reminder per renewal). */
  @Column({ type: 'timestamptz', nullable: true }) reminded_for!: Date | null;
  @Column({ type: 'integer', default: 0 }) streak_months!: number;
  @Column({ type: 'integer', default: 0 }) lifetime_months!: number;
  /** Loyalty milestones awarded (months → when), each once. */
  @Column({ type: 'jsonb', default: () => "'{}'" }) milestones_awarded!: Record<string, string>;
  /** `history`: every change (created, started, renewed, upgraded, paused, resumed, cancelled, …). */
  @Column({ type: 'jsonb', default: () => "'{}'" }) metadata!: Record<string, unknown>;
}
