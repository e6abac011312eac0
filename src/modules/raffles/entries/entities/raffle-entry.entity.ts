import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';
import { Raffle } from '#app/modules/raffles/entities/raffle.entity.js';

export const ENTRY_METHODS = ['paid', 'credits', 'points', 'free', 'postal'] as const;
export type EntryMethod = (typeof ENTRY_METHODS)[number];

/** Why an entry was taken out of its raffle's draw before the close. */
export type EntryVoidReason = 'refunded' | 'account_deleted';

/**
 * One way in to a raffle: `entries_count` tickets numbered `ticket_from`..`ticket_to`, contiguous and
 * never overlapping another entry's (they come from the raffle's counter). A payment enters at most
 * once (unique `payment_transaction_id`), and a user takes the free route at most once per raffle.
 * A voided entry (its payment refunded whole, or its account erased, before the close) keeps its row and
 * its range, a financial record, but is on no ticket list and can win nothing.
 */
@Entity('raffle_entries')
@Index('ix_raffle_entries_raffle_tickets', ['raffle_id', 'ticket_from'])
@Index('ix_raffle_entries_user_created', ['user_id', 'created_at'])
// The newest entries of each listed raffle (EntriesRepository.latestOfRaffles), read as a top-N per raffle.
@Index('ix_raffle_entries_raffle_created', ['raffle_id', 'created_at', 'id'])
@Index('uq_raffle_entries_payment', ['payment_transaction_id'], {
  unique: true,
  where: 'payment_transaction_id IS NOT NULL',
})
@Index('uq_raffle_entries_free', ['raffle_id', 'user_id'], { unique: true, where: `method = 'free'` })
export class RaffleEntry extends BaseEntity {
  @Column({ type: 'uuid' }) raffle_id!: string;
  @ManyToOne(() => Raffle, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'raffle_id' })
  raffle?: Relation<Raffle>;
  @Column({ type: 'uuid' }) user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'varchar', length: 10 }) method!: EntryMethod;
  @Column({ type: 'integer' }) entries_count!: number;
  @Column({ type: 'integer' }) ticket_from!: number;
  @Column({ type: 'integer' }) ticket_to!: number;
  @Column({ type: 'integer', default: 0 }) points_spent!: number;
  @Column({ type: 'uuid', nullable: true }) payment_transaction_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) created_by!: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) note!: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) ip_address!: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) user_agent!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) voided_at!: Date | null;
  @Column({ type: 'varchar', length: 20, nullable: true }) void_reason!: EntryVoidReason | null;
}
