import { Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

/** A label for discount codes (spec "Tag"). Slug unique per site. */
@Entity('tags')
@Index('uq_tags_site_slug', ['site_id', 'slug'], { unique: true })
@Index('ix_tags_site_name', ['site_id', 'name', 'id'])
export class Tag extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: 'varchar', length: 100 }) slug!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) color!: string | null;
  @Column({ type: 'boolean', default: true }) active!: boolean;
}
