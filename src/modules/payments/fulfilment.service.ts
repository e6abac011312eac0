import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { rollbackToSavepoint, savepoint } from '#app/infra/database/savepoints.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { EntriesService } from '#app/modules/raffles/entries/entries.service.js';
import { RafflesService } from '#app/modules/raffles/raffles.service.js';
import { PointsService } from '#app/modules/rewards/points.service.js';
import { pointsForPayment } from '#app/modules/rewards/rewards.rules.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { PaymentsRepository } from './payments.repository.js';
import { purchasePoints } from './payments.rules.js';

/**
 * What a successful payment buys, done exactly once per payment whichever of webhook, confirmation or
 * reconciliation gets here first: `claimFulfilment` lets one caller through, and the payment row is
 * locked by the caller for the whole transaction. For a raffle order the tickets are entered whole or
 * not at all; when they can no longer be (sold out, or the buyer's cap reached meanwhile) the whole
 * payment is refunded by a job and the buyer is told.
 */
@Injectable()
export class FulfilmentService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly entries: EntriesService,
    private readonly raffles: RafflesService,
    private readonly points: PointsService,
    private readonly activity: ActivityLogService,
    private readonly sites: SitesService,
    private readonly jobs: JobQueue,
  ) {}

  /** Runs inside the caller's transaction, which holds the payment row's lock. */
  async fulfil(manager: EntityManager, payment: PaymentTransaction): Promise<void> {
    if (!(await this.payments.claimFulfilment(payment.id, manager))) return;
    if (payment.purpose !== 'raffle' || !payment.raffle_id || !payment.user_id) {
      await this.earn(manager, payment, 1);
      await this.payments.update(payment.id, { fulfilment: 'recorded' }, manager);
      await this.jobs.enqueue('payments.notify', { payment_transaction_id: payment.id }, { manager });
      return;
    }
    const raffle = await this.raffles.findById(payment.raffle_id, manager);
    const tickets = Number(payment.order_details.tickets ?? 0);
    // Everything that is not the raffle's counter first; the counter (the contended row) last.
    await this.jobs.enqueue('payments.notify', { payment_transaction_id: payment.id }, { manager });
    await savepoint(manager, 'fulfil_payment');
    await this.earn(
      manager,
      payment,
      raffle?.points_enabled && raffle.points_multiplier ? raffle.points_multiplier : 1,
    );
    const result = await this.entries.enter(manager, {
      raffleId: payment.raffle_id,
      userId: payment.user_id,
      siteId: payment.site_id,
      quantity: tickets,
      method: 'paid',
      paymentTransactionId: payment.id,
      meta: { ip: payment.ip_address, userAgent: payment.user_agent, requestId: null, sessionId: null },
      raffle: raffle ?? undefined,
    });
    if (result.ok) {
      await this.payments.update(payment.id, { fulfilment: 'entered' }, manager);
      return;
    }
    // Nothing is entered and nothing earned: the whole payment goes back.
    await rollbackToSavepoint(manager, 'fulfil_payment');
    await this.payments.update(
      payment.id,
      { fulfilment: 'refunded_unfillable', metadata: { ...payment.metadata, unfillable: result.refusal } },
      manager,
    );
    await this.jobs.enqueue(
      'payments.refund',
      { payment_transaction_id: payment.id, amount_cents: payment.amount_cents, reason: result.refusal },
      { manager, singletonKey: `unfillable:${payment.id}` },
    );
    await this.activity.record(
      {
        userId: payment.user_id,
        siteId: payment.site_id,
        type: 'purchase_unfillable',
        description: `Paid order could not be entered (${result.refusal}); full refund queued`,
        severity: 'warning',
        resourceType: 'payment_transaction',
        resourceId: payment.id,
      },
      NO_REQUEST,
      manager,
    );
  }

  private async earn(manager: EntityManager, payment: PaymentTransaction, multiplier: number): Promise<void> {
    if (!payment.user_id) return;
    const site = await this.sites.findBySiteId(payment.site_id, manager);
    const base = pointsForPayment(payment.amount_cents, payment.currency, site?.additional_settings);
    const points = purchasePoints(base, multiplier);
    if (points <= 0) return;
    await this.points.earn(manager, {
      userId: payment.user_id,
      siteId: payment.site_id,
      amount: points,
      reason: payment.purpose === 'raffle' ? 'Points for a raffle purchase' : 'Points for a payment',
      paymentTransactionId: payment.id,
      meta: { ip: payment.ip_address, userAgent: payment.user_agent },
    });
  }
}
