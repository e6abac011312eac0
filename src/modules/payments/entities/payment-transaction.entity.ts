import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';

export const PAYMENT_STATUSES = [
  'pending',
  'succeeded',
  'failed',
  'cancelled',
  'review',
  'refunded',
  'partially_refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type Gateway = 'gatewayone' | 'gatewaytwo';
/** What a payment pays for: a raffle order, an amount alone, a membership's period, a merch order. */
export type PaymentPurpose = 'raffle' | 'generic' | 'subscription' | 'merch';
/**
 * What fulfilment did: entered the tickets, refunded because they could no longer be entered whole,
 * recorded the payment alone, or handed it to its purpose's feature (`fulfilled`).
 */
export type Fulfilment = 'entered' | 'refunded_unfillable' | 'recorded' | 'fulfilled';

/**
 * A payment at a gateway. Our `id` is the order id and the gateway's merchant reference. Money in
 * integer minor units; the server's own pricing of the order is kept in `order_details`.
 */
@Entity('payment_transactions')
@Index('ix_payment_transactions_site_created', ['site_id', 'created_at', 'id'])
@Index('ix_payment_transactions_user_created', ['user_id', 'created_at'])
@Index('ix_payment_transactions_reconcile', ['reconciled_at', 'created_at'], {
  where: `status IN ('pending', 'review')`,
})
// Payments given up here that reconciliation still watches for a late success, by age (`claimToReconcile`).
@Index('ix_payment_transactions_late_watch', ['created_at'], {
  where: `status IN ('failed', 'cancelled') AND fulfilled_at IS NULL`,
})
@Index('ix_payment_transactions_refund_held', ['refund_reserved_at'], { where: 'refund_pending_cents > 0' })
@Index('uq_payment_transactions_checkout', ['gateway', 'checkout_id'], {
  unique: true,
  where: 'checkout_id IS NOT NULL',
})
// A confirmation naming the gateway's payment id (endpoint 3's `payment_id`, as its answer gave it).
@Index('ix_payment_transactions_gateway_payment', ['gateway', 'gateway_transaction_id'], {
  where: 'gateway_transaction_id IS NOT NULL',
})
export class PaymentTransaction extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'uuid', nullable: true }) user_id!: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'varchar', length: 20 }) gateway!: Gateway;
  /** The hosted checkout (gatewayone) or order (gatewaytwo) id. */
  @Column({ type: 'varchar', length: 100, nullable: true }) checkout_id!: string | null;
  /** The gateway's payment id, once known. */
  @Column({ type: 'varchar', length: 100, nullable: true }) gateway_transaction_id!: string | null;
  @Column({ type: 'char', length: 3 }) currency!: string;
  @Column({ type: 'integer' }) amount_cents!: number;
  @Column({ type: 'integer', default: 0 }) refunded_cents!: number;
  /** Refunds sent to the gateway and not yet answered: reserved so two refunds cannot exceed the amount. */
  @Column({ type: 'integer', default: 0 }) refund_pending_cents!: number;
  /** When the newest refund in `refund_pending_cents` was reserved: held refunds are asked about from there. */
  @Column({ type: 'timestamptz', nullable: true }) refund_reserved_at!: Date | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) description!: string | null;
  @Column({ type: 'varchar', length: 40, nullable: true }) payment_method!: string | null;
  @Column({ type: 'varchar', length: 20, default: 'pending' }) status!: PaymentStatus;
  @Column({ type: 'numeric', precision: 6, scale: 2, nullable: true }) fraud_score!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) metadata!: Record<string, unknown>;
  @Column({ type: 'varchar', length: 20 }) purpose!: PaymentPurpose;
  @Column({ type: 'uuid', nullable: true }) raffle_id!: string | null;
  /** Tickets, bundles and the server's price breakdown. */
  @Column({ type: 'jsonb', default: () => "'{}'" }) order_details!: Record<string, unknown>;
  /** The buyer's account was made by this purchase (a guest): it gets `purchase_new` with a password link. */
  @Column({ type: 'boolean', default: false }) new_account!: boolean;
  /** The month the amount was counted against the buyer's spend limit, to release it on failure. */
  @Column({ type: 'varchar', length: 7, nullable: true }) spend_month!: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) ip_address!: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) user_agent!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) webhook_received_at!: Date | null;
  @Column({ type: 'jsonb', nullable: true }) webhook_data!: Record<string, unknown> | null;
  /** The gateway's last answer about this payment, as received. */
  @Column({ type: 'jsonb', nullable: true }) gateway_response!: Record<string, unknown> | null;
  @Column({ type: 'uuid', nullable: true }) subscription_id!: string | null;
  /** Set once, by whichever of webhook, confirmation or reconciliation fulfils first. */
  @Column({ type: 'timestamptz', nullable: true }) fulfilled_at!: Date | null;
  @Column({ type: 'varchar', length: 30, nullable: true }) fulfilment!: Fulfilment | null;
  /** Set once, by the notify job that queued the payment's e-mails (in their transaction). */
  @Column({ type: 'timestamptz', nullable: true }) notified_at!: Date | null;
  /** When reconciliation last asked the gateway about this open payment (its backoff counts from here). */
  @Column({ type: 'timestamptz', nullable: true }) reconciled_at!: Date | null;
}
