import { Injectable } from '@nestjs/common';
import { type EntityManager, In, LessThan, type Repository } from 'typeorm';
import { keepPlan } from '#app/infra/database/kept-plans.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import {
  type Gateway,
  PaymentTransaction,
  type PaymentStatus,
} from './entities/payment-transaction.entity.js';
import type { PaymentHead } from './hooks/payment-hooks.js';
import { headColumns } from './payment-head.js';

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
  | 'fulfilled_at'
  | 'fulfilment'
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

  private repo(manager?: EntityManager): Repository<PaymentTransaction> {
    return manager ? manager.getRepository(PaymentTransaction) : this.payments;
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

  /** Open payments no event has settled, oldest first (reconciliation). */
  pendingBefore(cutoff: Date, limit: number): Promise<PaymentTransaction[]> {
    return this.payments.find({
      where: { status: In(['pending', 'review']), created_at: LessThan(cutoff) },
      order: { created_at: 'ASC' },
      take: limit,
    });
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
