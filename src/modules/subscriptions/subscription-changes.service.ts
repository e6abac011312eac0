import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { formatMoney } from '#app/common/money.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { PurposeOrdersService } from '#app/modules/payments/purpose-orders.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import type { SubscriptionDto } from './dto/subscription.dto.js';
import { day } from './membership-mail.js';
import { SubscriptionChangeSteps } from './subscription-change-steps.js';
import {
  type HistoryEvent,
  type SubscriptionRow,
  SubscriptionsRepository,
} from './subscriptions.repository.js';
import { coolingOffRefund, creditsPaidFor, inCoolingOff } from './cooling-off.rules.js';
import { cancelRefusal, upgradeRefusal } from './subscriptions.rules.js';
import { TiersService } from './tiers.service.js';

/**
 * What members and admins change on a membership (DESIGN §5): cancel (endpoint 13, and the member's own
 * with the same rules) and upgrade (14); pause and resume are `SubscriptionPausesService`. Each locks the row, decides from its state with
 * the pure rules, writes `metadata.history` and the activity log, and queues what leaves the process
 * (the cooling-off refund, e-mails, deleting a gateway schedule) in the same transaction.
 */
@Injectable()
export class SubscriptionChangesService {
  constructor(
    private readonly subs: SubscriptionsRepository,
    private readonly tiers: TiersService,
    private readonly orders: PurposeOrdersService,
    private readonly accounts: AccountsService,
    private readonly steps: SubscriptionChangeSteps,
    private readonly mail: MailService,
    private readonly jobs: JobQueue,
    private readonly tx: TransactionRunner,
  ) {}

  /**
   * Inside the cooling-off window (14 days from the start and from each renewal) a cancellation ends the
   * membership at once and refunds the period less the credits spent, whatever `immediate` says: that is
   * the consumer's right. Outside it, `immediate` ends it now without a refund, otherwise it runs to the
   * period's end (`pending_cancellation`). An incomplete one (never paid) just ends.
   */
  async cancel(
    caller: AuthUser,
    id: string,
    body: { reason: string; immediate?: boolean },
    meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    const now = new Date();
    const immediate = body.immediate === true;
    await this.tx.run(async () => {
      const s = await this.steps.locked(caller, id);
      const refused = cancelRefusal(s.status, immediate);
      if (refused)
        throw AppException.conflict(
          refused,
          refused === 'ALREADY_ENDING'
            ? 'This membership already ends with its period; cancel with `immediate: true` to end it now.'
            : `This membership is already ${s.status}.`,
        );
      await this.cancelLocked(s, caller, { reason: body.reason, immediate }, meta, now);
    });
    return this.steps.answer(caller, id);
  }

  /**
   * Account deletion (in its transaction): every membership of the user that is not over ends now, as
   * an immediate cancellation does (no further charge; a cooling-off refund still due is queued; a
   * gateway-held schedule is deleted by a job). Answers how many ended.
   */
  async endAllOf(
    userId: string,
    actor: Pick<AuthUser, 'id' | 'role'>,
    reason: string,
    meta: RequestMeta,
  ): Promise<number> {
    const now = new Date();
    const live = await this.subs.lockLiveOf(userId);
    for (const s of live) await this.cancelLocked(s, actor, { reason, immediate: true }, meta, now);
    return live.length;
  }

  /** The cancellation itself, on a locked row the caller may cancel (see `cancel`). */
  private async cancelLocked(
    s: SubscriptionRow,
    caller: Pick<AuthUser, 'id' | 'role'>,
    body: { reason: string; immediate: boolean },
    meta: RequestMeta,
    now: Date,
  ): Promise<void> {
    const immediate = body.immediate;
    const coolingOff =
      inCoolingOff(s.cooling_off_expiry, now) && s.status !== 'incomplete' && s.current_payment_id;
    const endsNow = immediate || coolingOff || s.status === 'incomplete' || s.status === 'paused';
    // What the period's payment took, not the tier's price now (an upgrade raises that for the next period;
    // a trial's payment was a card check of 0), priced by the credits it bought, not an upgrade's.
    const payment = coolingOff ? await this.orders.keptOf(coolingOff) : null;
    const refund = payment
      ? coolingOffRefund({
          amountCents: payment.keptCents,
          creditsPerPeriod: creditsPaidFor({ ...s, payment_asked_at: payment.askedAt }),
          creditsUsed: s.credits_used_this_period,
        })
      : null;
    const event: HistoryEvent = {
      event: endsNow ? 'cancelled' : 'cancellation_scheduled',
      at: now.toISOString(),
      by: caller.id,
      reason: body.reason,
      immediate,
      ...(refund ? { refund_cents: refund.refundCents, refund_arithmetic: refund.arithmetic } : {}),
    };
    await this.subs.update(
      s.id,
      endsNow
        ? {
            status: 'cancelled',
            cancelled_at: now,
            cancellation_reason: body.reason,
            auto_renew: false,
            next_billing_date: null,
          }
        : // Access runs to the period's end; no charge is made after it, so there is no next billing date.
          {
            status: 'pending_cancellation',
            cancellation_reason: body.reason,
            auto_renew: false,
            next_billing_date: null,
          },
      event,
    );
    if (refund && refund.refundCents > 0 && s.current_payment_id)
      await this.orders.queueRefund(
        s.current_payment_id,
        refund.refundCents,
        `Cooling-off cancellation: ${refund.arithmetic}`,
      );
    if (s.gatewayone_schedule_id)
      await this.jobs.enqueue('subscriptions.delete-schedule', {
        subscription_id: s.id,
        schedule_id: s.gatewayone_schedule_id,
      });
    await this.steps.record(
      s,
      caller,
      meta,
      'subscription_cancelled',
      `Membership ${event.event}: ${body.reason}`,
      event,
    );
    await this.tell(s, 'subscription_cancelled', {
      ends: endsNow ? null : day(s.current_period_end),
      refund: refund && refund.refundCents > 0 ? formatMoney(refund.refundCents, s.currency) : null,
    });
  }

  /**
   * Endpoint 14: to a tier of the same site (by name or id) that costs more; the new amount is charged
   * from the next renewal, and the difference in credits is granted for the current period at once.
   */
  async upgrade(
    caller: AuthUser,
    id: string,
    body: { new_tier: string; reason: string },
    meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    await this.tx.run(async () => {
      const s = await this.steps.locked(caller, id);
      if (!['trialing', 'active', 'past_due', 'paused'].includes(s.status))
        throw AppException.conflict('NOT_UPGRADABLE', `A ${s.status} membership cannot be upgraded.`);
      const tier = await this.tiers.findForSite(s.site_id, body.new_tier);
      if (!tier || tier.site_id !== s.site_id || !tier.active) throw AppException.notFound('Tier');
      const notUpgrade = upgradeRefusal(s, tier);
      if (notUpgrade) throw AppException.unprocessable('NOT_AN_UPGRADE', notUpgrade);
      const event: HistoryEvent = {
        event: 'upgraded',
        at: new Date().toISOString(),
        by: caller.id,
        reason: body.reason,
        from: { tier: s.tier_name, amount_cents: s.amount_cents, credits: s.entry_credits_per_period },
        to: { tier: tier.name, amount_cents: tier.amount_cents, credits: tier.entry_credits_per_period },
        credits_granted: Math.max(0, tier.entry_credits_per_period - s.entry_credits_per_period),
      };
      await this.subs.update(
        s.id,
        {
          tier_id: tier.id,
          amount_cents: tier.amount_cents,
          currency: tier.currency,
          entry_credits_per_period: Math.max(tier.entry_credits_per_period, s.credits_used_this_period),
        },
        event,
      );
      await this.steps.record(
        s,
        caller,
        meta,
        'subscription_upgraded',
        `Membership upgraded to ${tier.name}: ${body.reason}`,
        event,
      );
    });
    return this.steps.answer(caller, id);
  }

  private async tell(
    s: SubscriptionRow,
    kind: 'subscription_cancelled',
    variables: Record<string, string | number | boolean | null>,
  ): Promise<void> {
    const to = (await this.accounts.contactsOf([s.user_id])).get(s.user_id);
    if (!to) return;
    await this.mail.send({
      kind,
      siteId: s.site_id,
      to: to.email,
      userId: s.user_id,
      variables: { tier_name: s.tier_title, first_name: to.firstName, ...variables },
    });
  }
}
