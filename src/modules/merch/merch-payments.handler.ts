import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  type PaidOrderHandler,
  type PaymentHead,
  PaymentHooks,
  type PaymentListener,
  type PurposePlan,
  type RefundedPayment,
} from '#app/modules/payments/hooks/payment-hooks.js';
import type { MerchOrder } from './entities/merch-order.entity.js';
import { MerchFulfilmentService } from './merch-fulfilment.service.js';
import { MerchRepository } from './merch.repository.js';

/**
 * Merch's part in payments (`PaymentHooks`, purpose `merch`), run exactly once per payment in the
 * claim's transaction: the paid order is queued for the provider (the job runs after the commit). An order
 * whose payment is refunded whole before the provider took it is cancelled, so it is never made and shipped.
 */
@Injectable()
export class MerchPaymentsHandler implements PaidOrderHandler, PaymentListener, OnModuleInit {
  constructor(
    private readonly hooks: PaymentHooks,
    private readonly merch: MerchRepository,
    private readonly fulfilment: MerchFulfilmentService,
  ) {}

  onModuleInit(): void {
    this.hooks.handle('merch', this);
    this.hooks.listen(this);
  }

  async plan(payment: PaymentHead): Promise<PurposePlan> {
    return { mark: 'fulfilled', data: await this.merch.findByPayment(payment.id) };
  }

  async fulfil(_payment: PaymentHead, plan: PurposePlan): Promise<void> {
    const order = plan.data as MerchOrder | null;
    if (order?.status_stage === 'awaiting_payment') await this.fulfilment.queueSubmission(order.id);
  }

  /**
   * In the refund's settling transaction: a whole refund cancels an order that no attempt to send has started on
   * (no second refund). Once one has, the provider may be making it: the refund is noted on the order and the
   * submission decides (`MerchFulfilmentService.submit`): cancelled if no attempt reached the provider, followed
   * (and an admin told) if it holds the order.
   */
  async refunded(payment: RefundedPayment): Promise<void> {
    if (payment.purpose !== 'merch' || payment.refunded_cents < payment.amount_cents) return;
    const order = await this.merch.findByPayment(payment.id);
    if (!order || order.status_stage !== 'awaiting_payment' || order.fulfilment_order_id) return;
    if (await this.merch.cancelNeverSent(order.id, { reason: 'refunded before it was sent to the provider' }))
      return;
    // The submission decides; queued again (one job per order) in case the attempt that marked it has died.
    if (await this.merch.noteRefundedWhole(order.id, new Date()))
      await this.fulfilment.queueSubmission(order.id);
  }
}
