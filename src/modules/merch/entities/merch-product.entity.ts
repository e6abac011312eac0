import { Check, Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

export const SIZINGS = ['fillPrintArea', 'fitPrintArea', 'stretchToPrintArea'] as const;
export type Sizing = (typeof SIZINGS)[number];

/** Something a site sells and the print-on-demand provider makes (DESIGN §10, merch bodies). */
@Entity('merch_products')
@Check('ck_merch_products_amount', '"amount_cents" >= 0')
// The public list: a site's active products.
@Index('ix_merch_products_site', ['site_id', 'active', 'created_at'])
export class MerchProduct extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** The provider's SKU. */
  @Column({ type: 'varchar', length: 100 })
  sku!: string;

  @Column({ type: 'integer' })
  amount_cents!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ type: 'varchar', length: 32, default: 'fillPrintArea' })
  sizing!: Sizing;

  /** `{size, color, …}` as the provider names them. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  attributes!: Record<string, unknown>;

  /** Print area → image URL. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  assets!: Record<string, string>;

  @Column({ type: 'boolean', default: true })
  active!: boolean;
}
