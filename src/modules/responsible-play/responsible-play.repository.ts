import { INT4_MAX } from '#app/common/column-limits.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, In, type Repository } from 'typeorm';
import { UserLimit } from './entities/user-limit.entity.js';
import { UserMonthlySpend } from './entities/user-monthly-spend.entity.js';
import type { LimitsState } from './responsible-play.rules.js';

/** Every query of responsible play. Writes take the caller's EntityManager (the order's transaction). */
@Injectable()
export class ResponsiblePlayRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** UserLimits in the ambient transaction when there is one. */
  private get limits(): Repository<UserLimit> {
    return this.tx.repo(UserLimit);
  }

  /** UserMonthlySpends in the ambient transaction when there is one. */
  private get spend(): Repository<UserMonthlySpend> {
    return this.tx.repo(UserMonthlySpend);
  }

  findLimits(userId: string, manager?: EntityManager): Promise<UserLimit | null> {
    return (manager ? manager.getRepository(UserLimit) : this.limits).findOne({ where: { user_id: userId } });
  }

  /** The user's row, created empty if missing, locked until the caller's transaction ends. */
  /** The limits rows of these users, in one query. */
  async findLimitsOf(userIds: string[], manager: EntityManager): Promise<Map<string, UserLimit>> {
    if (!userIds.length) return new Map();
    const rows = await manager.getRepository(UserLimit).find({ where: { user_id: In(userIds) } });
    return new Map(rows.map((r) => [r.user_id, r]));
  }

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
   * left. Answers the month's new total, or null when the limit would be passed. The sum is taken in
   * `bigint` and the counter stops at the column's largest value: pending orders anyone may open for a
   * member (a guest order naming the address) once added up past it and made every later order a 500.
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
          SET spent_cents = LEAST(user_monthly_spend.spent_cents::bigint + EXCLUDED.spent_cents, ${INT4_MAX}),
              updated_at = now()
        WHERE $4::integer IS NULL OR user_monthly_spend.spent_cents::bigint + EXCLUDED.spent_cents <= $4::integer
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

  /** Gives back many reservations at once (summed per user and month first), never below zero. */
  async releaseMany(
    manager: EntityManager,
    rows: Array<{ userId: string; amountCents: number; month: string }>,
  ): Promise<void> {
    if (!rows.length) return;
    await manager.query(
      `UPDATE user_monthly_spend s
          SET spent_cents = GREATEST(0, s.spent_cents - v.amount), updated_at = now()
         FROM (SELECT user_id, month, sum(amount)::integer AS amount
                 FROM unnest($1::uuid[], $2::varchar[], $3::integer[]) AS r(user_id, month, amount)
                GROUP BY user_id, month) v
        WHERE s.user_id = v.user_id AND s.month = v.month`,
      [rows.map((r) => r.userId), rows.map((r) => r.month), rows.map((r) => r.amountCents)],
    );
  }
}
