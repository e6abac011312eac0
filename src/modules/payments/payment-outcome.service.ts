import { Injectable } from '@nestjs/common';
import { KeyedGate } from '#app/common/keyed-gate.js';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ResponsiblePlayService } from '#app/modules/responsible-play/responsible-play.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { PaymentStatus, PaymentTransaction } from './entities/payment-transaction.entity.js';
import { type FulfilmentPlan, FulfilmentService, TicketsGone } from './fulfilment.service.js';
import { type PaymentHead, PaymentsRepository } from './payments.repository.js';
import {
  type GatewayOutcome,
  nextStatus,
  recountsSpend,
  releasesSpend,
  reportNamesPayment,
} from './payments.rules.js';
import {
  CLIENT_CLAIMS_KEPT,
  type ReportChanges,
  SuccessClaimsRepository,
} from './success-claims.repository.js';

export interface OutcomeReport {
  outcome: GatewayOutcome;
  /** webhook, confirmation, reconciliation */
  source: string;
  gatewayPaymentId?: string | null;
  gatewayResponse?: Record<string, unknown>;
  webhook?: Record<string, unknown>;
  /** What a client claimed (endpoint 3's result_code/status): recorded, never trusted. */
  clientClaim?: Record<string, unknown>;
}

/**
 * How many sales of one raffle an instance runs at once; the rest wait in the app, holding no connection.
 * Every sale of a raffle queues on its counter row anyway (one at a time, lock held to COMMIT), so more in
 * flight only parks pooled connections on that lock: at 50 buyers of one raffle all ten were, and every other
 * request of the instance (the next buyer's payment read included) waited behind them. Three keep the row
 * busy (one committing, one waiting at the row, one on its way) and leave seven connections for the rest.
 */
export const RAFFLE_SALES_AT_ONCE = 3;

/**
 * Applies what a gateway said about a payment; webhook, confirmation and reconciliation all end here.
 * A success of a payment nobody fulfilled yet is settled in one transaction that starts with ONE
 * conditional UPDATE (status, fulfilment claim and the report together; it answers whether this caller
 * won), then the fulfilment, whose last statement is the raffle's counter. Whoever loses the claim, and
 * every other report, is recorded under the payment row's lock. Statuses only move forward.
 */
@Injectable()
export class PaymentOutcomeService {
  /** Each raffle's sales on this instance, `RAFFLE_SALES_AT_ONCE` at a time (`inRaffleTurn`). */
  private readonly raffleSales = new KeyedGate(RAFFLE_SALES_AT_ONCE);

  constructor(
    private readonly payments: PaymentsRepository,
    private readonly claims: SuccessClaimsRepository,
    private readonly fulfilment: FulfilmentService,
    private readonly limits: ResponsiblePlayService,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
  ) {}

  /** The raffle sales this instance runs and those waiting for their raffle's turn, over all raffles. */
  raffleTurns(): { running: number; waiting: number } {
    return this.raffleSales.totals();
  }

  /**
   * Starts planning the fulfilment of a payment that a success would fulfil, so that its reads run
   * beside the caller's call to the gateway; hand the promise to `apply`.
   */
  planFor(payment: PaymentHead): Promise<FulfilmentPlan> | undefined {
    if (payment.fulfilled_at) return undefined;
    const planning = this.fulfilment.plan(payment);
    planning.catch(() => undefined); // awaited (and its failure reported) by `apply`
    return planning;
  }

  async apply(
    ref: string | PaymentHead,
    report: OutcomeReport,
    planning?: Promise<FulfilmentPlan>,
  ): Promise<PaymentHead | null> {
    const payment = typeof ref === 'string' ? await this.payments.head(ref) : ref;
    if (!payment) return null;
    if (report.outcome === 'succeeded' && !payment.fulfilled_at) {
      const plan = await (planning ?? this.fulfilment.plan(payment));
      const settled = await this.inRaffleTurn(plan, () => this.settleSuccess(payment, report, plan)).catch(
        (error: unknown) => {
          if (!(error instanceof TicketsGone)) throw error;
          return this.settleSuccess(payment, report, this.fulfilment.refunding(error.refusal));
        },
      );
      if (settled) return settled;
    }
    return this.tx.run(() => this.record(payment.id, report));
  }

  /**
   * The success and the fulfilment in one transaction; null when another caller had already won. A sale
   * that no other feature fulfils (a raffle's tickets, a generic payment) is claimed as it was read: the
   * claim goes ahead of the fulfilment in the same message, which is then the whole transaction, START to
   * COMMIT. Should the payment have moved since it was read (or someone else won), nothing of that is kept
   * and it is claimed again the ordinary way, from whatever status it has. Another feature's fulfilment
   * (`PaymentHooks`) reads the claimed row (a membership its card's registration), so it always waits for it.
   */
  private async settleSuccess(
    payment: PaymentHead,
    report: OutcomeReport,
    plan: FulfilmentPlan,
  ): Promise<PaymentHead | null> {
    const changes = changesOf(report);
    if (!plan.purpose) {
      const claimed = await this.claims.claimSuccessAsRead(
        payment,
        changes,
        plan.mark,
        plan.refusal,
        async () => {
          await this.transitioned(payment, payment.status, 'succeeded', report.source);
          await this.fulfilment.fulfil(payment, plan);
        },
      );
      if (claimed) return claimed;
    }
    return this.claims.claimSuccessThen(payment.id, changes, plan.mark, plan.refusal, async (claim) => {
      if (!claim) return null;
      await this.transitioned(claim.payment, claim.previous, 'succeeded', report.source);
      await this.fulfilment.fulfil(claim.payment, plan);
      return claim.payment;
    });
  }

  /**
   * A sale that enters a raffle waits its turn among that raffle's sales (`RAFFLE_SALES_AT_ONCE`) before its
   * transaction takes a connection. Not inside another transaction: a caller holding row locks while it
   * waited could wait on a sale that waits on its locks, a deadlock the database could not see.
   */
  private inRaffleTurn<T>(plan: FulfilmentPlan, settle: () => Promise<T>): Promise<T> {
    if (!plan.raffle || this.tx.active) return settle();
    return this.raffleSales.run(plan.raffle.id, settle);
  }

  /** Any other report (and a success someone else fulfilled): the row locked, the status moved forward. */
  private async record(id: string, report: OutcomeReport): Promise<PaymentHead | null> {
    const manager = this.tx.manager;
    const payment = await this.payments.lock(id, manager);
    if (!payment) return null;
    const before = payment.status;
    const after = nextStatus(before, report.outcome);
    const changes: Partial<PaymentTransaction> = { status: after };
    if (reportNamesPayment(before)) {
      if (report.gatewayPaymentId) changes.gateway_transaction_id = report.gatewayPaymentId;
      if (report.gatewayResponse) changes.gateway_response = report.gatewayResponse;
      if (report.webhook) {
        changes.webhook_received_at = new Date();
        changes.webhook_data = report.webhook;
      }
    }
    if (report.clientClaim) {
      const claims: unknown[] = Array.isArray(payment.metadata.client_claims)
        ? (payment.metadata.client_claims as unknown[])
        : [];
      changes.metadata = {
        ...payment.metadata,
        client_claims: [...claims, report.clientClaim].slice(-CLIENT_CLAIMS_KEPT),
      };
    }
    await this.payments.update(payment.id, changes, manager);
    await this.transitioned({ ...payment, ...changes }, before, after, report.source);
    return this.payments.head(payment.id);
  }

  /** What a status change brings with it: its activity entry and the buyer's spend limit kept right. */
  private async transitioned(
    payment: Pick<PaymentHead, 'id' | 'user_id' | 'site_id' | 'amount_cents' | 'spend_month'>,
    before: PaymentStatus,
    after: PaymentStatus,
    source: string,
  ): Promise<void> {
    if (before === after) return;
    if (payment.user_id && payment.spend_month) {
      const spend = {
        userId: payment.user_id,
        amountCents: payment.amount_cents,
        month: payment.spend_month,
      };
      if (releasesSpend(before, after)) await this.limits.releaseSpend(this.tx.manager, spend);
      if (recountsSpend(before, after)) await this.limits.recountSpend(this.tx.manager, spend);
    }
    this.activity.recordLater(
      {
        userId: payment.user_id,
        siteId: payment.site_id,
        type: 'payment_status',
        description: `Payment ${before} → ${after} (${source})`,
        resourceType: 'payment_transaction',
        resourceId: payment.id,
        metadata: { from: before, to: after, source },
      },
      NO_REQUEST,
    );
  }
}

function changesOf(report: OutcomeReport): ReportChanges {
  return {
    gatewayPaymentId: report.gatewayPaymentId ?? null,
    gatewayResponse: report.gatewayResponse ?? null,
    webhook: report.webhook ?? null,
    clientClaim: report.clientClaim ?? null,
  };
}
