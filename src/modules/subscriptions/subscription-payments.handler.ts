import { Injectable, type OnModuleInit } from '@nestjs/common';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import {
  type PaidOrderHandler,
  type PaymentHead,
  PaymentHooks,
  type PurposePlan,
} from '#app/modules/payments/hooks/payment-hooks.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { day, membershipVariables } from './membership-mail.js';
import { RenewalEffectsService, type UnusedPayment } from './renewal-effects.service.js';
import { type SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';
import { startDates } from './subscriptions.rules.js';

/**
 * Memberships' part in payments (`PaymentHooks`, purpose `subscription`), run exactly once per payment
 * in the claim's transaction: a first payment (or a trial's card check) starts the membership; a card
 * update stores the new card and, for one past due, pays the overdue period; a renewal charge settled by
 * a webhook or reconciliation renews it like a renewal run would. A payment that pays for no period (the
 * membership was cancelled or paused meanwhile, or the period was paid already) is given back whole
 * (`RenewalEffectsService.refundUnused`).
 */
@Injectable()
export class SubscriptionPaymentsHandler implements PaidOrderHandler, OnModuleInit {
  constructor(
    private readonly hooks: PaymentHooks,
    private readonly subs: SubscriptionsRepository,
    private readonly renewals: RenewalEffectsService,
    private readonly accounts: AccountsService,
    private readonly activity: ActivityLogService,
    private readonly mail: MailService,
  ) {}

  onModuleInit(): void {
    this.hooks.handle('subscription', this);
  }

  async plan(payment: PaymentHead): Promise<PurposePlan> {
    const s = payment.subscription_id ? await this.subs.findById(payment.subscription_id) : null;
    // A card check moves no money: no purchase e-mail for it.
    return { mark: 'fulfilled', notify: payment.amount_cents > 0, data: s };
  }

  async fulfil(payment: PaymentHead, plan: PurposePlan): Promise<void> {
    const planned = plan.data as SubscriptionRow | null;
    if (!planned) return;
    // The plan's copy was read before the payment was claimed: a cancellation, a pause or another payment
    // may have committed since. What the payment does is decided on the row as it is now, locked until
    // the claim commits, so a cancellation waits for this or this sees it (then the payment pays for no
    // period and is given back).
    const s = await this.subs.lock(planned.id);
    if (!s) return;
    const now = new Date();
    if (payment.kind === 'start' && (s.status === 'incomplete' || s.status === 'incomplete_expired'))
      return this.start(s, payment, now);
    if (payment.kind === 'card') return this.replaceCard(s, payment, now);
    if (s.pending_payment_id === payment.id) return this.renewFrom(s, payment, now);
    // A start for a membership cancelled (or started) meanwhile, a renewal charge it no longer waits on.
    await this.renewals.refundUnused([unused(s, payment)]);
  }

  /** The payment pays the membership's period: it renews as a renewal run would. */
  private async renewFrom(s: SubscriptionRow, payment: PaymentHead, now: Date): Promise<void> {
    await this.renewals.paid(
      [
        {
          subscriptionId: s.id,
          paymentId: payment.id,
          registrationId: payment.registration_id,
          billingInterval: s.billing_interval,
          periodStart: s.current_period_start,
          periodEnd: s.current_period_end,
          amountCents: payment.amount_cents,
        },
      ],
      now,
    );
  }

  private async start(s: SubscriptionRow, payment: PaymentHead, now: Date): Promise<void> {
    if (s.trial_days > 0) {
      // Two trial checkouts opened before either started: the member's starts take turns, and only the
      // first becomes a trial. The other's card check moved no money; it starts nothing.
      await this.subs.lockMemberStarts(s.site_id, s.user_id);
      if (await this.subs.hasStarted(s.site_id, s.user_id, s.id)) {
        await this.subs.update(
          s.id,
          { status: 'incomplete_expired' },
          { event: 'trial_unavailable', at: now.toISOString(), payment_id: payment.id },
        );
        return;
      }
    }
    const dates = startDates(now, s.billing_interval, s.trial_days);
    await this.subs.update(
      s.id,
      {
        ...dates,
        gatewayone_registration_id: payment.registration_id,
        current_payment_id: payment.id,
        credits_used_this_period: 0,
      },
      { event: 'started', at: now.toISOString(), payment_id: payment.id, status: dates.status },
    );
    this.activity.recordLater(
      {
        userId: s.user_id,
        siteId: s.site_id,
        type: 'subscription_started',
        description: `Membership ${s.tier_title} started (${dates.status})`,
        resourceType: 'subscription',
        resourceId: s.id,
      },
      NO_REQUEST,
    );
    await this.tell(s, {
      ...membershipVariables(s),
      credits: s.entry_credits_per_period,
      next_billing_date: day(dates.next_billing_date),
      trial_end_date: day(dates.trial_end_date),
    });
  }

  private async replaceCard(s: SubscriptionRow, payment: PaymentHead, now: Date): Promise<void> {
    if (!payment.registration_id) return;
    await this.subs.update(
      s.id,
      { gatewayone_registration_id: payment.registration_id },
      { event: 'card_replaced', at: now.toISOString(), payment_id: payment.id },
    );
    if (payment.amount_cents <= 0) return; // a card check
    // The overdue period is paid by the first such payment; another (a second tab) pays for nothing.
    if (s.status === 'past_due') await this.renewFrom(s, payment, now);
    else await this.renewals.refundUnused([unused(s, payment)]);
  }

  private async tell(
    s: SubscriptionRow,
    variables: Record<string, string | number | boolean | null>,
  ): Promise<void> {
    const to = (await this.accounts.contactsOf([s.user_id])).get(s.user_id);
    if (!to) return;
    await this.mail.send({
      kind: 'subscription_started',
      siteId: s.site_id,
      to: to.email,
      userId: s.user_id,
      variables: { ...variables, first_name: to.firstName },
    });
  }
}

function unused(s: SubscriptionRow, payment: PaymentHead): UnusedPayment {
  return { subscriptionId: s.id, paymentId: payment.id, amountCents: payment.amount_cents };
}
