import {
  Check,
  Column,
  Entity,
  JoinColumn,
  OneToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '#app/modules/users/entities/user.entity.js';

/** A user's own spend limit and self-pause (DESIGN §6 responsible play). No row = no limits. */
@Entity('user_limits')
@Check('ck_user_limits_limit', `"monthly_spend_limit_cents" IS NULL OR "monthly_spend_limit_cents" >= 0`)
@Check('ck_user_limits_pending', `"pending_limit_cents" IS NULL OR "pending_limit_cents" >= 0`)
// A pending value means nothing without the time it applies (a null value with a time = removal).
@Check('ck_user_limits_pending_time', `"pending_limit_cents" IS NULL OR "pending_effective_at" IS NOT NULL`)
export class UserLimit {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @OneToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'integer', nullable: true }) monthly_spend_limit_cents!: number | null;
  @Column({ type: 'integer', nullable: true }) pending_limit_cents!: number | null;
  @Column({ type: 'timestamptz', nullable: true }) pending_effective_at!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) paused_until!: Date | null;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at!: Date;
}
