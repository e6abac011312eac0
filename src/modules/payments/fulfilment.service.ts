import { Injectable } from '@nestjs/common';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { EntriesService } from '#app/modules/raffles/entries/entries.service.js';
import { type EntryRefusal, precheckEntry } from '#app/modules/raffles/entries/entries.rules.js';
import type { RaffleEntryRules } from '#app/modules/raffles/raffles.repository.js';
import { RafflesService } from '#app/modules/raffles/raffles.service.js';
import { PaymentPointsService } from '#app/modules/rewards/payment-points.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { Fulfilment } from './entities/payment-transaction.entity.js';
import { type PaymentHead, PaymentHooks, type PurposePlan } from './hooks/payment-hooks.js';
import { pausedWhenPaid } from './payments.rules.js';

/**
 * What fulfilling a paid order will do, decided before anything is written (and before the gateway has
 * even answered: it is planned beside that call). The claim marks the payment with `mark`.
 */
export interface FulfilmentPlan {
  mark: Fulfilment;
  /** Why the order cannot be fulfilled: then nothing is entered or earned and it is refunded whole. */
  refusal: string | null;
  /** The raffle the tickets go into, as read for the plan. */
  raffle: RaffleEntryRules | null;
  /** Points the payment earns (`paymentPoints` under the site's rules and the raffle's multiplier). */
  points: number;
  /** Queue the purchase e-mails (`payments.notify`). */
  notify: boolean;
  /** What another feature's handler decided for a payment made for it (`PaymentHooks`). */
  purpose: PurposePlan | null;
}

/**
 * The tickets went between the plan and the counter (sold out, or the buyer's cap reached by another of
 * their orders): the transaction is rolled back whole and the payment settled again as a refund.
 */
export class TicketsGone extends Error {
  constructor(readonly refusal: EntryRefusal) {
    super(`tickets could no longer be entered: ${refusal}`);
  }
}

/**
 * What a successful payment buys, done exactly once per payment inside the transaction of the claim
 * that won it (`PaymentOutcomeService`). Every write comes before the raffle's counter, which is the
 * transaction's last statement: the notify job, the points and the buyer's cap first, then the tickets
 * and the entry in one statement, then COMMIT. A paid order that cannot be entered whole is refunded.
 */
@Injectable()
export class FulfilmentService {
  constructor(
    private readonly entries: EntriesService,
    private readonly raffles: RafflesService,
    private readonly points: PaymentPointsService,
    private readonly activity: ActivityLogService,
    private readonly jobs: JobQueue,
    private readonly tx: TransactionRunner,
    private readonly hooks: PaymentHooks,
  ) {}

  /** Reads what the fulfilment needs (outside any transaction) and decides what it will do. */
  async plan(payment: PaymentHead): Promise<FulfilmentPlan> {
    // A checkout opened before its buyer paused themselves, paid during the pause: nothing is bought.
    if (pausedWhenPaid(payment.buyer_paused_until, new Date())) return refunding('SELF_PAUSED');
    const handler = this.hooks.handlerOf(payment.purpose);
    if (handler) {
      const purpose = await handler.plan(payment);
      if (purpose.refusal) return refunding(purpose.refusal);
      return {
        mark: purpose.mark,
        refusal: null,
        raffle: null,
        points:
          purpose.points ??
          (payment.user_id ? await this.points.pointsForPayment(pointsInput(payment, null)) : 0),
        notify: purpose.notify ?? true,
        purpose,
      };
    }
    if (payment.purpose !== 'raffle' || !payment.raffle_id || !payment.user_id)
      return {
        mark: 'recorded',
        refusal: null,
        raffle: null,
        points: payment.user_id ? await this.points.pointsForPayment(pointsInput(payment, null)) : 0,
        notify: true,
        purpose: null,
      };
    const raffle = await this.entryRules(payment.raffle_id, payment.tickets);
    const refusal = raffle ? precheckEntry(raffle, payment.tickets, new Date()) : 'RAFFLE_CLOSED';
    if (!raffle || refusal) return refunding(refusal ?? 'RAFFLE_CLOSED');
    const multiplier = raffle.points_enabled ? raffle.points_multiplier : null;
    return {
      mark: 'entered',
      refusal: null,
      raffle,
      points: await this.points.pointsForPayment(pointsInput(payment, multiplier)),
      notify: true,
      purpose: null,
    };
  }

  /**
   * The raffle's rules for a plan: this instance's copy (`RafflesService.entryRules`) when it lets the
   * order through — the counter checks it again — else the row itself, so nobody is refunded on a copy
   * that was behind (a raffle reopened, its total raised).
   */
  private async entryRules(raffleId: string, tickets: number): Promise<RaffleEntryRules | null> {
    const copy = await this.raffles.entryRules(raffleId);
    if (copy && !precheckEntry(copy, tickets, new Date())) return copy;
    return this.raffles.entryRules(raffleId, true);
  }

  /** The plan of an order whose tickets went after all: refund it whole. */
  refunding(refusal: string): FulfilmentPlan {
    return refunding(refusal);
  }

  /**
   * In the claim's transaction. What reads first (every listener — a first payment completes a referral
   * — and the purpose's own fulfilment); then the writes nobody reads back, deferred to travel with the
   * next statement (the purchase e-mails' job, the points); a raffle's tickets last, committing, or the
   * COMMIT. Throws `TicketsGone` when the counter refuses the tickets, or the buyer paused themselves since the plan.
   */
  async fulfil(payment: PaymentHead, plan: FulfilmentPlan): Promise<void> {
    if (plan.refusal) return this.refundWhole(payment, plan.refusal, plan.notify);
    // The claimed row carries a pause its buyer began after the plan was made (while the gateway was asked):
    // roll back and settle it refused, as tickets gone meanwhile are.
    if (pausedWhenPaid(payment.buyer_paused_until, new Date())) throw new TicketsGone('SELF_PAUSED');
    await this.hooks.succeeded(payment);
    const handler = plan.purpose && this.hooks.handlerOf(payment.purpose);
    if (handler && plan.purpose) await handler.fulfil(payment, plan.purpose);
    if (plan.notify) await this.notify(payment);
    if (payment.user_id)
      this.points.earnForPaymentLater({
        userId: payment.user_id,
        siteId: payment.site_id,
        paymentTransactionId: payment.id,
        points: plan.points,
        reason: plan.raffle ? 'Points for a raffle purchase' : 'Points for a payment',
        meta: { ip: payment.ip_address, userAgent: payment.user_agent },
      });
    if (!plan.raffle || !payment.user_id) return;
    const result = await this.entries.enter({
      raffle: plan.raffle,
      userId: payment.user_id,
      siteId: payment.site_id,
      quantity: payment.tickets,
      method: 'paid',
      paymentTransactionId: payment.id,
      meta: { ip: payment.ip_address, userAgent: payment.user_agent },
    });
    // Sold out, or refused on a copy that was behind: the next plans read the raffle's row.
    if (!result.ok || result.soldOut) this.raffles.forgetEntryRules(plan.raffle.id);
    if (!result.ok) throw new TicketsGone(result.refusal);
  }

  private notify(payment: PaymentHead): Promise<void> {
    return this.jobs.enqueue('payments.notify', { payment_transaction_id: payment.id }, { defer: true });
  }

  /** Nothing is entered and nothing earned: the whole payment goes back, by a job, and the buyer is told. */
  private async refundWhole(payment: PaymentHead, refusal: string, notify: boolean): Promise<void> {
    if (notify) await this.notify(payment);
    await this.jobs.enqueue(
      'payments.refund',
      { payment_transaction_id: payment.id, amount_cents: payment.amount_cents, reason: refusal },
      { singletonKey: `unfillable:${payment.id}`, defer: true },
    );
    this.activity.recordLater(
      {
        userId: payment.user_id,
        siteId: payment.site_id,
        type: 'purchase_unfillable',
        description: `Paid order could not be entered (${refusal}); full refund queued`,
        severity: 'warning',
        resourceType: 'payment_transaction',
        resourceId: payment.id,
      },
      NO_REQUEST,
    );
  }
}

function refunding(refusal: string): FulfilmentPlan {
  return { mark: 'refunded_unfillable', refusal, raffle: null, points: 0, notify: true, purpose: null };
}

function pointsInput(payment: PaymentHead, multiplier: number | null) {
  return {
    siteId: payment.site_id,
    amountCents: payment.amount_cents,
    currency: payment.currency,
    multiplier,
  };
}
