import { Injectable, type OnModuleInit } from '@nestjs/common';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { PurposeOrdersService } from '#app/modules/payments/purpose-orders.service.js';
import { PointsService } from '#app/modules/rewards/points.service.js';
import { rewardsRules } from '#app/modules/rewards/rewards.rules.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { day, membershipVariables } from './membership-mail.js';
import { RenewalsRepository } from './renewals.repository.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import {
  addDays,
  GRACE_DAYS,
  milestonesDue,
  monthsOf,
  nextRetryAt,
  renewedDates,
} from './subscriptions.rules.js';
import type { BillingInterval } from './entities/subscription-tier.entity.js';

/** What a paid renewal needs of its subscription. */
export interface PaidRenewal {
  subscriptionId: string;
  paymentId: string;
  registrationId: string | null;
  billingInterval: BillingInterval;
  /** The period being renewed: its start (whose day of the month the next one keeps) and its end. */
  periodStart: Date | null;
  /** Where the paid period starts: the end of the last one (now for a first charge after a trial). */
  periodEnd: Date | null;
  /** What it paid: given back whole when the membership had moved on and it renews nothing. */
  amountCents: number;
}

/** A membership payment that paid for nothing (the membership had moved on by the time it was taken). */
export interface UnusedPayment {
  subscriptionId: string;
  paymentId: string;
  amountCents: number;
}

const UNUSED_REASON = 'Membership payment that paid for no period: the membership had moved on';

/** What a declined renewal needs of its subscription. */
export interface FailedRenewal {
  subscriptionId: string;
  paymentId: string;
  userId: string;
  siteId: string;
  tierTitle: string;
  amountCents: number;
  currency: string;
  pastDueSince: Date | null;
  failedCharges: number;
  reason: string;
}

/**
 * What a renewal charge does to its subscriptions, set-based, in the ambient transaction — the same
 * whether a renewal run settles a batch or a webhook settles one charge: paid ones renew (dates from
 * `renewedDates`) and earn their loyalty milestones once; declined ones go past due with the next try
 * (`nextRetryAt`) and a dunning e-mail.
 */
@Injectable()
export class RenewalEffectsService implements OnModuleInit {
  constructor(
    private readonly renewals: RenewalsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly mail: MailService,
    private readonly points: PointsService,
    private readonly sites: SitesService,
    private readonly accounts: AccountsService,
    private readonly activity: ActivityLogService,
    private readonly jobs: JobQueue,
    private readonly orders: PurposeOrdersService,
  ) {}

  onModuleInit(): void {
    // The dunning e-mail asks for another card: it goes only while the membership is still past due, not to a
    // member who has paid with a new card (or cancelled, or was paused) between the decline and the send.
    this.mail.sendOnlyIf('subscription_payment_failed', ({ subscription_id }) =>
      this.subscriptions.stillPastDue(subscription_id),
    );
  }

  async paid(renewals: PaidRenewal[], now: Date): Promise<number> {
    if (!renewals.length) return 0;
    const renewed = await this.renewals.renew(
      renewals.map((r) => {
        const dates = renewedDates({ start: r.periodStart, end: r.periodEnd ?? now }, r.billingInterval, now);
        return {
          subscriptionId: r.subscriptionId,
          paymentId: r.paymentId,
          registrationId: r.registrationId,
          periodStart: dates.current_period_start,
          periodEnd: dates.current_period_end,
          coolingOffExpiry: dates.cooling_off_expiry,
          months: monthsOf(r.billingInterval),
        };
      }),
    );
    // Paid while the membership was paused, cancelled or had been renewed already: it buys nothing.
    const renewedIds = new Set(renewed.map((s) => s.id));
    await this.refundUnused(renewals.filter((r) => !renewedIds.has(r.subscriptionId)));
    const milestones: Array<{ id: string; userId: string; siteId: string; months: number; points: number }> =
      [];
    for (const s of renewed) {
      const { milestones: rules } = rewardsRules(await this.sites.settingsOf(s.site_id));
      for (const m of milestonesDue(s.streak_months, s.milestones_awarded, rules))
        milestones.push({ id: s.id, userId: s.user_id, siteId: s.site_id, ...m });
    }
    this.points.bonusManyLater(
      milestones.map((m) => ({
        userId: m.userId,
        siteId: m.siteId,
        amount: m.points,
        reason: `Loyalty milestone: ${m.months} months a member`,
        details: { subscription_id: m.id, months: m.months },
      })),
    );
    await this.renewals.markMilestones(milestones, now);
    return renewed.length;
  }

  /**
   * Payments that paid for no period are given back whole (a refund job), noted in the membership's history,
   * and no longer awaited: a renewal charge taken after the member paused or cancelled, a second checkout
   * paid for a period already paid, a first payment for a membership cancelled before it started. Keeping
   * the money would charge for nothing; leaving the charge awaited would stop the membership's clock.
   */
  async refundUnused(payments: UnusedPayment[]): Promise<void> {
    if (!payments.length) return;
    await this.renewals.releaseUnused(payments);
    for (const p of payments)
      if (p.amountCents > 0)
        await this.orders.queueRefund(p.paymentId, p.amountCents, UNUSED_REASON, { tellBuyer: true });
  }

  async declined(failures: FailedRenewal[], now: Date): Promise<void> {
    if (!failures.length) return;
    const all = failures.map((f) => {
      const firstFailure = f.pastDueSince ?? now;
      return { ...f, firstFailure, retryAt: nextRetryAt(firstFailure, f.failedCharges + 1) };
    });
    const moved = await this.renewals.failRenewals(
      all.map((f) => ({
        subscriptionId: f.subscriptionId,
        paymentId: f.paymentId,
        retryAt: f.retryAt,
        firstFailure: f.firstFailure,
        reason: f.reason,
      })),
    );
    // The member hears once, whoever settled the charge first (a run, or two at once).
    const movedIds = new Set(moved);
    const planned = all.filter((f) => movedIds.has(f.subscriptionId));
    if (!planned.length) return;
    const contacts = await this.accounts.contactsOf(planned.map((f) => f.userId));
    await this.jobs.enqueueMany(
      'mail.send',
      planned.flatMap((f) => {
        const to = contacts.get(f.userId);
        if (!to) return [];
        return [
          {
            kind: 'subscription_payment_failed' as const,
            site_id: f.siteId,
            to: to.email,
            user_id: f.userId,
            variables: {
              ...membershipVariables({
                tier_title: f.tierTitle,
                amount_cents: f.amountCents,
                currency: f.currency,
              }),
              first_name: to.firstName,
              retry_date: day(f.retryAt),
              grace_end: day(addDays(f.firstFailure, GRACE_DAYS)),
            },
            about: { subscription_id: f.subscriptionId },
          },
        ];
      }),
      { defer: true },
    );
    this.activity.recordManyLater(
      planned.map((f) => ({
        userId: f.userId,
        siteId: f.siteId,
        type: 'subscription_past_due',
        description: `Membership payment failed (${f.reason}); ${f.retryAt ? `next try ${day(f.retryAt)}` : 'no more tries'}`,
        severity: 'warning',
        resourceType: 'subscription',
        resourceId: f.subscriptionId,
        metadata: { payment_id: f.paymentId, reason: f.reason, retry_at: f.retryAt?.toISOString() ?? null },
      })),
      NO_REQUEST,
    );
  }
}
