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
 * A user's bonus entry credits (won on the spin wheel), spent on raffle entries after a membership's
 * (`method: "credits"`). Spends are one conditional UPDATE; the CHECK is the backstop.
 */
@Entity('bonus_credits')
@Index('ix_bonus_credits_site', ['site_id'])
@Check('ck_bonus_credits_credits', '"credits" >= 0')
export class BonusCredits {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @OneToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'integer', default: 0 }) credits!: number;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at!: Date;
}
