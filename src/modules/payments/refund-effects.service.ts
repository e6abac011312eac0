import { formatMoney } from '#app/common/money.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { ResponsiblePlayService } from '#app/modules/responsible-play/responsible-play.service.js';
import { PaymentPointsService } from '#app/modules/rewards/payment-points.service.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { PaymentHooks } from './hooks/payment-hooks.js';
import { headOf } from './payment-head.js';
import { PaymentsRepository } from './payments.repository.js';
import { historyOf, type RefundEntry, toldToBuyer } from './refund-entries.js';

/**
 * What money given back brings with it, in the transaction that records it, whether the gateway answered the
 * refund at once or was asked later (`HeldRefundsService`): the refunds in the payment's history, the points
 * it earned reversed pro rata, the spend it counted given back, the features it paid for told, and the
 * activity entry.
 */
@Injectable()
export class RefundEffectsService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly points: PaymentPointsService,
    private readonly limits: ResponsiblePlayService,
    private readonly activity: ActivityLogService,
    private readonly hooks: PaymentHooks,
    private readonly jobs: JobQueue,
  ) {}

  async gaveBack(
    after: PaymentTransaction,
    entries: RefundEntry[],
    meta: RequestMeta,
    manager: EntityManager,
  ): Promise<void> {
    const amountCents = entries.reduce((sum, e) => sum + e.amount_cents, 0);
    const reason = entries.map((e) => e.reason).join('; ');
    await this.payments.update(
      after.id,
      { metadata: { ...after.metadata, refunds: [...historyOf(after.metadata.refunds), ...entries] } },
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
    this.activity.recordLater(
      {
        userId: after.user_id,
        siteId: after.site_id,
        type: 'payment_refunded',
        description: `Refunded ${formatMoney(amountCents, after.currency)}: ${reason}`,
        severity: 'warning',
        resourceType: 'payment_transaction',
        resourceId: after.id,
        metadata: { amount_cents: amountCents, by: entries.length === 1 ? entries[0].by : null },
      },
      meta,
    );
    // A refund staff made is news to the buyer, and so is one the service queued asking for it (a merch order
    // cancelled or failed, a membership payment that paid for no period). The others were announced when they
    // were queued: an order that could not be entered, a cooling-off cancellation.
    const toldCents = entries.filter(toldToBuyer).reduce((sum, e) => sum + e.amount_cents, 0);
    if (after.user_id && toldCents > 0)
      await this.jobs.enqueue(
        'payments.refund-notice',
        { payment_transaction_id: after.id, refunded_cents: toldCents },
        { manager },
      );
    // Last: a whole refund voids the raffle entry, which holds the raffle's row (the counter every buyer
    // queues on) to the commit, so nothing but the commit may follow it (DESIGN §6). The activity row is
    // held for the transaction's next message (the COMMIT, when nothing is voided).
    await this.hooks.refunded({
      ...headOf(after),
      refund_cents: amountCents,
      refunded_cents: after.refunded_cents,
    });
  }
}
