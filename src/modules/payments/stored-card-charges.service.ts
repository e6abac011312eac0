import { Injectable } from '@nestjs/common';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { ResponsiblePlayService } from '#app/modules/responsible-play/responsible-play.service.js';
import { PaymentPointsService } from '#app/modules/rewards/payment-points.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { type PaymentHead, PaymentHooks } from './hooks/payment-hooks.js';
import { type GatewayVerdict, PaymentGateways } from './payment-gateways.js';
import { type StoredCardCharge, StoredCardChargesRepository } from './stored-card-charges.repository.js';

export type { StoredCardCharge };

export type ChargeRefusal = 'SELF_PAUSED' | 'SPEND_LIMIT_REACHED';

/**
 * Merchant-initiated charges of stored cards, many at a time (a renewal run), set-based: pending
 * payments written in one statement with their spend counted; each card charged once at the gateway,
 * outside any transaction (a lost answer looked up, never charged again); the results settled in one
 * transaction per batch with the same exactly-once claim (`fulfilled_at`) as every other payment, so a
 * webhook for the same charge finds it done. The points a charge earns come from `paymentPoints`, as for
 * any payment; the purchase e-mails are the notify job's.
 */
@Injectable()
export class StoredCardChargesService {
  constructor(
    private readonly charges: StoredCardChargesRepository,
    private readonly gateways: PaymentGateways,
    private readonly limits: ResponsiblePlayService,
    private readonly points: PaymentPointsService,
    private readonly activity: ActivityLogService,
    private readonly jobs: JobQueue,
    private readonly hooks: PaymentHooks,
    private readonly tx: TransactionRunner,
  ) {}

  /**
   * In the ambient transaction: each charge's amount counted against its member's spend limit, and a
   * pending payment for every charge the limits allow (one statement). Answers the refused ones.
   */
  async createPending(charges: StoredCardCharge[], now: Date): Promise<Map<string, ChargeRefusal>> {
    const manager = this.tx.manager;
    const verdicts = await this.limits.reserveSpendMany(
      manager,
      charges.map((c) => ({ key: c.id, userId: c.userId, amountCents: c.amountCents })),
      now,
    );
    const refused = new Map<string, ChargeRefusal>();
    const allowed: Array<StoredCardCharge & { month: string }> = [];
    for (const c of charges) {
      const v = verdicts.get(c.id);
      if (!v || 'refused' in v) refused.set(c.id, v && 'refused' in v ? v.refused : 'SPEND_LIMIT_REACHED');
      else allowed.push({ ...c, month: v.month });
    }
    await this.charges.insertPending(allowed);
    return refused;
  }

  /** Charges one stored card for its pending payment (outside any transaction). */
  charge(
    payment: { id: string; amountCents: number; currency: string },
    registrationId: string,
  ): Promise<GatewayVerdict> {
    return this.gateways.chargeStoredCard(
      { id: payment.id, amount_cents: payment.amountCents, currency: payment.currency },
      registrationId,
    );
  }

  /** What the gateway holds for a pending charge whose answer was lost (outside any transaction). */
  lookUp(paymentId: string): Promise<GatewayVerdict> {
    return this.gateways.verdict({ id: paymentId, gateway: 'gatewayone', checkout_id: null });
  }

  /**
   * In the ambient transaction: the charges that went through move to `succeeded` and are claimed for
   * fulfilment in one statement (only those still pending: a webhook may have settled one already);
   * the listeners of a success hear of each, and their points, activity rows and purchase e-mails follow,
   * set-based. Answers the claimed payments.
   */
  async settleSucceeded(
    results: Array<{ paymentId: string; verdict: GatewayVerdict }>,
  ): Promise<PaymentHead[]> {
    if (!results.length) return [];
    const won = await this.charges.claimPendingSuccesses(results);
    if (!won.length) return won;
    // Every listener of a success, as when a webhook settles the charge first: a referee's first payment
    // that is a charge on the card (the first after a trial) completes their referral.
    for (const p of won) await this.hooks.succeeded(p);
    // One after another: they share the transaction's connection, and after the first of a site its
    // rules come from the cache.
    const points: number[] = [];
    for (const p of won)
      points.push(
        await this.points.pointsForPayment({
          siteId: p.site_id,
          amountCents: p.amount_cents,
          currency: p.currency,
        }),
      );
    this.points.earnForPaymentsLater(
      won.flatMap((p, i) =>
        p.user_id
          ? [
              {
                userId: p.user_id,
                siteId: p.site_id,
                paymentTransactionId: p.id,
                points: points[i],
                reason: 'Points for a membership payment',
              },
            ]
          : [],
      ),
    );
    this.activity.recordManyLater(
      won.map((p) => ({
        userId: p.user_id,
        siteId: p.site_id,
        type: 'payment_status',
        description: 'Payment pending → succeeded (renewal)',
        resourceType: 'payment_transaction',
        resourceId: p.id,
        metadata: { from: 'pending', to: 'succeeded', source: 'renewal' },
      })),
      NO_REQUEST,
    );
    await this.jobs.enqueueMany(
      'payments.notify',
      won.map((p) => ({ payment_transaction_id: p.id })),
      { defer: true },
    );
    return won;
  }

  /**
   * In the ambient transaction: declined charges move to `failed` and give their spend back. Answers the ids
   * of every one that stands failed, those a webhook failed first included (their spend went back then), so
   * the caller settles what the charge was for exactly once either way.
   */
  async settleFailed(results: Array<{ paymentId: string; verdict: GatewayVerdict }>): Promise<string[]> {
    if (!results.length) return [];
    const failed = await this.charges.failPending(results);
    const moved = new Set(failed.map((p) => p.id));
    const before = await this.charges.failedAlready(
      results.map((r) => r.paymentId).filter((id) => !moved.has(id)),
    );
    await this.unpaid(failed, 'failed', 'Payment pending → failed (renewal)');
    return [...moved, ...before];
  }

  /**
   * In the ambient transaction: charges that provably never reached the gateway (it turned them away, or
   * they timed out waiting for a connection) are called off, `cancelled`, and give their spend back. Nothing
   * was taken, so nothing is looked up; the caller charges again later under a new payment. Answers the ids
   * of those that moved.
   */
  async cancelUnsent(unsent: Array<{ paymentId: string; httpStatus: number | null }>): Promise<string[]> {
    if (!unsent.length) return [];
    const cancelled = await this.charges.cancelPending(
      unsent.map((u) => ({
        paymentId: u.paymentId,
        verdict: { gatewayPaymentId: null, raw: { not_sent: true, http_status: u.httpStatus } },
      })),
    );
    await this.unpaid(
      cancelled,
      'cancelled',
      'Payment pending → cancelled (renewal never reached the gateway)',
    );
    return cancelled.map((p) => p.id);
  }

  /** The spend of payments that took nothing given back, and their move in the activity log. */
  private async unpaid(
    payments: PaymentHead[],
    to: 'failed' | 'cancelled',
    description: string,
  ): Promise<void> {
    await this.limits.releaseSpendMany(
      this.tx.manager,
      payments.flatMap((p) =>
        p.user_id && p.spend_month
          ? [{ userId: p.user_id, amountCents: p.amount_cents, month: p.spend_month }]
          : [],
      ),
    );
    this.activity.recordManyLater(
      payments.map((p) => ({
        userId: p.user_id,
        siteId: p.site_id,
        type: 'payment_status',
        description,
        resourceType: 'payment_transaction',
        resourceId: p.id,
        metadata: { from: 'pending', to, source: 'renewal' },
      })),
      NO_REQUEST,
    );
  }
}
