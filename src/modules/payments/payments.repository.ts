import { Injectable } from '@nestjs/common';
import { type EntityManager, In, type Repository } from 'typeorm';
import { keepPlan } from '#app/infra/database/kept-plans.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import {
  type Gateway,
  PaymentTransaction,
  type PaymentStatus,
} from './entities/payment-transaction.entity.js';
import type { PaymentHead } from './hooks/payment-hooks.js';
import { headColumns } from './payment-head.js';
import { LATE_SUCCESS_WATCH_DAYS } from './payments.rules.js';

/** A payment's head by id: every confirmation and report reads it first (its plan kept, `keepPlan`). */
const HEAD_BY_ID = keepPlan(`SELECT ${headColumns('p')} FROM payment_transactions p WHERE p.id = $1`);

export type NewPayment = Omit<
  PaymentTransaction,
  | 'id'
  | 'created_at'
  | 'updated_at'
  | 'user'
  | 'refunded_cents'
  | 'refund_pending_cents'
  | 'refund_reserved_at'
  | 'fulfilled_at'
  | 'fulfilment'
  | 'reconciled_at'
  | 'notified_at'
> & { id?: string };

export type { PaymentHead };

/**
 * The payment row: its head, which every path that settles a payment reads first, and the row's own reads
 * and writes. The success claim that opens a sale's transaction is `SuccessClaimsRepository`'s, a renewal
 * run's set-based statements `StoredCardChargesRepository`'s, a refund's amounts `RefundAmountsRepository`'s,
 * the e-mails' read model `PaymentMailFactsRepository`'s.
 */
@Injectable()
export class PaymentsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** PaymentTransactions in the ambient transaction when there is one. */
  private get payments(): Repository<PaymentTransaction> {
    return this.tx.repo(PaymentTransaction);
  }

  async head(id: string): Promise<PaymentHead | null> {
    const rows = await this.tx.query<PaymentHead>(HEAD_BY_ID, [id]);
    return rows[0] ?? null;
  }

  async headByCheckout(gateway: Gateway, checkoutId: string): Promise<PaymentHead | null> {
    const rows = await this.tx.manager.query<PaymentHead[]>(
      `SELECT ${headColumns('p')} FROM payment_transactions p WHERE p.gateway = $1 AND p.checkout_id = $2`,
      [gateway, checkoutId],
    );
    return rows[0] ?? null;
  }

  /**
   * The payment a client names by the gateway's id for it: its checkout (what the hosted form returns)
   * or the gateway's payment id (what endpoint 3 answers as `payment_id` once the payment is known).
   */
  async headByGatewayId(gateway: Gateway, id: string): Promise<PaymentHead | null> {
    const rows = await this.tx.manager.query<PaymentHead[]>(
      `SELECT ${headColumns('p')} FROM payment_transactions p
        WHERE p.gateway = $1 AND (p.checkout_id = $2 OR p.gateway_transaction_id = $2)
        ORDER BY p.checkout_id = $2 DESC LIMIT 1`,
      [gateway, id],
    );
    return rows[0] ?? null;
  }

  private repo(manager?: EntityManager): Repository<PaymentTransaction> {
    return manager ? manager.getRepository(PaymentTransaction) : this.payments;
  }

  /**
   * Notes a self-pause on every payment of the user a success could still fulfil (pending, in the gateway's
   * review, or given up but payable late: not yet fulfilled), in the ambient transaction: one paid before `until`
   * is refused (`pausedWhenPaid`). Through the user's index.
   */
  async markBuyerPaused(userId: string, until: Date): Promise<void> {
    await this.tx.query(
      `UPDATE payment_transactions
          SET metadata = metadata || jsonb_build_object('buyer_paused_until', $2::text)
        WHERE user_id = $1 AND fulfilled_at IS NULL AND status IN ('pending', 'review', 'failed', 'cancelled')`,
      [userId, until.toISOString()],
    );
  }

  async create(row: NewPayment, manager: EntityManager): Promise<PaymentTransaction> {
    const repo = this.repo(manager);
    return repo.save(repo.create(row));
  }

  findById(id: string, manager?: EntityManager): Promise<PaymentTransaction | null> {
    return this.repo(manager).findOne({ where: { id } });
  }

  findByCheckout(
    gateway: string,
    checkoutId: string,
    manager?: EntityManager,
  ): Promise<PaymentTransaction | null> {
    return this.repo(manager).findOne({
      where: { gateway: gateway as PaymentTransaction['gateway'], checkout_id: checkoutId },
    });
  }

  /** The payment row, locked: webhook, confirmation and reconciliation of one payment take turns. */
  lock(id: string, manager: EntityManager): Promise<PaymentTransaction | null> {
    return manager
      .getRepository(PaymentTransaction)
      .createQueryBuilder('p')
      .where('p.id = :id', { id })
      .setLock('pessimistic_write')
      .getOne();
  }

  async update(id: string, changes: Partial<PaymentTransaction>, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, changes as never);
  }

  /** The database's clock now (what `now()` writes). */
  async databaseNow(): Promise<Date> {
    const [row] = await this.tx.manager.query<Array<{ now: Date }>>(`SELECT now() AS now`);
    return row.now;
  }

  /**
   * Claims up to `limit` payments for reconciliation to ask about, and notes the ask (`reconciled_at`), so
   * another instance's run skips them and this run never meets them again. `open`: payments no event has
   * settled (`pending`, `review`); `watched`: payments given up here (failed, cancelled) but not fulfilled, for
   * `LATE_SUCCESS_WATCH_DAYS` after they were opened (their checkout may still take the money). Two queues, each
   * on its own index, so that a week of declines never stands before a payment still open. Due: created before
   * `cutoff` and never asked, or asked before `askedBefore` when given (an admin's run asks every one), else
   * asked longer ago than its backoff: a quarter of its age when last asked, between 5 minutes and 6 hours. A
   * young payment is asked again soon; checkouts abandoned days ago, which stay open at a gateway that never
   * expires them, are asked a few times a day and never crowd out the rest. Never asked first, then longest
   * unasked.
   */
  async claimToReconcile(
    queue: 'open' | 'watched',
    cutoff: Date,
    askedBefore: Date | null,
    limit: number,
  ): Promise<PaymentTransaction[]> {
    const which =
      queue === 'open'
        ? `status IN ('pending', 'review')`
        : `status IN ('failed', 'cancelled') AND fulfilled_at IS NULL
           AND created_at > now() - make_interval(days => ${LATE_SUCCESS_WATCH_DAYS})`;
    const [rows] = await this.tx.manager.query<[PaymentTransaction[], number]>(
      `UPDATE payment_transactions p SET reconciled_at = now()
         FROM (SELECT id FROM payment_transactions
                WHERE ${which} AND created_at < $1
                  AND (reconciled_at IS NULL OR
                       CASE WHEN $2::timestamptz IS NULL
                            THEN reconciled_at + LEAST(interval '6 hours', GREATEST(interval '5 minutes',
                                                       (reconciled_at - created_at) / 4)) <= now()
                            ELSE reconciled_at < $2::timestamptz END)
                ORDER BY reconciled_at NULLS FIRST, created_at
                LIMIT $3
                FOR UPDATE SKIP LOCKED) due
        WHERE p.id = due.id
       RETURNING p.*`,
      [cutoff, askedBefore, limit],
    );
    return rows;
  }

  list(
    siteId: string,
    status: PaymentStatus | undefined,
    limit: number,
    cursor?: string,
  ): Promise<PaymentTransaction[]> {
    const qb = this.payments
      .createQueryBuilder('p')
      .where('p.site_id = :siteId', { siteId })
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .take(limit);
    if (status) qb.andWhere('p.status = :status', { status });
    if (cursor)
      qb.andWhere(
        '(p.created_at, p.id) < (SELECT created_at, id FROM payment_transactions WHERE id = :cursor)',
        {
          cursor,
        },
      );
    return qb.getMany();
  }

  ofUsers(userIds: string[], perUser = 50): Promise<PaymentTransaction[]> {
    if (!userIds.length) return Promise.resolve([]);
    return this.payments.find({
      where: { user_id: In(userIds) },
      order: { created_at: 'DESC' },
      take: perUser * userIds.length,
    });
  }
}
