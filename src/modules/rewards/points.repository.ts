import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, In, type Repository } from 'typeorm';
import { PointTransaction } from './entities/point-transaction.entity.js';
import { RewardsBalance } from './entities/rewards-balance.entity.js';
import {
  EARN_ONCE_FOR_PAYMENT,
  entryParams,
  INSERT_ENTRY,
  type NewPointTransaction,
  SATURATING,
} from './points.statements.js';

/**
 * Every query of the points ledger and balances. Writes take the caller's EntityManager: they run inside
 * the business transaction that pays, spends or refunds (STACK.md: nothing outside it on PGlite).
 */
@Injectable()
export class PointsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** PointTransactions in the ambient transaction when there is one. */
  private get ledger(): Repository<PointTransaction> {
    return this.tx.repo(PointTransaction);
  }

  /** RewardsBalances in the ambient transaction when there is one. */
  private get balances(): Repository<RewardsBalance> {
    return this.tx.repo(RewardsBalance);
  }

  async append(manager: EntityManager, entry: NewPointTransaction): Promise<PointTransaction> {
    const rows = await manager.query<PointTransaction[]>(`${INSERT_ENTRY} RETURNING *`, entryParams(entry));
    return rows[0];
  }

  /** The earn of a payment, or null when the payment already earned (the partial unique index decides). */
  async appendEarnOnce(manager: EntityManager, entry: NewPointTransaction): Promise<PointTransaction | null> {
    const rows = await manager.query<PointTransaction[]>(
      `${INSERT_ENTRY}
       ON CONFLICT (payment_transaction_id) WHERE transaction_type = 'earn' AND payment_transaction_id IS NOT NULL
       DO NOTHING RETURNING *`,
      entryParams(entry),
    );
    return rows[0] ?? null;
  }

  /**
   * A payment's earn and the balance it moves, in one statement: the ledger row goes in unless the payment
   * already earned (the partial unique index decides), and only then is the balance credited. Answers the
   * new balance, or null when the payment had already earned.
   */
  async earnOnceForPayment(manager: EntityManager, entry: NewPointTransaction): Promise<number | null> {
    const rows = await manager.query<Array<{ current_points: number }>>(
      EARN_ONCE_FOR_PAYMENT,
      entryParams(entry),
    );
    return rows[0]?.current_points ?? null;
  }

  /** Adds points (creating the balance row on first use); answers the new balance. */
  async credit(
    manager: EntityManager,
    row: { userId: string; siteId: string; amount: number; lifetime: number },
  ): Promise<number> {
    const rows = await manager.query<Array<{ current_points: number }>>(
      `INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE
          SET current_points = ${SATURATING('current_points')},
              lifetime_earned = ${SATURATING('lifetime_earned')},
              updated_at = now()
       RETURNING current_points`,
      [row.userId, row.siteId, row.amount, row.lifetime],
    );
    return rows[0].current_points;
  }

  /**
   * Takes points only if the balance covers them, in one statement: concurrent spends queue on the row
   * and each re-checks the condition against the balance the previous one left. Null when it does not.
   */
  async debitIfCovered(manager: EntityManager, userId: string, amount: number): Promise<number | null> {
    const [rows] = await manager.query<[Array<{ current_points: number }>, number]>(
      `UPDATE rewards_balances
          SET current_points = current_points - $2, updated_at = now()
        WHERE user_id = $1 AND current_points >= $2
        RETURNING current_points`,
      [userId, amount],
    );
    return rows[0]?.current_points ?? null;
  }

  /** Locks the balance row for a change decided from its value (reversals); null when there is none. */
  async lockBalance(manager: EntityManager, userId: string): Promise<number | null> {
    const rows = await manager.query<Array<{ current_points: number }>>(
      `SELECT current_points FROM rewards_balances WHERE user_id = $1 FOR UPDATE`,
      [userId],
    );
    return rows[0]?.current_points ?? null;
  }

  /** Takes points from a balance locked by `lockBalance` and checked to cover them. */
  async subtract(manager: EntityManager, userId: string, amount: number, lifetime: number): Promise<number> {
    const [rows] = await manager.query<[Array<{ current_points: number }>, number]>(
      `UPDATE rewards_balances
          SET current_points = current_points - $2,
              lifetime_earned = GREATEST(0, lifetime_earned + $3),
              updated_at = now()
        WHERE user_id = $1
        RETURNING current_points`,
      [userId, amount, lifetime],
    );
    return rows[0].current_points;
  }

  /** The earn entry of a payment, locked so that reversals of one payment run one after the other. */
  async lockEarnOfPayment(
    manager: EntityManager,
    paymentTransactionId: string,
  ): Promise<PointTransaction | null> {
    const rows = await manager.query<PointTransaction[]>(
      `SELECT * FROM point_transactions
        WHERE payment_transaction_id = $1 AND transaction_type = 'earn'
        FOR UPDATE`,
      [paymentTransactionId],
    );
    return rows[0] ?? null;
  }

  /** Points already due back from a payment by earlier reversals (taken or forgiven). */
  async reversedDue(manager: EntityManager, paymentTransactionId: string): Promise<number> {
    const rows = await manager.query<Array<{ due: number }>>(
      `SELECT COALESCE(SUM((metadata->>'due')::integer), 0)::integer AS due
         FROM point_transactions
        WHERE payment_transaction_id = $1 AND transaction_type = 'reversal'`,
      [paymentTransactionId],
    );
    return rows[0].due;
  }

  async balanceOf(userId: string, manager?: EntityManager): Promise<number> {
    const repo = manager ? manager.getRepository(RewardsBalance) : this.balances;
    const row = await repo.findOne({ where: { user_id: userId } });
    return row?.current_points ?? 0;
  }

  /** A user's ledger, newest first; `cursor` is the id of the last entry of the previous page. */
  page(userId: string, limit: number, cursor?: string): Promise<PointTransaction[]> {
    const qb = this.ledger
      .createQueryBuilder('p')
      .where('p.user_id = :userId', { userId })
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .limit(limit);
    if (cursor)
      qb.andWhere(
        `(p.created_at, p.id) < (SELECT c.created_at, c.id FROM point_transactions c
                                  WHERE c.id = :cursor AND c.user_id = :userId)`,
        { cursor },
      );
    return qb.getMany();
  }

  /** The newest `perUser` entries of each user, in one query. */
  async recentOf(userIds: string[], perUser: number): Promise<PointTransaction[]> {
    if (!userIds.length) return [];
    return this.ledger.manager.query<PointTransaction[]>(
      `SELECT id, site_id, user_id, payment_transaction_id, reason, transaction_type, created_by, amount,
              ip_address, user_agent, metadata, created_at
         FROM (SELECT p.*, ROW_NUMBER() OVER (PARTITION BY p.user_id ORDER BY p.created_at DESC, p.id DESC) AS rn
                 FROM point_transactions p
                WHERE p.user_id = ANY($1::uuid[])) ranked
        WHERE rn <= $2
        ORDER BY user_id, created_at DESC, id DESC`,
      [userIds, perUser],
    );
  }

  /** Every entry tied to these payments, oldest first. */
  ofPayments(paymentTransactionIds: string[], manager?: EntityManager): Promise<PointTransaction[]> {
    if (!paymentTransactionIds.length) return Promise.resolve([]);
    const repo = manager ? manager.getRepository(PointTransaction) : this.ledger;
    return repo.find({
      where: { payment_transaction_id: In(paymentTransactionIds) },
      order: { created_at: 'ASC', id: 'ASC' },
    });
  }
}
