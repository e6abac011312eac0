import { Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

export const STATUS_STAGES = [
  'awaiting_payment',
  'submitted',
  'in_progress',
  'complete',
  'cancelled',
  'failed',
] as const;
export type StatusStage = (typeof STATUS_STAGES)[number];

/** A merch order (spec "Merch order"; DESIGN §5 for `status_stage`). */
@Entity('merch_orders')
// Endpoint 10: a site's orders newest first, optionally of one stage (keyset paging on created_at, id).
@Index('ix_merch_orders_site_created', ['site_id', 'created_at', 'id'])
@Index('ix_merch_orders_site_stage_created', ['site_id', 'status_stage', 'created_at', 'id'])
// The payment's fulfilment finds its order by the payment.
@Index('uq_merch_orders_payment', ['payment_id'], { unique: true, where: '"payment_id" IS NOT NULL' })
// A callback finds its order by the secret token in its URL.
@Index('uq_merch_orders_callback_token', ['callback_token'], { unique: true })
export class MerchOrder extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  @Column({ type: 'uuid' })
  user_id!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  checkout_id!: string | null;

  /** Our payment transaction's id (the order id at the gateway). */
  @Column({ type: 'uuid', nullable: true })
  payment_id!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  fulfilment_order_id!: string | null;

  /** Never returned: it authenticates the provider's callbacks (it is in `callback_url`). */
  @Column({ type: 'varchar', length: 64 })
  callback_token!: string;

  @Column({ type: 'varchar', length: 1000 })
  callback_url!: string;

  /** The provider's `idempotencyKey`: one per order, for every retry. */
  @Column({ type: 'uuid' })
  idempotency_key!: string;

  @Column({ type: 'varchar', length: 32, default: 'awaiting_payment' })
  status_stage!: StatusStage;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  status_details!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  charges!: unknown;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  shipments!: unknown;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata!: Record<string, unknown>;

  @Column({ type: 'integer' })
  amount_cents!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ type: 'varchar', length: 32 })
  shipping_method!: string;

  @Column({ type: 'varchar', length: 200 })
  recipient_name!: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  recipient_email!: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  recipient_phone!: string | null;

  @Column({ type: 'varchar', length: 200 })
  address_line1!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  address_line2!: string | null;

  @Column({ type: 'varchar', length: 100 })
  town_or_city!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  state_or_county!: string | null;

  @Column({ type: 'varchar', length: 20 })
  postal_or_zip_code!: string;

  @Column({ type: 'char', length: 2 })
  country_code!: string;
}
