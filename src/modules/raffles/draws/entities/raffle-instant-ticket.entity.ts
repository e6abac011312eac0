import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An instant-win ticket, fixed at publication from the seed (DESIGN §6 "Instant wins") and kept secret
 * until the draw reveals the seed. `entry_id` is set once, by the entry whose range covers it.
 */
@Entity('raffle_instant_tickets')
export class RaffleInstantTicket {
  @PrimaryColumn({ type: 'uuid' }) raffle_id!: string;
  @PrimaryColumn({ type: 'integer' }) ticket!: number;
  @Column({ type: 'varchar', length: 200 }) prize!: string;
  @Column({ type: 'uuid', nullable: true }) entry_id!: string | null;
}
