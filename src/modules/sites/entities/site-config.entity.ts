import { Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

/**
 * A site (tenant). The foundation keeps the minimal shape (DESIGN §3); the catalogue adds the provider
 * settings of the spec's Site configuration.
 */
@Entity('site_configs')
export class SiteConfig extends TimestampedEntity {
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  @Column({ type: 'varchar', length: 200 })
  display_name!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  frontend_url!: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  additional_settings!: Record<string, unknown>;
}
