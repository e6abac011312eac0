import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { formatMoney } from '#app/common/money.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { PurposeOrdersService } from '#app/modules/payments/purpose-orders.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { SubscriptionDto } from './dto/subscription.dto.js';
import { day } from './membership-mail.js';
import { toSubscriptionDto } from './subscriptions.mapper.js';
import {
  type HistoryEvent,
  type SubscriptionRow,
  SubscriptionsRepository,
} from './subscriptions.repository.js';
import {
  addDays,
  cancelRefusal,
  coolingOffRefund,
  inCoolingOff,
  upgradeRefusal,
  MAX_PAUSE_DAYS,
  resumedState,
} from './subscriptions.rules.js';
import { mayRead } from './subscriptions.service.js';
import { TiersService } from './tiers.service.js';

/**
 * What members and admins change on a membership (DESIGN §5): cancel (endpoint 13, and the member's own
 * with the same rules), upgrade (14), pause and resume. Each locks the row, decides from its state with
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
    private readonly activity: ActivityLogService,
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
      const s = await this.locked(caller, id);
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
    return this.answer(caller, id);
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
    // a trial's payment was a card check of 0).
    const refund = coolingOff
      ? coolingOffRefund({
          amountCents: await this.orders.keptOf(coolingOff),
          creditsPerPeriod: s.entry_credits_per_period,
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
        ? { status: 'cancelled', cancelled_at: now, cancellation_reason: body.reason, auto_renew: false }
        : { status: 'pending_cancellation', cancellation_reason: body.reason, auto_renew: false },
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
    await this.record(
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
      const s = await this.locked(caller, id);
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
      await this.record(
        s,
        caller,
        meta,
        'subscription_upgraded',
        `Membership upgraded to ${tier.name}: ${body.reason}`,
        event,
      );
    });
    return this.answer(caller, id);
  }

  /** An admin pauses an active membership until a date: no credits meanwhile; the period is extended by the pause. */
  async pause(
    caller: AuthUser,
    id: string,
    body: { paused_until: string; reason: string },
    meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    const now = new Date();
    const until = new Date(body.paused_until);
    if (until <= now || until > addDays(now, MAX_PAUSE_DAYS))
      throw AppException.validation([
        { field: 'paused_until', message: `must be in the future and at most ${MAX_PAUSE_DAYS} days ahead` },
      ]);
    await this.tx.run(async () => {
      const s = await this.locked(caller, id);
      if (s.status !== 'active' && s.status !== 'trialing')
        throw AppException.conflict('NOT_PAUSABLE', `A ${s.status} membership cannot be paused.`);
      const event: HistoryEvent = {
        event: 'paused',
        at: now.toISOString(),
        by: caller.id,
        reason: body.reason,
        until: until.toISOString(),
        from: s.status,
      };
      // The status paused from is kept so that the resume restores it (a trial stays a trial).
      await this.subs.update(
        s.id,
        { status: 'paused', paused_until: until, paused_at: now, paused_from: s.status },
        event,
      );
      await this.record(
        s,
        caller,
        meta,
        'subscription_paused',
        `Membership paused until ${day(until)}: ${body.reason}`,
        event,
      );
    });
    return this.answer(caller, id);
  }

  async resume(
    caller: AuthUser,
    id: string,
    body: { reason: string },
    meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    const now = new Date();
    await this.tx.run(async () => {
      const s = await this.locked(caller, id);
      if (s.status !== 'paused') throw AppException.conflict('NOT_PAUSED', 'This membership is not paused.');
      const resumed = resumedState(
        {
          current_period_end: s.current_period_end ?? now,
          next_billing_date: s.next_billing_date ?? now,
          trial_end_date: s.trial_end_date,
          paused_from: s.paused_from,
        },
        s.paused_at ?? now,
        now,
      );
      const event: HistoryEvent = {
        event: 'resumed',
        at: now.toISOString(),
        by: caller.id,
        reason: body.reason,
      };
      await this.subs.update(
        s.id,
        { paused_until: null, paused_at: null, paused_from: null, ...resumed },
        event,
      );
      await this.record(s, caller, meta, 'subscription_resumed', `Membership resumed: ${body.reason}`, event);
    });
    return this.answer(caller, id);
  }

  /** The row locked, if the caller may act on it: an admin of its site, or (cancel) its member; else 404. */
  private async locked(caller: AuthUser, id: string): Promise<SubscriptionRow> {
    const s = isUUID(id) ? await this.subs.lock(id) : null;
    if (!s || !mayRead(caller, s)) throw AppException.notFound('Subscription');
    return s;
  }

  private async answer(caller: AuthUser, id: string): Promise<SubscriptionDto> {
    const s = await this.subs.findById(id);
    if (!s || !mayRead(caller, s)) throw AppException.notFound('Subscription');
    return toSubscriptionDto(s);
  }

  private record(
    s: SubscriptionRow,
    caller: Pick<AuthUser, 'id' | 'role'>,
    meta: RequestMeta,
    type: string,
    description: string,
    event: HistoryEvent,
  ): Promise<void> {
    return this.activity.record(
      {
        userId: s.user_id,
        siteId: s.site_id,
        type,
        description: description.slice(0, 500),
        resourceType: 'subscription',
        resourceId: s.id,
        metadata: { ...event, actor_role: caller.role },
      },
      meta,
    );
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
      variables: { tier_name: s.tier_name, first_name: to.firstName, ...variables },
    });
  }
}
