import { Check, Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';
import type { Sizing } from './merch-product.entity.js';

/** One line of a merch order: the product as it was priced when ordered. */
@Entity('merch_order_items')
@Check('ck_merch_order_items_copies', '"copies" > 0')
@Index('ix_merch_order_items_order', ['merch_order_id', 'position'])
export class MerchOrderItem extends TimestampedEntity {
  @Column({ type: 'uuid' })
  merch_order_id!: string;

  @Column({ type: 'uuid' })
  merch_product_id!: string;

  /** The line's place in the order as it was placed (lines are read back in this order). */
  @Column({ type: 'smallint', default: 0 })
  position!: number;

  @Column({ type: 'varchar', length: 100 })
  sku!: string;

  @Column({ type: 'varchar', length: 32 })
  sizing!: Sizing;

  @Column({ type: 'integer' })
  copies!: number;

  /** What the line costs the buyer, in major units (unit price × copies), in the currency's own digits (0–3). */
  @Column({ type: 'numeric', precision: 15, scale: 3 })
  recipient_cost_amount!: string;

  @Column({ type: 'char', length: 3 })
  recipient_cost_currency!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  assets!: Record<string, string>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  attributes!: Record<string, unknown>;
}
