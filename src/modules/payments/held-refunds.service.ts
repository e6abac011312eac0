import { formatMoney } from '#app/common/money.js';
import { Injectable, Logger } from '@nestjs/common';
import { NO_REQUEST, type RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { PaymentGateways } from './payment-gateways.js';
import { heldRefundMade } from './payments.rules.js';
import { RefundAmountsRepository } from './refund-amounts.repository.js';
import { RefundEffectsService } from './refund-effects.service.js';
import { heldEntries, type Refund, refundEntry } from './refund-entries.js';

/**
 * Refunds whose gateway answer was lost (a timeout, a connection dropped after sending): the gateway may have
 * refunded all the same, so the amount stays reserved (no second refund can pass it) until the gateway is
 * asked what it gave back. Sending it again could pay the same money twice.
 */
@Injectable()
export class HeldRefundsService {
  private readonly logger = new Logger(HeldRefundsService.name);

  constructor(
    private readonly amounts: RefundAmountsRepository,
    private readonly gateways: PaymentGateways,
    private readonly effects: RefundEffectsService,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
  ) {}

  /**
   * Holds a refund whose answer was lost: kept reserved, and noted on the payment (`held_refunds`, so that
   * once the gateway says it was made it is recorded as it was asked) and in the activity log.
   */
  async hold(
    payment: PaymentTransaction,
    refund: Refund,
    error: ProviderError,
    meta: RequestMeta,
  ): Promise<void> {
    this.logger.warn(
      { payment_id: payment.id, amount_cents: refund.amountCents, err: error.message },
      'refund answer lost; held',
    );
    await this.tx.run(async (manager) => {
      await this.amounts.noteHeld(payment.id, refundEntry(refund, { held: error.message }), manager);
      await this.activity.record(
        {
          userId: payment.user_id,
          siteId: payment.site_id,
          type: 'payment_refund_held',
          description: `Refund of ${formatMoney(refund.amountCents, payment.currency)} unanswered by the gateway: held until it is asked (${refund.reason})`,
          severity: 'warning',
          resourceType: 'payment_transaction',
          resourceId: payment.id,
          metadata: { amount_cents: refund.amountCents, by: refund.by },
        },
        meta,
        manager,
      );
    });
  }

  /**
   * Settles the refunds held after a lost answer, and any a stopped process left reserved: for each payment
   * whose reservation is older than `olderThan`, the gateway says what it gave back in all; what it gave
   * beyond what we recorded was refunded, the rest of the reservation goes back. A payment whose figures
   * do not fit (the gateway gave back more than was reserved, or less than we recorded) is left for an
   * admin and logged. Answers how many payments were settled.
   */
  async settle(olderThan: Date, limit: number): Promise<number> {
    let settled = 0;
    let afterId: string | undefined;
    for (;;) {
      const held = await this.tx.run((manager) => this.amounts.heldSince(olderThan, limit, manager, afterId));
      for (const row of held) if (await this.settleOne(row)) settled++;
      // Every held refund is asked about once a run: ones the gateway cannot settle (left for an admin,
      // or unanswered) must not keep the rest waiting, however many there are.
      if (held.length < limit) return settled;
      afterId = held[held.length - 1].id;
    }
  }

  /** Asks what the gateway gave back on one payment and settles its reservation; answers whether it did. */
  private async settleOne(row: PaymentTransaction): Promise<boolean> {
    let atGateway: number;
    try {
      atGateway = await this.gateways.refundedAtGateway(row);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return false; // asked again on the next run
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
      return false;
    }
    const moved = await this.tx.run(async (manager) => {
      const after = await this.amounts.settleHeld(row, made, manager);
      if (after && made > 0)
        await this.effects.gaveBack(after, heldEntries(row, made, atGateway), NO_REQUEST, manager);
      return after;
    });
    return !!moved;
  }
}
