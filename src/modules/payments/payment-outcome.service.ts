import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ResponsiblePlayService } from '#app/modules/responsible-play/responsible-play.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { FulfilmentService } from './fulfilment.service.js';
import { PaymentsRepository } from './payments.repository.js';
import { type GatewayOutcome, nextStatus, recountsSpend, releasesSpend } from './payments.rules.js';

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
 * Applies what a gateway said about a payment. The payment row is locked for the whole transaction, so
 * a webhook, a confirmation call and a reconciliation poll for one payment take turns, and whichever
 * sees the success first fulfils it; the others find it done.
 */
@Injectable()
export class PaymentOutcomeService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly fulfilment: FulfilmentService,
    private readonly limits: ResponsiblePlayService,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
  ) {}

  apply(paymentId: string, report: OutcomeReport): Promise<PaymentTransaction | null> {
    return this.tx.run((manager) => this.applyIn(manager, paymentId, report));
  }

  async applyIn(
    manager: EntityManager,
    paymentId: string,
    report: OutcomeReport,
  ): Promise<PaymentTransaction | null> {
    const payment = await this.payments.lock(paymentId, manager);
    if (!payment) return null;
    const before = payment.status;
    const after = nextStatus(before, report.outcome);
    const changes: Partial<PaymentTransaction> = { status: after };
    if (report.gatewayPaymentId) changes.gateway_transaction_id = report.gatewayPaymentId;
    if (report.gatewayResponse) changes.gateway_response = report.gatewayResponse;
    if (report.webhook) {
      changes.webhook_received_at = new Date();
      changes.webhook_data = report.webhook;
    }
    if (report.clientClaim) {
      const claims: unknown[] = Array.isArray(payment.metadata.client_claims)
        ? (payment.metadata.client_claims as unknown[])
        : [];
      changes.metadata = { ...payment.metadata, client_claims: [...claims, report.clientClaim].slice(-10) };
    }
    await this.payments.update(payment.id, changes, manager);
    const updated: PaymentTransaction = { ...payment, ...changes };
    if (before !== after) {
      await this.activity.record(
        {
          userId: payment.user_id,
          siteId: payment.site_id,
          type: 'payment_status',
          description: `Payment ${before} → ${after} (${report.source})`,
          resourceType: 'payment_transaction',
          resourceId: payment.id,
          metadata: { from: before, to: after, source: report.source },
        },
        NO_REQUEST,
        manager,
      );
    }
    if (releasesSpend(before, after) && payment.user_id && payment.spend_month) {
      await this.limits.releaseSpend(manager, {
        userId: payment.user_id,
        amountCents: payment.amount_cents,
        month: payment.spend_month,
      });
    }
    if (recountsSpend(before, after) && payment.user_id && payment.spend_month) {
      await this.limits.recountSpend(manager, {
        userId: payment.user_id,
        amountCents: payment.amount_cents,
        month: payment.spend_month,
      });
    }
    if (after === 'succeeded' && !payment.fulfilled_at) await this.fulfilment.fulfil(manager, updated);
    return this.payments.findById(payment.id, manager);
  }
}
