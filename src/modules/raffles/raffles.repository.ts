import { keepPlan } from '#app/infra/database/kept-plans.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, In, QueryFailedError, type Repository } from 'typeorm';
import { Raffle } from './entities/raffle.entity.js';

export type NewRaffle = Omit<
  Raffle,
  | 'created_at'
  | 'updated_at'
  | 'draw_seed'
  | 'draw_seed_hash'
  | 'current_entries'
  | 'entries_purchased'
  | 'ticket_list_hash'
  | 'ticket_count'
  | 'draw_beacon'
  | 'instant_win_total'
>;

/** What entering a raffle needs to know of it: read by every paid order's plan (its plan kept, `keepPlan`). */
const ENTRY_RULES = keepPlan(`
  SELECT id, site_id, name, points_enabled, points_multiplier, max_entries, active, draft, archived, closed,
         is_drawn, start_date, end_date, current_entries, total_entries_available
    FROM raffles WHERE id = $1`);

/** True when `error` is the database refusing a second raffle with the same item_id on a site. */
export function isDuplicateItem(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505';
}

/** What entering a raffle needs to know of it, read narrow (a paid order's fulfilment reads it). */
export interface RaffleEntryRules {
  id: string;
  site_id: string;
  name: string;
  points_enabled: boolean;
  points_multiplier: number | null;
  max_entries: number | null;
  active: boolean;
  draft: boolean;
  archived: boolean;
  closed: boolean;
  is_drawn: boolean;
  start_date: Date;
  end_date: Date;
  current_entries: number;
  total_entries_available: number;
}

@Injectable()
export class RafflesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** Raffles in the ambient transaction when there is one. */
  private get raffles(): Repository<Raffle> {
    return this.tx.repo(Raffle);
  }

  private repo(manager?: EntityManager): Repository<Raffle> {
    return manager ? manager.getRepository(Raffle) : this.raffles;
  }

  findById(id: string, manager?: EntityManager): Promise<Raffle | null> {
    return this.repo(manager).findOne({ where: { id } });
  }

  /** In the ambient transaction, else on the pool by a kept plan (`TransactionRunner.query`). */
  async entryRules(id: string): Promise<RaffleEntryRules | null> {
    type Row = Omit<RaffleEntryRules, 'points_multiplier'> & { points_multiplier: string | null };
    const rows = await this.tx.query<Row>(ENTRY_RULES, [id]);
    if (!rows.length) return null;
    const row = rows[0];
    return {
      ...row,
      points_multiplier: row.points_multiplier === null ? null : Number(row.points_multiplier),
    };
  }

  findManyByIds(ids: string[]): Promise<Raffle[]> {
    return ids.length ? this.raffles.find({ where: { id: In(ids) } }) : Promise.resolve([]);
  }

  findPublishedById(id: string, manager?: EntityManager): Promise<Raffle | null> {
    return this.repo(manager).findOne({ where: { id, draft: false } });
  }

  /** The row locked for an update that checks it against the counters (entries take the same lock). */
  lockById(id: string, manager: EntityManager): Promise<Raffle | null> {
    return manager
      .getRepository(Raffle)
      .createQueryBuilder('r')
      .where('r.id = :id', { id })
      .setLock('pessimistic_write')
      .getOne();
  }

  /** The most tickets one entrant holds in the raffle (0 when none). */
  async mostHeld(raffleId: string, manager: EntityManager): Promise<number> {
    const [row] = await manager.query<Array<{ most: number | null }>>(
      `SELECT max(entries_count)::int AS most FROM raffle_user_entries WHERE raffle_id = $1`,
      [raffleId],
    );
    return row.most ?? 0;
  }

  /** Published raffles with this item_id: on one site when `siteId` is given, else on any (at most `limit`). */
  findPublishedByItem(
    itemId: string,
    siteId: string | undefined,
    limit: number,
    manager?: EntityManager,
  ): Promise<Raffle[]> {
    return this.repo(manager).find({
      where: { item_id: itemId, draft: false, ...(siteId ? { site_id: siteId } : {}) },
      order: { site_id: 'ASC' },
      take: limit,
    });
  }

  /** The secret seed, for the draw only. */
  async findDrawSeed(id: string, manager?: EntityManager): Promise<string | null> {
    const row = await this.repo(manager)
      .createQueryBuilder('r')
      .select('r.id')
      .addSelect('r.draw_seed')
      .where('r.id = :id', { id })
      .getOne();
    return row?.draw_seed ?? null;
  }

  async insert(raffle: NewRaffle, manager?: EntityManager): Promise<void> {
    await this.repo(manager).insert(raffle);
  }

  async update(id: string, changes: Partial<Raffle>, manager?: EntityManager): Promise<void> {
    if (Object.keys(changes).length) await this.repo(manager).update({ id }, changes);
  }

  /** draft → published, committing the seed; false when it was no longer a draft (a concurrent publish). */
  async publish(id: string, seed: string, seedHash: string, now: Date): Promise<boolean> {
    const result = await this.raffles
      .createQueryBuilder()
      .update(Raffle)
      .set({ draft: false, active: true, published_on: now, draw_seed: seed, draw_seed_hash: seedHash })
      .where('id = :id AND draft = true', { id })
      .execute();
    return result.affected === 1;
  }

  /** published → closed; false when it was closed meanwhile. */
  async close(id: string, now: Date): Promise<boolean> {
    const result = await this.raffles
      .createQueryBuilder()
      .update(Raffle)
      .set({ closed: true, closed_at: now })
      .where('id = :id AND draft = false AND closed = false', { id })
      .execute();
    return result.affected === 1;
  }

  /** Every raffle of a site, drafts included, newest first (keyset after the cursor raffle). */
  listForAdmin(siteId: string, limit: number, cursor?: string): Promise<Raffle[]> {
    const qb = this.raffles
      .createQueryBuilder('r')
      .where('r.site_id = :siteId', { siteId })
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .take(limit);
    if (cursor)
      qb.andWhere('(r.created_at, r.id) < (SELECT c.created_at, c.id FROM raffles c WHERE c.id = :cursor)', {
        cursor,
      });
    return qb.getMany();
  }

  /** A site's published, unarchived raffles, ending soonest first (keyset after the cursor raffle). */
  listPublic(siteId: string, limit: number, cursor?: string): Promise<Raffle[]> {
    const qb = this.raffles
      .createQueryBuilder('r')
      .where('r.site_id = :siteId AND r.draft = false AND r.archived = false', { siteId })
      .orderBy('r.end_date', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .take(limit);
    if (cursor)
      qb.andWhere('(r.end_date, r.id) > (SELECT c.end_date, c.id FROM raffles c WHERE c.id = :cursor)', {
        cursor,
      });
    return qb.getMany();
  }
}
