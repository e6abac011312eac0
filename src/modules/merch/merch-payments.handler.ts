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

  /** In the refund's settling transaction: a whole refund cancels an order not yet sent (no second refund). */
  async refunded(payment: RefundedPayment): Promise<void> {
    if (payment.purpose !== 'merch' || payment.refunded_cents < payment.amount_cents) return;
    const order = await this.merch.findByPayment(payment.id);
    if (!order || order.status_stage !== 'awaiting_payment' || order.fulfilment_order_id) return;
    await this.merch.moveOrder(order.id, ['awaiting_payment'], {
      status_stage: 'cancelled',
      status_details: { reason: 'refunded before it was sent to the provider' },
    });
  }
}
