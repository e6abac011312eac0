import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { classifyResultCode } from '#app/infra/providers/gatewayone/gatewayone.rules.js';
import type { GatewayOneWebhookEvent } from '#app/infra/providers/gatewayone/gatewayone.types.js';
import type { GatewayTwoWebhookEvent } from '#app/infra/providers/gatewaytwo/gatewaytwo.types.js';
import type { InboundEvent } from '../entities/inbound-event.entity.js';
import { type InboundProcessor, PaymentHooks } from '../hooks/payment-hooks.js';
import { InboundEventsRepository } from '../inbound-events.repository.js';
import { PaymentGateways } from '../payment-gateways.js';
import { PaymentOutcomeService } from '../payment-outcome.service.js';
import { type PaymentHead, PaymentsRepository } from '../payments.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Processes one inbox event. Duplicates never get here (the inbox is unique on the event key), and
 * out-of-order events are harmless: statuses only move forward and fulfilment happens once. A
 * gatewaytwo event is a hint: the order is fetched and its state is what counts.
 */
@Injectable()
export class ProcessInboundJob implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly inbox: InboundEventsRepository,
    private readonly payments: PaymentsRepository,
    private readonly gateways: PaymentGateways,
    private readonly outcomes: PaymentOutcomeService,
    private readonly hooks: PaymentHooks,
  ) {}

  onModuleInit(): void {
    this.jobs.register('inbound.process', (data) => this.run(data.inbound_event_id));
  }

  async run(eventId: string): Promise<void> {
    const event = await this.inbox.findById(eventId);
    if (!event || event.status === 'processed' || event.status === 'ignored') return;
    const processor = this.hooks.inboundProcessorOf(event.provider);
    if (processor) return this.runProcessor(event, processor);
    let payment: PaymentHead | null = null;
    try {
      payment = await this.paymentOf(event);
      if (!payment) {
        await this.inbox.mark(event.id, {
          status: 'ignored',
          last_error: 'no payment of ours matches',
          processed_at: new Date(),
        });
        return;
      }
      if (event.provider === 'gatewayone') {
        const { payload } = event.payload as unknown as GatewayOneWebhookEvent;
        await this.outcomes.apply(payment, {
          outcome: classifyResultCode(payload.result.code),
          source: 'webhook',
          gatewayPaymentId: payload.id,
          webhook: event.payload,
        });
      } else {
        const planning = this.outcomes.planFor(payment);
        const verdict = await this.gateways.verdict(payment);
        await this.outcomes.apply(
          payment,
          {
            outcome: verdict.outcome,
            source: 'webhook',
            gatewayPaymentId: verdict.gatewayPaymentId,
            gatewayResponse: verdict.raw,
            webhook: event.payload,
          },
          planning,
        );
      }
      await this.inbox.mark(event.id, {
        status: 'processed',
        last_error: null,
        site_id: payment.site_id,
        payment_transaction_id: payment.id,
        processed_at: new Date(),
      });
    } catch (error) {
      // Matched to a payment, the failure is its site's to see and replay (GET /admin/inbound-events).
      await this.inbox.mark(event.id, {
        status: 'failed',
        last_error: (error as Error).message.slice(0, 1000),
        ...(payment ? { site_id: payment.site_id, payment_transaction_id: payment.id } : {}),
      });
      throw error; // the queue retries with back-off
    }
  }

  /** An event another feature owns (a website form's submission): its processor decides. */
  private async runProcessor(event: InboundEvent, processor: InboundProcessor): Promise<void> {
    try {
      const { siteId } = await processor(event.payload);
      await this.inbox.mark(event.id, {
        status: 'processed',
        last_error: null,
        site_id: siteId ?? event.site_id,
        processed_at: new Date(),
      });
    } catch (error) {
      await this.inbox.mark(event.id, {
        status: 'failed',
        last_error: (error as Error).message.slice(0, 1000),
      });
      throw error; // the queue retries with back-off
    }
  }

  private async paymentOf(event: InboundEvent): Promise<PaymentHead | null> {
    if (event.provider === 'gatewayone') {
      const { type, payload } = event.payload as unknown as GatewayOneWebhookEvent;
      if (type !== 'PAYMENT') return null;
      const byRef =
        payload.merchantTransactionId && UUID.test(payload.merchantTransactionId)
          ? await this.payments.head(payload.merchantTransactionId)
          : null;
      return byRef ?? (payload.ndc ? this.payments.headByCheckout('gatewayone', payload.ndc) : null);
    }
    const { order_id } = event.payload as unknown as GatewayTwoWebhookEvent;
    return this.payments.headByCheckout('gatewaytwo', order_id);
  }
}
