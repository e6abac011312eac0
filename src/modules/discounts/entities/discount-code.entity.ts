import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';
import { DiscountBrand } from './discount-brand.entity.js';

/**
 * A discount offer (spec "Discount code"). A single code keeps its text in `code`; a bulk code keeps
 * none there (`code` null) and owns its generated codes in `discount_unique_codes`. Deleting is soft
 * (`deleted_at`): claims and their codes outlive the offer.
 */
@Entity('discount_codes')
@Index('ix_discount_codes_site_created', ['site_id', 'created_at', 'id'])
@Index('ix_discount_codes_brand', ['discount_brand_id'])
@Index('ix_discount_codes_third_party', ['site_id', 'third_party_id'])
@Index('ix_discount_codes_bulk_shape', ['site_id', 'prefix', 'code_length'], { where: 'is_bulk_code' })
export class DiscountCode extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'uuid' }) discount_brand_id!: string;
  @ManyToOne(() => DiscountBrand, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'discount_brand_id' })
  discount_brand?: Relation<DiscountBrand>;

  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) category!: string | null;
  @Column({ type: 'text', nullable: true }) terms!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true }) code!: string | null;
  @Column({ type: 'boolean', default: true }) code_required!: boolean;
  @Column({ type: 'integer', nullable: true }) code_length!: number | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) code_pattern!: string | null;
  /** Bulk codes: the text every generated code starts with. */
  @Column({ type: 'varchar', length: 32, nullable: true }) prefix!: string | null;
  @Column({ type: 'boolean', default: true }) alphanumeric!: boolean;
  @Column({ type: 'boolean', default: false }) is_bulk_code!: boolean;
  @Column({ type: 'boolean', default: false }) allow_multiple_claims!: boolean;
  /** Bulk codes: how many unique codes were generated (they never go away: claims only mark them). */
  @Column({ type: 'integer', nullable: true }) generated_count!: number | null;

  @Column({ type: 'integer', default: 0 }) current_uses!: number;
  @Column({ type: 'integer', nullable: true }) max_uses!: number | null;
  @Column({ type: 'integer' }) points_required!: number;
  /** A percentage (0–100), not money: kept as the JSON number it arrived as. */
  @Column({ type: 'double precision', nullable: true }) discount_percentage!: number | null;

  @Column({ type: 'boolean', default: true }) active!: boolean;
  @Column({ type: 'boolean', default: false }) featured!: boolean;
  @Column({ type: 'timestamptz', nullable: true }) valid_from!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) valid_until!: Date | null;

  @Column({ type: 'varchar', length: 1000, nullable: true }) partner_logo!: string | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) partner_url!: string | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) thumbnail!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) third_party_id!: string | null;

  @Column({ type: 'timestamptz', nullable: true }) deleted_at!: Date | null;
}
