import { formatMoney } from '#app/common/money.js';
import { HttpStatus, Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { ResponsiblePlayService } from '#app/modules/responsible-play/responsible-play.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { PaymentPurpose, PaymentTransaction } from './entities/payment-transaction.entity.js';
import { type OpenedCheckout, PaymentGateways } from './payment-gateways.js';
import { PaymentOutcomeService } from './payment-outcome.service.js';
import { PaymentsRepository } from './payments.repository.js';
import { orderTooLarge, unrefunded } from './payments.rules.js';

/** A payment another feature prices itself (a membership's period, a merch order), at gatewayone. */
export interface PurposeOrder {
  purpose: Exclude<PaymentPurpose, 'raffle' | 'generic'>;
  siteId: string;
  userId: string;
  amountCents: number;
  currency: string;
  description: string;
  subscriptionId?: string | null;
  paymentMethod?: string | null;
  metadata?: Record<string, unknown>;
  details?: Record<string, unknown>;
}

export interface CheckoutOptions {
  email: string;
  returnUrl?: string | null;
  /** Store the card for the service to charge later (a membership). */
  createRegistration?: boolean;
  /** `PA` with 0.00 and a registration verifies the card alone (a trial's start). */
  paymentType?: 'DB' | 'PA';
  /** Ask the gateway for a subresource-integrity hash of its widget (endpoint 3's `integrity`). */
  integrity?: boolean;
}

/**
 * Payments that other features price (DESIGN §10): the pending payment is written in the caller's
 * transaction, its amount counted against the buyer's spend limit there (422 `SELF_PAUSED`,
 * `SPEND_LIMIT_REACHED`); the checkout is opened after the commit, so no transaction waits on a network
 * call. Success comes back through the one fulfilment path, to the purpose's `PaymentHooks` handler.
 */
@Injectable()
export class PurposeOrdersService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly limits: ResponsiblePlayService,
    private readonly gateways: PaymentGateways,
    private readonly outcomes: PaymentOutcomeService,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * Queues a refund of `amountCents` of a payment, in the ambient transaction (the refund job sends it
   * to the gateway once it commits, and settles it: points reversed pro rata, spend given back). The
   * `reason` is recorded on the payment with the refund. `tellBuyer`: the buyer is e-mailed once it is made
   * (`payment_refunded`), for a refund nothing else tells them of.
   */
  async queueRefund(
    paymentId: string,
    amountCents: number,
    reason: string,
    opts: { tellBuyer?: boolean } = {},
  ): Promise<void> {
    if (amountCents <= 0) return;
    await this.jobs.enqueue(
      'payments.refund',
      {
        payment_transaction_id: paymentId,
        amount_cents: amountCents,
        reason,
        ...(opts.tellBuyer ? { tell_buyer: true } : {}),
      },
      { singletonKey: `refund:${paymentId}:${amountCents}` },
    );
  }

  /**
   * What a payment took and still keeps: its amount less what was refunded or is held for a refund (0 for a
   * card check, or a payment that is not ours), what a refund of it may give back at most; and when it was
   * asked for, the moment its amount was fixed (null when there is no such payment).
   */
  async keptOf(paymentId: string): Promise<{ keptCents: number; askedAt: Date | null }> {
    const p = await this.payments.findById(paymentId);
    if (!p) return { keptCents: 0, askedAt: null };
    const paid = p.status === 'succeeded' || p.status === 'partially_refunded';
    return { keptCents: paid ? unrefunded(p) : 0, askedAt: p.created_at };
  }

  /** In the ambient transaction: the pending payment, its spend counted. */
  async createPending(order: PurposeOrder, meta: RequestMeta): Promise<PaymentTransaction> {
    const tooLarge = orderTooLarge(order.amountCents);
    if (tooLarge) throw AppException.unprocessable('AMOUNT_TOO_LARGE', tooLarge);
    const manager = this.tx.manager;
    const reservation = await this.limits.reserveSpend(manager, {
      userId: order.userId,
      amountCents: order.amountCents,
      now: new Date(),
    });
    const row = await this.payments.create(
      {
        site_id: order.siteId,
        user_id: order.userId,
        gateway: 'gatewayone',
        checkout_id: null,
        gateway_transaction_id: null,
        currency: order.currency,
        amount_cents: order.amountCents,
        description: order.description,
        payment_method: order.paymentMethod ?? 'card',
        status: 'pending',
        fraud_score: null,
        metadata: { ...(order.metadata ?? {}) },
        purpose: order.purpose,
        raffle_id: null,
        order_details: { ...(order.details ?? {}) },
        new_account: false,
        spend_month: order.amountCents > 0 ? reservation.month : null,
        ip_address: meta.ip,
        user_agent: meta.userAgent,
        webhook_received_at: null,
        webhook_data: null,
        gateway_response: null,
        subscription_id: order.subscriptionId ?? null,
      },
      manager,
    );
    this.activity.recordLater(
      {
        userId: order.userId,
        siteId: order.siteId,
        type: 'order_created',
        description: `Order of ${formatMoney(order.amountCents, order.currency)} at gatewayone (${order.purpose})`,
        resourceType: 'payment_transaction',
        resourceId: row.id,
      },
      meta,
    );
    return row;
  }

  /**
   * After the commit: the checkout at the gateway. One that cannot be opened fails the payment (its
   * spend given back) and answers 502 `GATEWAY_UNAVAILABLE`.
   */
  async openCheckout(payment: PaymentTransaction, options: CheckoutOptions): Promise<OpenedCheckout> {
    let checkout: OpenedCheckout;
    try {
      checkout = await this.gateways.open(payment, {
        customerEmail: options.email,
        returnUrl: options.returnUrl,
        createRegistration: options.createRegistration,
        paymentType: options.paymentType,
        integrity: options.integrity,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      await this.outcomes.apply(payment.id, {
        outcome: 'failed',
        source: 'checkout',
        gatewayResponse: { error: error.message, kind: error.kind },
      });
      throw new AppException(
        HttpStatus.BAD_GATEWAY,
        'GATEWAY_UNAVAILABLE',
        'The payment gateway could not be reached; try again.',
      );
    }
    const changes = {
      checkout_id: checkout.checkoutId,
      gateway_response: checkout.raw,
      metadata: { ...payment.metadata, checkout_id: checkout.checkoutId, checkout_url: checkout.checkoutUrl },
    };
    await this.payments.update(payment.id, changes);
    Object.assign(payment, changes);
    return checkout;
  }
}
