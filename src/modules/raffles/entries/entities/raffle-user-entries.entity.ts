import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many tickets a user holds in a raffle, every way in counted: the row a conditional upsert checks
 * `max_entries` against, so parallel entries by one user can never pass the cap together.
 */
@Entity('raffle_user_entries')
export class RaffleUserEntries {
  @PrimaryColumn({ type: 'uuid' }) raffle_id!: string;
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @Column({ type: 'integer' }) entries_count!: number;
}
