import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, type Repository } from 'typeorm';
import type { EntryMethod } from './entities/raffle-entry.entity.js';
import { RaffleEntry } from './entities/raffle-entry.entity.js';

export interface TakenTickets {
  current_entries: number;
  total_entries_available: number;
}

/** The queries of entering a raffle. Every write takes the caller's transaction. */
@Injectable()
export class EntriesRepository {
  constructor(@InjectRepository(RaffleEntry) private readonly entries: Repository<RaffleEntry>) {}

  /**
   * Adds to what the user holds, unless that passes `max` (null: no cap). One conditional upsert: two
   * parallel entries by one user cannot both pass the cap. False when it would.
   */
  async addToUserCount(
    manager: EntityManager,
    raffleId: string,
    userId: string,
    quantity: number,
    max: number | null,
  ): Promise<boolean> {
    if (max !== null && quantity > max) return false;
    const rows = await manager.query<Array<{ entries_count: number }>>(
      `INSERT INTO raffle_user_entries (raffle_id, user_id, entries_count) VALUES ($1, $2, $3)
       ON CONFLICT (raffle_id, user_id) DO UPDATE
         SET entries_count = raffle_user_entries.entries_count + EXCLUDED.entries_count
         WHERE $4::integer IS NULL OR raffle_user_entries.entries_count + EXCLUDED.entries_count <= $4::integer
       RETURNING entries_count`,
      [raffleId, userId, quantity, max],
    );
    return rows.length === 1;
  }

  /**
   * The hot row, touched last: one conditional UPDATE takes the tickets if the raffle is open and has
   * them, and closes it when they were the last (DESIGN §6 "Contention"). Null when refused.
   */
  async takeTickets(
    manager: EntityManager,
    raffleId: string,
    quantity: number,
    purchased: number,
  ): Promise<TakenTickets | null> {
    const result = await manager.query<[TakenTickets[], number]>(
      `UPDATE raffles
          SET current_entries = current_entries + $2,
              entries_purchased = entries_purchased + $3,
              closed = (current_entries + $2 >= total_entries_available),
              closed_at = CASE WHEN current_entries + $2 >= total_entries_available THEN now() ELSE closed_at END,
              updated_at = now()
        WHERE id = $1
          AND active AND NOT draft AND NOT archived AND NOT closed AND NOT is_drawn
          AND now() >= start_date AND now() < end_date
          AND current_entries + $2 <= total_entries_available
        RETURNING current_entries, total_entries_available`,
      [raffleId, quantity, purchased],
    );
    return result[0][0] ?? null;
  }

  async insert(manager: EntityManager, entry: Omit<RaffleEntry, 'id' | 'created_at'>): Promise<RaffleEntry> {
    const repo = manager.getRepository(RaffleEntry);
    return repo.save(repo.create(entry));
  }

  /** Whether the user already took the free route into this raffle. */
  async hasFreeEntry(manager: EntityManager, raffleId: string, userId: string): Promise<boolean> {
    return manager
      .getRepository(RaffleEntry)
      .exists({ where: { raffle_id: raffleId, user_id: userId, method: 'free' } });
  }

  findForPayment(paymentTransactionId: string, manager?: EntityManager): Promise<RaffleEntry | null> {
    return (manager ?? this.entries.manager).getRepository(RaffleEntry).findOne({
      where: { payment_transaction_id: paymentTransactionId },
    });
  }

  /** The newest `perRaffle` entries of each raffle, in one query. */
  latestOfRaffles(raffleIds: string[], perRaffle: number): Promise<RaffleEntry[]> {
    if (!raffleIds.length) return Promise.resolve([]);
    return this.entries
      .createQueryBuilder('e')
      .where(
        `e.id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY raffle_id ORDER BY created_at DESC, id DESC) AS n
                 FROM raffle_entries WHERE raffle_id = ANY(:ids)) ranked WHERE n <= :per)`,
        { ids: raffleIds, per: perRaffle },
      )
      .orderBy('e.created_at', 'DESC')
      .getMany();
  }

  ofUsers(userIds: string[], limitPerUser = 100): Promise<RaffleEntry[]> {
    if (!userIds.length) return Promise.resolve([]);
    return this.entries.find({
      where: { user_id: In(userIds) },
      order: { created_at: 'DESC' },
      take: limitPerUser * userIds.length,
    });
  }

  page(userId: string, limit: number, cursor?: string): Promise<RaffleEntry[]> {
    const qb = this.entries
      .createQueryBuilder('e')
      .where('e.user_id = :userId', { userId })
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .take(limit);
    if (cursor)
      qb.andWhere('(e.created_at, e.id) < (SELECT created_at, id FROM raffle_entries WHERE id = :cursor)', {
        cursor,
      });
    return qb.getMany();
  }

  countByMethod(raffleId: string, method: EntryMethod): Promise<number> {
    return this.entries.count({ where: { raffle_id: raffleId, method } });
  }
}
