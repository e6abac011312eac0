import { Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

export type Giveaway = 'draw' | 'instant';

/**
 * A Raffle winner (spec): a draw's winning entry (`giveaway: "draw"`, `draw_index` its index in the proof)
 * or an instant win (`giveaway: "instant"`). An entry wins the main draw at most once.
 */
@Entity('raffle_winners')
@Index('uq_raffle_winners_draw_entry', ['raffle_id', 'entry_id'], {
  unique: true,
  where: `giveaway = 'draw'`,
})
@Index('uq_raffle_winners_ticket', ['raffle_id', 'giveaway', 'ticket'], { unique: true })
@Index('ix_raffle_winners_unclaimed', ['site_id', 'created_at'], { where: 'claimed = false' })
export class RaffleWinner extends TimestampedEntity {
  @Column({ type: 'uuid' }) raffle_id!: string;
  @Column({ type: 'uuid' }) entry_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'varchar', length: 10 }) giveaway!: Giveaway;
  @Column({ type: 'varchar', length: 100, nullable: true }) giveaway_reference!: string | null;
  @Column({ type: 'text', nullable: true }) prize_description!: string | null;
  @Column({ type: 'text', nullable: true }) image!: string | null;
  /** The winning ticket. */
  @Column({ type: 'integer' }) ticket!: number;
  /** The draw index i of §6 (null for an instant win). */
  @Column({ type: 'integer', nullable: true }) draw_index!: number | null;
  /** What the public sees: first name and county only (CAP Code 8.28.5). */
  @Column({ type: 'varchar', length: 200 }) public_name!: string;
  @Column({ type: 'timestamptz' }) date_won!: Date;
  @Column({ type: 'boolean', default: false }) claimed!: boolean;
  @Column({ type: 'timestamptz', nullable: true }) claimed_at!: Date | null;
}
