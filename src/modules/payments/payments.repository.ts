import { Injectable } from '@nestjs/common';
import { type EntityManager, In, LessThan, type Repository } from 'typeorm';
import { keepPlan } from '#app/infra/database/kept-plans.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import {
  type Fulfilment,
  type Gateway,
  PaymentTransaction,
  type PaymentStatus,
} from './entities/payment-transaction.entity.js';
import type { PaymentHead } from './hooks/payment-hooks.js';
import { headColumns } from './payment-head.js';

/** What a gateway's report changes on the row besides its status (null: leave as is). */
export interface ReportChanges {
  gatewayPaymentId: string | null;
  gatewayResponse: Record<string, unknown> | null;
  webhook: Record<string, unknown> | null;
  /** What a client claimed on endpoint 3: appended to `metadata.client_claims`, the newest 10 kept. */
  clientClaim: Record<string, unknown> | null;
}

/** How many client claims a payment keeps. */
export const CLIENT_CLAIMS_KEPT = 10;

/** A payment's head by id: every confirmation and report reads it first (its plan kept, `keepPlan`). */
const HEAD_BY_ID = keepPlan(`SELECT ${headColumns('p')} FROM payment_transactions p WHERE p.id = $1`);

/**
 * The status transition to `succeeded` and the exactly-once fulfilment claim in one conditional UPDATE:
 * only a payment nobody fulfilled yet, still open or given up (a late success), moves; the locking
 * subquery hands back the status it moved from. Zero rows: another caller won, or the payment is final.
 */
const CLAIM_SUCCESS = keepPlan(`
  UPDATE payment_transactions p
     SET status = 'succeeded', fulfilled_at = now(), fulfilment = $2, updated_at = now(),
         gateway_transaction_id = COALESCE($3, p.gateway_transaction_id),
         gateway_response = COALESCE($4::jsonb, p.gateway_response),
         webhook_received_at = CASE WHEN $5::jsonb IS NULL THEN p.webhook_received_at ELSE now() END,
         webhook_data = COALESCE($5::jsonb, p.webhook_data),
         metadata = p.metadata
           || CASE WHEN $6::jsonb IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('client_claims',
                (SELECT jsonb_agg(c ORDER BY n) FROM (
                   SELECT c, n FROM jsonb_array_elements(
                       COALESCE(p.metadata->'client_claims', '[]'::jsonb) || jsonb_build_array($6::jsonb))
                     WITH ORDINALITY AS claims(c, n)
                    ORDER BY n DESC LIMIT ${CLIENT_CLAIMS_KEPT}) newest)) END
           || CASE WHEN $7::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('unfillable', $7::text) END
    FROM (SELECT status FROM payment_transactions WHERE id = $1 FOR UPDATE) previous
   WHERE p.id = $1 AND p.fulfilled_at IS NULL AND p.status IN ('pending', 'review', 'failed', 'cancelled')
  RETURNING previous.status AS previous_status, ${headColumns('p')}`);

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
 * The payment row: its head, which every path that settles a payment reads first, the success claim that
 * opens a sale's transaction, and the row's own reads and writes. A renewal run's set-based statements are
 * `StoredCardChargesRepository`'s, a refund's amounts `RefundAmountsRepository`'s, the e-mails' read model
 * `PaymentMailFactsRepository`'s.
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
   * Opens a transaction whose first statement moves an unfulfilled payment to `succeeded` and claims its
   * fulfilment, marked `fulfilment` (one round trip for both, `TransactionRunner.runOpening`), then runs
   * `then` in it with the claim — null when this caller did not win.
   */
  claimSuccessThen<T>(
    id: string,
    changes: ReportChanges,
    fulfilment: Fulfilment,
    unfillable: string | null,
    then: (claim: { previous: PaymentStatus; payment: PaymentHead } | null) => Promise<T>,
  ): Promise<T> {
    const json = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));
    const values = [
      id,
      fulfilment,
      changes.gatewayPaymentId,
      json(changes.gatewayResponse),
      json(changes.webhook),
      json(changes.clientClaim),
      unfillable,
    ];
    return this.tx.runOpening({ sql: CLAIM_SUCCESS, values }, (rows) => {
      if (!rows.length) return then(null);
      const { previous_status, ...payment } = rows[0] as PaymentHead & { previous_status: PaymentStatus };
      return then({ previous: previous_status, payment });
    });
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
