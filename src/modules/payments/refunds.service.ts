import { HttpStatus, Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { NO_REQUEST, type RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { HeldRefundsService } from './held-refunds.service.js';
import { PaymentGateways } from './payment-gateways.js';
import { PaymentsRepository } from './payments.repository.js';
import { unrefunded } from './payments.rules.js';
import { RefundAmountsRepository } from './refund-amounts.repository.js';
import { RefundEffectsService } from './refund-effects.service.js';
import { type Refund, refundEntry, sentOfQueued } from './refund-entries.js';

export type RefundResult =
  | { done: true; payment: PaymentTransaction }
  /**
   * `unrefundable`: nothing (or not that much) is left to refund, or the payment is not settled. `held`: the
   * gateway's answer was lost; the amount stays reserved until `HeldRefundsService.settle` learns whether it
   * was made.
   */
  | { done: false; reason: string; unrefundable?: boolean; held?: boolean };

/**
 * Refunds, full or partial, at the gateway. The amount is reserved on the payment row first (one
 * conditional UPDATE), so two refunds can never together pass what was paid; the gateway is called
 * outside any transaction; then the refund is settled with what it brings (`RefundEffectsService`), or held
 * when the gateway's answer was lost (`HeldRefundsService`).
 */
@Injectable()
export class RefundsService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly amounts: RefundAmountsRepository,
    private readonly gateways: PaymentGateways,
    private readonly effects: RefundEffectsService,
    private readonly held: HeldRefundsService,
    private readonly tx: TransactionRunner,
  ) {}

  /**
   * The refund job's way in: refunds `amountCents` once, however often the job runs. What it already gave
   * back is in the payment's history under `queued_refund` (its amount: one job per payment and amount,
   * DESIGN's singleton key). An admin may already have refunded part of an order whose whole refund was
   * queued; the job then sends only what is left, and nothing when nothing is (so it does not retry
   * forever). While any refund is in flight or held after a lost answer, it waits (throws, and the queue
   * retries): sending now could pay the same money twice.
   */
  async refundRemaining(
    paymentId: string,
    amountCents: number,
    reason: string,
    tellBuyer = false,
  ): Promise<RefundResult | { done: true; nothingLeft: true }> {
    const payment = await this.payments.findById(paymentId);
    if (!payment) return { done: false, reason: 'unknown payment', unrefundable: true };
    if (payment.refund_pending_cents > 0)
      return { done: false, reason: 'another refund is in flight, or held until the gateway is asked' };
    const sent = sentOfQueued(payment, amountCents);
    const amount = Math.min(amountCents - sent, payment.amount_cents - payment.refunded_cents);
    if (amount <= 0) return { done: true, nothingLeft: true };
    return this.refund(paymentId, { amountCents: amount, reason, by: null, queued: amountCents, tellBuyer });
  }

  /**
   * Whether anything of a payment may still be given back: settled, with an amount left or a refund in flight
   * (which the gateway may yet refuse, giving its amount back to refund).
   */
  async mayStillRefund(paymentId: string): Promise<boolean> {
    const p = await this.payments.findById(paymentId);
    if (!p || (p.status !== 'succeeded' && p.status !== 'partially_refunded')) return false;
    return unrefunded(p) > 0 || p.refund_pending_cents > 0;
  }

  async refund(paymentId: string, refund: Refund, meta: RequestMeta = NO_REQUEST): Promise<RefundResult> {
    const { amountCents, reason, queued } = refund;
    const payment = await this.payments.findById(paymentId);
    if (!payment) return { done: false, reason: 'unknown payment', unrefundable: true };
    const reserved = await this.tx.run((manager) =>
      this.amounts.reserveRefund(payment.id, amountCents, manager, queued),
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
      // The gateway may have refunded all the same: the amount stays reserved (no second refund can pass
      // it) until the gateway is asked what it gave back. Sending it again could pay twice.
      if (error.mayHaveActed) {
        await this.held.hold(payment, refund, error, meta);
        return {
          done: false,
          held: true,
          reason:
            'the gateway did not answer, and may have refunded: the amount is held until the gateway is asked what it refunded (within minutes)',
        };
      }
      raw = { error: error.message, kind: error.kind };
    }
    const settled = await this.tx.run(async (manager) => {
      const after = await this.amounts.settleRefund(payment.id, amountCents, ok, manager);
      if (ok) await this.effects.gaveBack(after, [refundEntry(refund, raw)], meta, manager);
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
    const remaining = unrefunded(payment);
    const amount = amountCents ?? remaining;
    if (payment.status !== 'succeeded' && payment.status !== 'partially_refunded')
      throw AppException.conflict('NOT_REFUNDABLE', `A ${payment.status} payment cannot be refunded.`);
    if (amount <= 0 || amount > remaining)
      throw AppException.unprocessable('REFUND_TOO_LARGE', `At most ${remaining} can still be refunded.`);
    const result = await this.refund(payment.id, { amountCents: amount, reason, by: adminId }, meta);
    // Another refund took what was left between our read and our reservation: the same answers as above.
    if (!result.done && result.unrefundable) {
      const now = await this.payments.findById(payment.id);
      const left = now ? unrefunded(now) : 0;
      if (now && now.status !== 'succeeded' && now.status !== 'partially_refunded')
        throw AppException.conflict('NOT_REFUNDABLE', `A ${now.status} payment cannot be refunded.`);
      throw AppException.unprocessable('REFUND_TOO_LARGE', `At most ${left} can still be refunded.`);
    }
    if (!result.done)
      throw new AppException(
        HttpStatus.BAD_GATEWAY,
        'GATEWAY_UNAVAILABLE',
        result.held
          ? `The refund's outcome is unknown: ${result.reason}.`
          : `The refund was not made: ${result.reason}.`,
      );
    return result.payment;
  }
}
