import { Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

export type InboundStatus = 'received' | 'processed' | 'ignored' | 'failed';

/**
 * The webhook inbox: every event a provider sends, stored as received before anything is done with
 * it, once per provider event key (duplicates are answered and dropped), then processed by a job.
 */
@Entity('inbound_events')
@Index('uq_inbound_events_key', ['provider', 'event_key'], { unique: true })
@Index('ix_inbound_events_provider_status', ['provider', 'status', 'created_at'])
@Index('ix_inbound_events_site', ['site_id', 'created_at'])
export class InboundEvent extends TimestampedEntity {
  @Column({ type: 'varchar', length: 30 }) provider!: string;
  @Column({ type: 'varchar', length: 300 }) event_key!: string;
  @Column({ type: 'varchar', length: 60, nullable: true }) event_type!: string | null;
  /** Known once processing matched it to a payment. */
  @Column({ type: 'varchar', length: 64, nullable: true }) site_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) payment_transaction_id!: string | null;
  /** The event as authenticated (decrypted for gatewayone). */
  @Column({ type: 'jsonb' }) payload!: Record<string, unknown>;
  @Column({ type: 'varchar', length: 20, default: 'received' }) status!: InboundStatus;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'varchar', length: 1000, nullable: true }) last_error!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) processed_at!: Date | null;
}
