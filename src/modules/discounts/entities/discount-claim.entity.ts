import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';
import { DiscountCode } from './discount-code.entity.js';

/**
 * One claim of a discount code by a user (DESIGN §6): the code text it revealed (a bulk code's unique
 * code, or the shared code), the points it cost. "Once per user" is the database's to decide:
 * `once_per_user` holds the user id for codes without `allow_multiple_claims` and is unique per code.
 */
@Entity('discount_claims')
@Index('ix_discount_claims_user_code', ['user_id', 'discount_code_id', 'created_at'])
@Index('uq_discount_claims_once', ['discount_code_id', 'once_per_user'], {
  unique: true,
  where: '"once_per_user" IS NOT NULL',
})
export class DiscountClaim extends BaseEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'uuid' }) discount_code_id!: string;
  @ManyToOne(() => DiscountCode, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'discount_code_id' })
  discount_code?: Relation<DiscountCode>;
  @Column({ type: 'uuid' }) user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;
  @Column({ type: 'uuid', nullable: true }) once_per_user!: string | null;
  @Column({ type: 'uuid', nullable: true }) unique_code_id!: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) code!: string | null;
  @Column({ type: 'integer', default: 0 }) points_spent!: number;
}
