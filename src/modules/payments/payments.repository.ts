import { Injectable } from '@nestjs/common';
import { type EntityManager, In, LessThan, type Repository } from 'typeorm';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { PaymentHead } from './hooks/payment-hooks.js';
import type { EntryMethod } from '#app/modules/raffles/entries/entities/raffle-entry.entity.js';
import type { Raffle } from '#app/modules/raffles/entities/raffle.entity.js';
import {
  type Fulfilment,
  type Gateway,
  PaymentTransaction,
  type PaymentStatus,
} from './entities/payment-transaction.entity.js';
import { keepPlan } from '#app/infra/database/kept-plans.js';

const head = (p: string): string =>
  [
    'id',
    'site_id',
    'user_id',
    'gateway',
    'checkout_id',
    'gateway_transaction_id',
    'status',
    'purpose',
    'raffle_id',
    'subscription_id',
    'amount_cents',
    'currency',
    'description',
    'spend_month',
    'new_account',
    'ip_address',
    'user_agent',
    'fulfilled_at',
    'fulfilment',
  ]
    .map((c) => `${p}.${c}`)
    .join(', ') +
  `, COALESCE((${p}.order_details->>'tickets')::integer, 0) AS tickets, ${p}.metadata->>'unfillable' AS unfillable` +
  `, ${p}.metadata->>'checkout_url' AS checkout_url, ${p}.metadata->>'kind' AS kind` +
  `, COALESCE(${p}.gateway_response->>'registrationId', ${p}.webhook_data->'payload'->>'registrationId') AS registration_id`;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The head of a payment row already read whole. */
export function toHead(p: PaymentTransaction): PaymentHead {
  const tickets = Number(p.order_details.tickets ?? 0);
  return {
    id: p.id,
    site_id: p.site_id,
    user_id: p.user_id,
    gateway: p.gateway,
    checkout_id: p.checkout_id,
    gateway_transaction_id: p.gateway_transaction_id,
    status: p.status,
    purpose: p.purpose,
    raffle_id: p.raffle_id,
    subscription_id: p.subscription_id,
    amount_cents: p.amount_cents,
    currency: p.currency,
    tickets: Number.isFinite(tickets) ? tickets : 0,
    description: p.description,
    spend_month: p.spend_month,
    new_account: p.new_account,
    ip_address: p.ip_address,
    user_agent: p.user_agent,
    fulfilled_at: p.fulfilled_at,
    fulfilment: p.fulfilment,
    unfillable: typeof p.metadata.unfillable === 'string' ? p.metadata.unfillable : null,
    checkout_url: typeof p.metadata.checkout_url === 'string' ? p.metadata.checkout_url : null,
    kind: typeof p.metadata.kind === 'string' ? p.metadata.kind : null,
    registration_id:
      str(p.gateway_response?.registrationId) ??
      str((p.webhook_data?.payload as Record<string, unknown> | undefined)?.registrationId),
  };
}

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
const HEAD_BY_ID = keepPlan(`SELECT ${head('p')} FROM payment_transactions p WHERE p.id = $1`);

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
  RETURNING previous.status AS previous_status, ${head('p')}`);

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

/**
 * Everything the e-mails of a settled payment need, read in one query: the payment, its buyer, the raffle
 * and the entry it bought. A read model joining other features' tables; nothing but this job reads it.
 */
export type { PaymentHead };

export interface PaymentMailFacts {
  id: string;
  site_id: string;
  user_id: string;
  amount_cents: number;
  currency: string;
  description: string | null;
  fulfilment: Fulfilment | null;
  new_account: boolean;
  email: string;
  raffle: (Pick<Raffle, 'name' | 'mailer_email_params'> & { end_date: string }) | null;
  entry: { entries_count: number; ticket_from: number; ticket_to: number; method: EntryMethod } | null;
}

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
      `SELECT ${head('p')} FROM payment_transactions p WHERE p.gateway = $1 AND p.checkout_id = $2`,
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

  /** Pending payments of stored-card charges, in one statement in the ambient transaction. */
  async insertStoredCardCharges(
    rows: Array<{
      id: string;
      siteId: string;
      userId: string;
      subscriptionId: string;
      amountCents: number;
      currency: string;
      description: string;
      month: string;
    }>,
  ): Promise<void> {
    if (!rows.length) return;
    await this.tx.manager.query(
      `INSERT INTO payment_transactions (id, site_id, user_id, gateway, currency, amount_cents, description,
                                         payment_method, status, purpose, subscription_id, spend_month,
                                         order_details, metadata)
       SELECT v.id, v.site_id, v.user_id, 'gatewayone', v.currency, v.amount_cents, v.description,
              'card', 'pending', 'subscription', v.subscription_id, v.month, '{}', '{"stored_card": true}'
         FROM unnest($1::uuid[], $2::varchar[], $3::uuid[], $4::bpchar[], $5::integer[], $6::varchar[],
                     $7::uuid[], $8::varchar[])
              AS v(id, site_id, user_id, currency, amount_cents, description, subscription_id, month)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.siteId),
        rows.map((r) => r.userId),
        rows.map((r) => r.currency),
        rows.map((r) => r.amountCents),
        rows.map((r) => r.description),
        rows.map((r) => r.subscriptionId),
        rows.map((r) => r.month),
      ],
    );
  }

  /**
   * The exactly-once claim of many successes at once (a renewal run's charges), in the ambient
   * transaction: only payments still pending move (a webhook may have settled one already).
   */
  async claimPendingSuccesses(
    results: Array<{
      paymentId: string;
      verdict: { gatewayPaymentId: string | null; raw: Record<string, unknown> };
    }>,
  ): Promise<PaymentHead[]> {
    const [rows] = await this.tx.manager.query<[PaymentHead[], number]>(
      `UPDATE payment_transactions p
          SET status = 'succeeded', fulfilled_at = now(), fulfilment = 'fulfilled', updated_at = now(),
              gateway_transaction_id = COALESCE(v.gateway_id, p.gateway_transaction_id),
              gateway_response = v.response::jsonb
         FROM unnest($1::uuid[], $2::varchar[], $3::text[]) AS v(id, gateway_id, response)
        WHERE p.id = v.id AND p.status = 'pending' AND p.fulfilled_at IS NULL
       RETURNING ${head('p')}`,
      [
        results.map((r) => r.paymentId),
        results.map((r) => r.verdict.gatewayPaymentId),
        results.map((r) => JSON.stringify(r.verdict.raw)),
      ],
    );
    return rows;
  }

  /** Declined charges still pending move to `failed`, in one statement in the ambient transaction. */
  async failPending(
    results: Array<{
      paymentId: string;
      verdict: { gatewayPaymentId: string | null; raw: Record<string, unknown> };
    }>,
  ): Promise<PaymentHead[]> {
    const [rows] = await this.tx.manager.query<[PaymentHead[], number]>(
      `UPDATE payment_transactions p
          SET status = 'failed', updated_at = now(),
              gateway_transaction_id = COALESCE(v.gateway_id, p.gateway_transaction_id),
              gateway_response = v.response::jsonb
         FROM unnest($1::uuid[], $2::varchar[], $3::text[]) AS v(id, gateway_id, response)
        WHERE p.id = v.id AND p.status = 'pending'
       RETURNING ${head('p')}`,
      [
        results.map((r) => r.paymentId),
        results.map((r) => r.verdict.gatewayPaymentId),
        results.map((r) => JSON.stringify(r.verdict.raw)),
      ],
    );
    return rows;
  }

  async mailFactsOf(id: string): Promise<PaymentMailFacts | null> {
    const rows = await this.tx.manager.query<PaymentMailFacts[]>(
      `SELECT p.id, p.site_id, p.user_id, p.amount_cents, p.currency, p.description, p.fulfilment, p.new_account,
              u.email,
              CASE WHEN r.id IS NULL THEN NULL ELSE
                jsonb_build_object('name', r.name, 'end_date', r.end_date, 'mailer_email_params', r.mailer_email_params)
              END AS raffle,
              CASE WHEN e.id IS NULL THEN NULL ELSE
                jsonb_build_object('entries_count', e.entries_count, 'ticket_from', e.ticket_from,
                                   'ticket_to', e.ticket_to, 'method', e.method)
              END AS entry
         FROM payment_transactions p
         JOIN users u ON u.id = p.user_id AND u.deleted_at IS NULL
         LEFT JOIN raffles r ON r.id = p.raffle_id
         LEFT JOIN raffle_entries e ON e.payment_transaction_id = p.id
        WHERE p.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Reserves a refund amount; false when it would pass what was paid and not yet refunded. */
  async reserveRefund(id: string, amount: number, manager: EntityManager): Promise<boolean> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE payment_transactions SET refund_pending_cents = refund_pending_cents + $2, updated_at = now()
        WHERE id = $1 AND status IN ('succeeded', 'partially_refunded')
          AND refunded_cents + refund_pending_cents + $2 <= amount_cents
        RETURNING id`,
      [id, amount],
    );
    return result[0].length === 1;
  }

  /** Settles a reserved refund: done (moves it to refunded) or not (gives the reservation back). */
  async settleRefund(
    id: string,
    amount: number,
    done: boolean,
    manager: EntityManager,
  ): Promise<PaymentTransaction> {
    const result = await manager.query<[PaymentTransaction[], number]>(
      `UPDATE payment_transactions
          SET refund_pending_cents = refund_pending_cents - $2,
              refunded_cents = refunded_cents + CASE WHEN $3 THEN $2 ELSE 0 END,
              status = CASE WHEN NOT $3 THEN status
                            WHEN refunded_cents + $2 >= amount_cents THEN 'refunded'
                            ELSE 'partially_refunded' END,
              updated_at = now()
        WHERE id = $1
        RETURNING *`,
      [id, amount, done],
    );
    return result[0][0];
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
