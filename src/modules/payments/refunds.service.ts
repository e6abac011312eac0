import { HttpStatus, Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { NO_REQUEST, type RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { ResponsiblePlayService } from '#app/modules/responsible-play/responsible-play.service.js';
import { PointsService } from '#app/modules/rewards/points.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { PaymentGateways } from './payment-gateways.js';
import { PaymentHooks } from './hooks/payment-hooks.js';
import { headOf } from './payment-head.js';
import { PaymentsRepository } from './payments.repository.js';
import { RefundAmountsRepository } from './refund-amounts.repository.js';

export type RefundResult =
  | { done: true; payment: PaymentTransaction }
  /** `unrefundable`: nothing (or not that much) is left to refund, or the payment is not settled. */
  | { done: false; reason: string; unrefundable?: boolean };

/**
 * Refunds, full or partial, at the gateway. The amount is reserved on the payment row first (one
 * conditional UPDATE), so two refunds can never together pass what was paid; the gateway is called
 * outside any transaction; then the refund is settled, the points it earned reversed pro rata, and the
 * spend it counted given back.
 */
@Injectable()
export class RefundsService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly amounts: RefundAmountsRepository,
    private readonly gateways: PaymentGateways,
    private readonly points: PointsService,
    private readonly limits: ResponsiblePlayService,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
    private readonly hooks: PaymentHooks,
  ) {}

  /**
   * The refund job's way in: refunds what is still unrefunded, up to `amountCents`. An admin may already
   * have refunded part of an order whose whole refund was queued; the job then sends only the rest, and
   * nothing when nothing is left (so it does not retry forever).
   */
  async refundRemaining(
    paymentId: string,
    amountCents: number,
    reason: string,
  ): Promise<RefundResult | { done: true; nothingLeft: true }> {
    const payment = await this.payments.findById(paymentId);
    if (!payment) return { done: false, reason: 'unknown payment' };
    const left = payment.amount_cents - payment.refunded_cents - payment.refund_pending_cents;
    if (left > 0) return this.refund(paymentId, Math.min(amountCents, left), reason, null);
    // Another refund is in flight: try again once it has settled. Otherwise all of it went back already.
    if (payment.refund_pending_cents > 0) return { done: false, reason: 'another refund is in flight' };
    return { done: true, nothingLeft: true };
  }

  async refund(
    paymentId: string,
    amountCents: number,
    reason: string,
    by: string | null,
    meta: RequestMeta = NO_REQUEST,
  ): Promise<RefundResult> {
    const payment = await this.payments.findById(paymentId);
    if (!payment) return { done: false, reason: 'unknown payment' };
    const reserved = await this.tx.run((manager) =>
      this.amounts.reserveRefund(payment.id, amountCents, manager),
    );
    if (!reserved)
      return {
        done: false,
        reason: 'nothing left to refund, or the payment is not settled',
        unrefundable: true,
      };
    let ok = false;
    let raw: Record<string, unknown> = {};
    try {
      ({ ok, raw } = await this.gateways.refund(payment, amountCents, reason));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      raw = { error: error.message, kind: error.kind };
    }
    const settled = await this.tx.run(async (manager) => {
      const after = await this.amounts.settleRefund(payment.id, amountCents, ok, manager);
      if (!ok) return after;
      await this.payments.update(
        payment.id,
        {
          metadata: {
            ...after.metadata,
            refunds: [
              ...asArray(after.metadata.refunds),
              { amount_cents: amountCents, reason, by, at: new Date().toISOString(), gateway: raw },
            ],
          },
        },
        manager,
      );
      if (after.user_id) {
        await this.points.reverseForPayment(manager, {
          paymentTransactionId: payment.id,
          fraction: { refundedCents: after.refunded_cents, totalCents: after.amount_cents },
          reason: `Refund: ${reason}`,
        });
        if (after.spend_month)
          await this.limits.releaseSpend(manager, {
            userId: after.user_id,
            amountCents,
            month: after.spend_month,
          });
      }
      await this.hooks.refunded({
        ...headOf(after),
        refund_cents: amountCents,
        refunded_cents: after.refunded_cents,
      });
      await this.activity.record(
        {
          userId: after.user_id,
          siteId: after.site_id,
          type: 'payment_refunded',
          description: `Refunded ${amountCents} ${after.currency}: ${reason}`,
          severity: 'warning',
          resourceType: 'payment_transaction',
          resourceId: after.id,
          metadata: { amount_cents: amountCents, by },
        },
        meta,
        manager,
      );
      return after;
    });
    return ok ? { done: true, payment: settled } : { done: false, reason: 'the gateway did not refund' };
  }

  /** `POST /admin/payments/{id}/refund`: the rest of the payment when no amount is given. */
  async adminRefund(
    payment: PaymentTransaction,
    amountCents: number | undefined,
    reason: string,
    adminId: string,
    meta: RequestMeta,
  ): Promise<PaymentTransaction> {
    const remaining = payment.amount_cents - payment.refunded_cents - payment.refund_pending_cents;
    const amount = amountCents ?? remaining;
    if (payment.status !== 'succeeded' && payment.status !== 'partially_refunded')
      throw AppException.conflict('NOT_REFUNDABLE', `A ${payment.status} payment cannot be refunded.`);
    if (amount <= 0 || amount > remaining)
      throw AppException.unprocessable('REFUND_TOO_LARGE', `At most ${remaining} can still be refunded.`);
    const result = await this.refund(payment.id, amount, reason, adminId, meta);
    // Another refund took what was left between our read and our reservation: the same answers as above.
    if (!result.done && result.unrefundable) {
      const now = await this.payments.findById(payment.id);
      const left = now ? now.amount_cents - now.refunded_cents - now.refund_pending_cents : 0;
      if (now && now.status !== 'succeeded' && now.status !== 'partially_refunded')
        throw AppException.conflict('NOT_REFUNDABLE', `A ${now.status} payment cannot be refunded.`);
      throw AppException.unprocessable('REFUND_TOO_LARGE', `At most ${left} can still be refunded.`);
    }
    if (!result.done)
      throw new AppException(
        HttpStatus.BAD_GATEWAY,
        'GATEWAY_UNAVAILABLE',
        `The refund was not made: ${result.reason}.`,
      );
    return result.payment;
  }
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
