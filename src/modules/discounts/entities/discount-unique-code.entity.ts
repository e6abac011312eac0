import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';
import { DiscountCode } from './discount-code.entity.js';

/**
 * One generated code of a bulk discount code, unique per site (DESIGN §6). A claim (a later feature)
 * takes an unclaimed one with `FOR UPDATE SKIP LOCKED` through the partial index and sets
 * `claimed_by_user_id` and `claimed_at`; `claimed_at` alone says "claimed", so a user row removed
 * later never hands its code out again.
 */
@Entity('discount_unique_codes')
@Index('uq_discount_unique_codes_site_code', ['site_id', 'code'], { unique: true })
@Index('ix_discount_unique_codes_code', ['discount_code_id', 'code'])
@Index('ix_discount_unique_codes_unclaimed', ['discount_code_id'], { where: 'claimed_at IS NULL' })
@Index('ix_discount_unique_codes_claimer', ['claimed_by_user_id', 'discount_code_id'])
export class DiscountUniqueCode extends BaseEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'uuid' }) discount_code_id!: string;
  @ManyToOne(() => DiscountCode, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'discount_code_id' })
  discount_code?: Relation<DiscountCode>;
  @Column({ type: 'varchar', length: 64 }) code!: string;
  @Column({ type: 'uuid', nullable: true }) claimed_by_user_id!: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'claimed_by_user_id' })
  claimed_by?: Relation<User>;
  @Column({ type: 'timestamptz', nullable: true }) claimed_at!: Date | null;
}
