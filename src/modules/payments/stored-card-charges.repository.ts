import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { PaymentHead } from './hooks/payment-hooks.js';
import { headColumns } from './payment-head.js';

/** A charge of a stored card that another feature prices (a membership's renewal). */
export interface StoredCardCharge {
  /** Our payment id, fixed by the caller (it claims its period with it before the payment exists). */
  id: string;
  siteId: string;
  userId: string;
  subscriptionId: string;
  amountCents: number;
  currency: string;
  description: string;
}

/** A stored-card charge written as a pending payment, its spend counted in `month`. */
export type PendingCharge = StoredCardCharge & { month: string };

/** A stored-card charge's settlement at the gateway: its id and what the gateway answered. */
export interface ChargeResult {
  paymentId: string;
  verdict: { gatewayPaymentId: string | null; raw: Record<string, unknown> };
}

/**
 * The set-based statements of a renewal run's stored-card charges (`StoredCardChargesService`): a batch of
 * pending payments written, then its successes claimed and its declines failed, each in one statement in the
 * ambient transaction, however many charges the batch holds.
 */
@Injectable()
export class StoredCardChargesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** Pending payments of stored-card charges, in one statement in the ambient transaction. */
  async insertPending(rows: PendingCharge[]): Promise<void> {
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
  claimPendingSuccesses(results: ChargeResult[]): Promise<PaymentHead[]> {
    return this.settlePending(
      `status = 'succeeded', fulfilled_at = now(), fulfilment = 'fulfilled'`,
      'AND p.fulfilled_at IS NULL',
      results,
    );
  }

  /** Declined charges still pending move to `failed`, in one statement in the ambient transaction. */
  failPending(results: ChargeResult[]): Promise<PaymentHead[]> {
    return this.settlePending(`status = 'failed'`, '', results);
  }

  /**
   * Charges that never reached the gateway, still pending, move to `cancelled`: called off, not declined. In one
   * statement in the ambient transaction.
   */
  cancelPending(results: ChargeResult[]): Promise<PaymentHead[]> {
    return this.settlePending(`status = 'cancelled'`, '', results);
  }

  /** Of these payments, the ones already `failed` (a webhook announced the decline before a run settled it). */
  async failedAlready(ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.tx.manager.query<Array<{ id: string }>>(
      `SELECT id FROM payment_transactions WHERE id = ANY($1::uuid[]) AND status = 'failed'`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** Payments still pending moved as `set` says, each with what the gateway answered for it. */
  private async settlePending(
    set: string,
    alsoWhere: string,
    results: ChargeResult[],
  ): Promise<PaymentHead[]> {
    const [rows] = await this.tx.manager.query<[PaymentHead[], number]>(
      `UPDATE payment_transactions p
          SET ${set}, updated_at = now(),
              gateway_transaction_id = COALESCE(v.gateway_id, p.gateway_transaction_id),
              gateway_response = v.response::jsonb
         FROM unnest($1::uuid[], $2::varchar[], $3::text[]) AS v(id, gateway_id, response)
        WHERE p.id = v.id AND p.status = 'pending' ${alsoWhere}
       RETURNING ${headColumns('p')}`,
      [
        results.map((r) => r.paymentId),
        results.map((r) => r.verdict.gatewayPaymentId),
        results.map((r) => JSON.stringify(r.verdict.raw)),
      ],
    );
    return rows;
  }
}
