import { Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

/** A partner brand that discount codes belong to (spec "Discount brand"). Slug unique per site. */
@Entity('discount_brands')
@Index('uq_discount_brands_site_slug', ['site_id', 'slug'], { unique: true })
@Index('ix_discount_brands_site_name', ['site_id', 'name', 'id'])
export class DiscountBrand extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'varchar', length: 200 }) name!: string;
  @Column({ type: 'varchar', length: 200 }) slug!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) collection_id!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) item_id!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) locale_id!: string | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) logo!: string | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) logo_black_and_white!: string | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) thumbnail!: string | null;
  /** Free text as the spec types it ("Up to 40%"). */
  @Column({ type: 'varchar', length: 100, nullable: true }) max_discount!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) published_on!: Date | null;
  @Column({ type: 'boolean', default: false }) archived!: boolean;
  @Column({ type: 'boolean', default: false }) draft!: boolean;
}
