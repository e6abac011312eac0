import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';

export const REFERRAL_STATUSES = ['pending', 'completed', 'cancelled'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

/**
 * A referee who signed up with a referrer's code (spec: Referral; DESIGN §5). A user is referred at
 * most once (unique `referee_user_id`). What it awarded is kept on the row so that a cancellation
 * reverses exactly that.
 */
@Entity('referrals')
@Index('ix_referrals_referrer_created', ['referrer_user_id', 'created_at', 'id'])
@Index('uq_referrals_referee', ['referee_user_id'], { unique: true })
@Check('ck_referrals_status', `"status" IN ('pending', 'completed', 'cancelled')`)
export class Referral extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'uuid' }) referrer_user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'referrer_user_id' })
  referrer?: Relation<User>;
  @Column({ type: 'uuid' }) referee_user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'referee_user_id' })
  referee?: Relation<User>;
  @Column({ type: 'varchar', length: 16 }) referral_code!: string;
  @Column({ type: 'varchar', length: 16 }) status!: ReferralStatus;
  @Column({ type: 'integer', default: 0 }) signup_points!: number;
  @Column({ type: 'integer', default: 0 }) purchase_points!: number;
  @Column({ type: 'uuid', nullable: true }) completed_payment_id!: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) cancel_reason!: string | null;
}
