import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { PurposeOrdersService } from '#app/modules/payments/purpose-orders.service.js';
import type {
  CardCheckoutDto,
  CreatedSubscriptionDto,
  CreateSubscriptionDto,
} from './dto/subscription.dto.js';
import { toSubscriptionDto } from './subscriptions.mapper.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { trialDaysFor } from './subscriptions.rules.js';
import { SubscriptionsService } from './subscriptions.service.js';
import { TiersService } from './tiers.service.js';

/**
 * Starting a membership, and giving it another card. The member pays on gatewayone's hosted form, which
 * registers the card (this service charges it itself at every renewal, DESIGN §7); a tier with a trial
 * only verifies the card (a pre-authorisation of nothing). The payment's success comes back through the
 * one fulfilment path, to `SubscriptionPaymentsHandler`.
 */
@Injectable()
export class SubscribeService {
  constructor(
    private readonly subs: SubscriptionsRepository,
    private readonly reads: SubscriptionsService,
    private readonly tiers: TiersService,
    private readonly orders: PurposeOrdersService,
    private readonly tx: TransactionRunner,
  ) {}

  async subscribe(
    user: AuthUser,
    body: CreateSubscriptionDto,
    meta: RequestMeta,
  ): Promise<CreatedSubscriptionDto> {
    const tier = await this.tiers.findForSite(user.siteId, body.tier_id);
    if (!tier || tier.site_id !== user.siteId) throw AppException.notFound('Tier');
    if (!tier.active)
      throw AppException.unprocessable('TIER_NOT_AVAILABLE', 'This tier is no longer offered.');
    // A tier priced 0 (saved before tiers had to cost at least 1) could never be charged at the gateway.
    if (tier.amount_cents < 1)
      throw AppException.unprocessable(
        'TIER_NOT_AVAILABLE',
        'This tier has no price and cannot be paid for.',
      );
    const now = new Date().toISOString();
    const { subscriptionId, payment, trial } = await this.tx.run(async () => {
      const trialDays = trialDaysFor(tier.trial_days, await this.subs.hasStarted(user.siteId, user.id));
      const trial = trialDays > 0;
      const subscription = await this.subs.insert({
        site_id: user.siteId,
        user_id: user.id,
        tier_id: tier.id,
        status: 'incomplete',
        amount_cents: tier.amount_cents,
        currency: tier.currency,
        billing_interval: tier.billing_interval,
        payment_method: body.payment_method ?? 'card',
        entry_credits_per_period: tier.entry_credits_per_period,
        trial_days: trialDays,
        metadata: { history: [{ event: 'created', at: now, by: user.id, tier: tier.name }] },
      });
      const pending = await this.orders.createPending(
        {
          purpose: 'subscription',
          siteId: user.siteId,
          userId: user.id,
          amountCents: trial ? 0 : tier.amount_cents,
          currency: tier.currency,
          description: `${tier.display_name?.trim() || tier.name} membership${trial ? ' (trial: card check)' : ''}`,
          subscriptionId: subscription.id,
          metadata: { kind: 'start' },
        },
        meta,
      );
      return { subscriptionId: subscription.id, payment: pending, trial };
    });
    const checkout = await this.orders.openCheckout(payment, {
      email: user.email,
      createRegistration: true,
      paymentType: trial ? 'PA' : 'DB',
    });
    return {
      subscription: toSubscriptionDto(await this.reads.visible(user, subscriptionId)),
      checkout_id: checkout.checkoutId,
      checkout_url: checkout.checkoutUrl,
    };
  }

  /**
   * `POST /subscriptions/{id}/card`: a checkout that registers another card. For a subscription past due
   * it charges what is due with it at once (the renewal settles when that payment succeeds); otherwise it
   * only verifies the card.
   */
  async newCard(user: AuthUser, id: string, meta: RequestMeta): Promise<CardCheckoutDto> {
    const s = await this.reads.visible(user, id);
    if (s.user_id !== user.id) throw AppException.notFound('Subscription');
    if (!['trialing', 'active', 'past_due', 'paused', 'pending_cancellation'].includes(s.status))
      throw AppException.conflict('NOT_RENEWABLE', `A ${s.status} membership takes no card.`);
    const settles = s.status === 'past_due';
    const payment = await this.tx.run(() =>
      this.orders.createPending(
        {
          purpose: 'subscription',
          siteId: s.site_id,
          userId: user.id,
          amountCents: settles ? s.amount_cents : 0,
          currency: s.currency,
          description: `${s.tier_title} membership (${settles ? 'overdue payment' : 'card check'})`,
          subscriptionId: s.id,
          metadata: { kind: 'card' },
        },
        meta,
      ),
    );
    const checkout = await this.orders.openCheckout(payment, {
      email: user.email,
      createRegistration: true,
      paymentType: settles ? 'DB' : 'PA',
    });
    return { checkout_id: checkout.checkoutId, checkout_url: checkout.checkoutUrl };
  }
}
