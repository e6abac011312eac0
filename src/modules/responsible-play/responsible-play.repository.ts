import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { UserLimit } from './entities/user-limit.entity.js';
import { UserMonthlySpend } from './entities/user-monthly-spend.entity.js';
import type { LimitsState } from './responsible-play.rules.js';

/** Every query of responsible play. Writes take the caller's EntityManager (the order's transaction). */
@Injectable()
export class ResponsiblePlayRepository {
  constructor(
    @InjectRepository(UserLimit) private readonly limits: Repository<UserLimit>,
    @InjectRepository(UserMonthlySpend) private readonly spend: Repository<UserMonthlySpend>,
  ) {}

  findLimits(userId: string, manager?: EntityManager): Promise<UserLimit | null> {
    return (manager ? manager.getRepository(UserLimit) : this.limits).findOne({ where: { user_id: userId } });
  }

  /** The user's row, created empty if missing, locked until the caller's transaction ends. */
  async lockLimits(manager: EntityManager, userId: string): Promise<UserLimit> {
    await manager.query(`INSERT INTO user_limits (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING`, [
      userId,
    ]);
    const rows = await manager.query<UserLimit[]>(`SELECT * FROM user_limits WHERE user_id = $1 FOR UPDATE`, [
      userId,
    ]);
    return rows[0];
  }

  async saveLimits(manager: EntityManager, userId: string, state: LimitsState): Promise<UserLimit> {
    await manager.getRepository(UserLimit).update({ user_id: userId }, { ...state });
    return manager.getRepository(UserLimit).findOneOrFail({ where: { user_id: userId } });
  }

  async spentIn(userId: string, month: string, manager?: EntityManager): Promise<number> {
    const row = await (manager ? manager.getRepository(UserMonthlySpend) : this.spend).findOne({
      where: { user_id: userId, month },
    });
    return row?.spent_cents ?? 0;
  }

  /**
   * Adds a spend to the month's counter in one statement, only if it stays within `limit` (null: no
   * limit). Concurrent reservations queue on the row and each re-checks against what the previous one
   * left. Answers the month's new total, or null when the limit would be passed.
   */
  async reserve(
    manager: EntityManager,
    row: { userId: string; month: string; amountCents: number; limitCents: number | null },
  ): Promise<number | null> {
    const rows = await manager.query<Array<{ spent_cents: number }>>(
      `INSERT INTO user_monthly_spend (user_id, month, spent_cents)
       SELECT $1::uuid, $2::varchar, $3::integer
        WHERE $4::integer IS NULL OR $3::integer <= $4::integer
       ON CONFLICT (user_id, month) DO UPDATE
          SET spent_cents = user_monthly_spend.spent_cents + EXCLUDED.spent_cents, updated_at = now()
        WHERE $4::integer IS NULL OR user_monthly_spend.spent_cents + EXCLUDED.spent_cents <= $4::integer
       RETURNING spent_cents`,
      [row.userId, row.month, row.amountCents, row.limitCents],
    );
    return rows[0]?.spent_cents ?? null;
  }

  /** Gives back a reservation (failed or refunded order); the counter never goes below zero. */
  async release(
    manager: EntityManager,
    row: { userId: string; month: string; amountCents: number },
  ): Promise<number> {
    const [rows] = await manager.query<[Array<{ spent_cents: number }>, number]>(
      `UPDATE user_monthly_spend
          SET spent_cents = GREATEST(0, spent_cents - $3), updated_at = now()
        WHERE user_id = $1 AND month = $2
        RETURNING spent_cents`,
      [row.userId, row.month, row.amountCents],
    );
    return rows[0]?.spent_cents ?? 0;
  }
}
