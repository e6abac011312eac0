import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  type PaidOrderHandler,
  type PaymentHead,
  PaymentHooks,
  type PurposePlan,
} from '#app/modules/payments/hooks/payment-hooks.js';
import type { MerchOrder } from './entities/merch-order.entity.js';
import { MerchFulfilmentService } from './merch-fulfilment.service.js';
import { MerchRepository } from './merch.repository.js';

/**
 * Merch's part in payments (`PaymentHooks`, purpose `merch`), run exactly once per payment in the
 * claim's transaction: the paid order is queued for the provider (the job runs after the commit).
 */
@Injectable()
export class MerchPaymentsHandler implements PaidOrderHandler, OnModuleInit {
  constructor(
    private readonly hooks: PaymentHooks,
    private readonly merch: MerchRepository,
    private readonly fulfilment: MerchFulfilmentService,
  ) {}

  onModuleInit(): void {
    this.hooks.handle('merch', this);
  }

  async plan(payment: PaymentHead): Promise<PurposePlan> {
    return { mark: 'fulfilled', data: await this.merch.findByPayment(payment.id) };
  }

  async fulfil(_payment: PaymentHead, plan: PurposePlan): Promise<void> {
    const order = plan.data as MerchOrder | null;
    if (order?.status_stage === 'awaiting_payment') await this.fulfilment.queueSubmission(order.id);
  }
}
