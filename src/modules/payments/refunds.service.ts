import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
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
import { heldRefundMade, unrefunded } from './payments.rules.js';
import { RefundAmountsRepository } from './refund-amounts.repository.js';

export type RefundResult =
  | { done: true; payment: PaymentTransaction }
  /**
   * `unrefundable`: nothing (or not that much) is left to refund, or the payment is not settled. `held`: the
   * gateway's answer was lost; the amount stays reserved until `settleHeld` learns whether it was made.
   */
  | { done: false; reason: string; unrefundable?: boolean; held?: boolean };

/** The reason a refund settled by look-up carries in the payment's history (the admin's is in the activity log). */
const HELD_REASON = 'settled by asking the gateway after its answer was lost';

/**
 * Refunds, full or partial, at the gateway. The amount is reserved on the payment row first (one
 * conditional UPDATE), so two refunds can never together pass what was paid; the gateway is called
 * outside any transaction; then the refund is settled, the points it earned reversed pro rata, and the
 * spend it counted given back.
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger(RefundsService.name);

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
  ): Promise<RefundResult | { done: true; nothingLeft: true }> {
    const payment = await this.payments.findById(paymentId);
    if (!payment) return { done: false, reason: 'unknown payment' };
    if (payment.refund_pending_cents > 0)
      return { done: false, reason: 'another refund is in flight, or held until the gateway is asked' };
    const sent = asArray(payment.metadata.refunds)
      .filter((r): r is { amount_cents: number } => isRecord(r) && r.queued_refund === amountCents)
      .reduce((sum, r) => sum + r.amount_cents, 0);
    const amount = Math.min(amountCents - sent, payment.amount_cents - payment.refunded_cents);
    if (amount <= 0) return { done: true, nothingLeft: true };
    return this.refund(paymentId, amount, reason, null, NO_REQUEST, amountCents);
  }

  async refund(
    paymentId: string,
    amountCents: number,
    reason: string,
    by: string | null,
    meta: RequestMeta = NO_REQUEST,
    /** The queued refund (its amount) this one is part of, when the refund job sends it. */
    queued?: number,
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
      // The gateway may have refunded all the same: the amount stays reserved (no second refund can pass
      // it) until the gateway is asked what it gave back (`settleHeld`). Sending it again could pay twice.
      if (error.mayHaveActed) return this.held(payment, { amountCents, reason, by, queued }, error, meta);
      raw = { error: error.message, kind: error.kind };
    }
    const settled = await this.tx.run(async (manager) => {
      const after = await this.amounts.settleRefund(payment.id, amountCents, ok, manager);
      if (ok) await this.gaveBack(after, [entry({ amountCents, reason, by, queued }, raw)], meta, manager);
      return after;
    });
    return ok ? { done: true, payment: settled } : { done: false, reason: 'the gateway did not refund' };
  }

  /**
   * Settles the refunds held after a lost answer, and any a stopped process left reserved: for each payment
   * whose reservation is older than `olderThan`, the gateway says what it gave back in all; what it gave
   * beyond what we recorded was refunded, the rest of the reservation goes back. A payment whose figures
   * do not fit (the gateway gave back more than was reserved, or less than we recorded) is left for an
   * admin and logged. Answers how many payments were settled.
   */
  async settleHeld(olderThan: Date, limit: number): Promise<number> {
    let settled = 0;
    const held = await this.tx.run((manager) => this.amounts.heldSince(olderThan, limit, manager));
    for (const row of held) {
      let atGateway: number;
      try {
        atGateway = await this.gateways.refundedAtGateway(row);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        continue; // asked again on the next run
      }
      const made = heldRefundMade(row, atGateway);
      if (made === null) {
        this.logger.error(
          {
            payment_id: row.id,
            refunded_cents: row.refunded_cents,
            refund_pending_cents: row.refund_pending_cents,
            at_gateway_cents: atGateway,
          },
          'held refund does not match what the gateway refunded; left for an admin',
        );
        continue;
      }
      const moved = await this.tx.run(async (manager) => {
        const after = await this.amounts.settleHeld(row, made, manager);
        if (after && made > 0)
          await this.gaveBack(after, heldEntries(row, made, atGateway), NO_REQUEST, manager);
        return after;
      });
      if (moved) settled++;
    }
    return settled;
  }

  /**
   * A refund whose answer was lost: kept reserved, and noted on the payment (`held_refunds`, so that once
   * the gateway says it was made it is recorded as it was asked) and in the activity log.
   */
  private async held(
    payment: PaymentTransaction,
    refund: Refund,
    error: ProviderError,
    meta: RequestMeta,
  ): Promise<RefundResult> {
    this.logger.warn(
      { payment_id: payment.id, amount_cents: refund.amountCents, err: error.message },
      'refund answer lost; held',
    );
    await this.tx.run(async (manager) => {
      await this.amounts.noteHeld(payment.id, entry(refund, { held: error.message }), manager);
      await this.activity.record(
        {
          userId: payment.user_id,
          siteId: payment.site_id,
          type: 'payment_refund_held',
          description: `Refund of ${refund.amountCents} ${payment.currency} unanswered by the gateway: held until it is asked (${refund.reason})`,
          severity: 'warning',
          resourceType: 'payment_transaction',
          resourceId: payment.id,
          metadata: { amount_cents: refund.amountCents, by: refund.by },
        },
        meta,
        manager,
      );
    });
    return {
      done: false,
      held: true,
      reason:
        'the gateway did not answer, and may have refunded: the amount is held until the gateway is asked what it refunded (within minutes)',
    };
  }

  /**
   * What money given back brings with it, in the settling transaction: the refunds in the payment's history,
   * the points it earned reversed pro rata, the spend it counted given back, the
   * features it paid for told, and the activity entry.
   */
  private async gaveBack(
    after: PaymentTransaction,
    entries: RefundEntry[],
    meta: RequestMeta,
    manager: EntityManager,
  ): Promise<void> {
    const amountCents = entries.reduce((sum, e) => sum + e.amount_cents, 0);
    const reason = entries.map((e) => e.reason).join('; ');
    await this.payments.update(
      after.id,
      { metadata: { ...after.metadata, refunds: [...asArray(after.metadata.refunds), ...entries] } },
      manager,
    );
    if (after.user_id) {
      await this.points.reverseForPayment(manager, {
        paymentTransactionId: after.id,
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
        metadata: { amount_cents: amountCents, by: entries.length === 1 ? entries[0].by : null },
      },
      meta,
      manager,
    );
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
    const result = await this.refund(payment.id, amount, reason, adminId, meta);
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

/** A refund as it was asked: its amount, why, by whom, and the queued refund it is part of. */
interface Refund {
  amountCents: number;
  reason: string;
  by: string | null;
  queued?: number;
}

/** A refund in the payment's history (`metadata.refunds`), and while held (`metadata.held_refunds`). */
interface RefundEntry {
  amount_cents: number;
  reason: string;
  by: string | null;
  at: string;
  gateway: Record<string, unknown>;
  queued_refund?: number;
}

function entry(refund: Refund, gateway: Record<string, unknown>): RefundEntry {
  return {
    amount_cents: refund.amountCents,
    reason: refund.reason,
    by: refund.by,
    at: new Date().toISOString(),
    gateway,
    ...(refund.queued !== undefined ? { queued_refund: refund.queued } : {}),
  };
}

/**
 * The history entries of held refunds the gateway says it made: as they were asked when all of them were
 * made; one entry naming the look-up when only some were (which cannot say which), or none was noted (a
 * process that stopped midway).
 */
function heldEntries(row: PaymentTransaction, made: number, atGateway: number): RefundEntry[] {
  const held = asArray(row.metadata.held_refunds).filter(isRecord) as unknown as RefundEntry[];
  const lookUp = { refunded_at_gateway_cents: atGateway };
  if (held.reduce((sum, e) => sum + e.amount_cents, 0) === made)
    return held.map((e) => ({ ...e, at: new Date().toISOString(), gateway: lookUp }));
  return [entry({ amountCents: made, reason: HELD_REASON, by: null }, lookUp)];
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
