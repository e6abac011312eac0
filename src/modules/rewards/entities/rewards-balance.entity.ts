import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  OneToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '#app/modules/users/entities/user.entity.js';

/**
 * A user's points balance: the sum of its ledger, kept up to date in the same transaction as each
 * ledger row (DESIGN §6). The CHECK is the backstop; spends are conditional updates that never get there.
 */
@Entity('rewards_balances')
@Index('ix_rewards_balances_site', ['site_id'])
@Index('uq_rewards_balances_referral_code', ['site_id', 'referral_code'], { unique: true })
@Check('ck_rewards_balances_current_points', `"current_points" >= 0`)
@Check('ck_rewards_balances_lifetime_earned', `"lifetime_earned" >= 0`)
export class RewardsBalance {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @OneToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'integer', default: 0 }) current_points!: number;
  @Column({ type: 'integer', default: 0 }) lifetime_earned!: number;
  /** The summary's counters, moved in the transactions that move the points (never a sum over the ledger). */
  @Column({ type: 'integer', default: 0 }) discount_claims_count!: number;
  @Column({ type: 'integer', default: 0 }) referral_points_awarded!: number;
  @Column({ type: 'integer', default: 0 }) referral_signup_points_awarded!: number;
  @Column({ type: 'integer', default: 0 }) referral_signups_count!: number;
  @Column({ type: 'integer', default: 0 }) successful_referrals_count!: number;
  /** This user's code for referring others: made on first request, stable after. */
  @Column({ type: 'varchar', length: 16, nullable: true }) referral_code!: string | null;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at!: Date;
}
