import {
  Check,
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '#app/modules/users/entities/user.entity.js';

/**
 * What a user spent on paid ways in, per calendar month (UTC). Orders reserve against it with one
 * conditional upsert, so parallel orders can never pass the limit together.
 */
@Entity('user_monthly_spend')
@Check('ck_user_monthly_spend_spent', `"spent_cents" >= 0`)
@Check('ck_user_monthly_spend_month', `"month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`)
export class UserMonthlySpend {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  /** `YYYY-MM`, UTC. */
  @PrimaryColumn({ type: 'varchar', length: 7 }) month!: string;
  @Column({ type: 'integer', default: 0 }) spent_cents!: number;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at!: Date;
}
