import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { SubscriptionDto } from './dto/subscription.dto.js';
import { day } from './membership-mail.js';
import { SubscriptionChangeSteps } from './subscription-change-steps.js';
import { type HistoryEvent, SubscriptionsRepository } from './subscriptions.repository.js';
import { addDays, MAX_PAUSE_DAYS, resumedState } from './subscriptions.rules.js';

/**
 * An admin's pause and resume of a membership (DESIGN §5): no credits while paused, the period and (for a
 * trial) the trial's end moved by the pause; the status it was paused from comes back on resume. The
 * expiries job resumes one whose date has come the same way (`resumedState`).
 */
@Injectable()
export class SubscriptionPausesService {
  constructor(
    private readonly subs: SubscriptionsRepository,
    private readonly steps: SubscriptionChangeSteps,
    private readonly tx: TransactionRunner,
  ) {}

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
      const s = await this.steps.locked(caller, id);
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
      await this.steps.record(
        s,
        caller,
        meta,
        'subscription_paused',
        `Membership paused until ${day(until)}: ${body.reason}`,
        event,
      );
    });
    return this.steps.answer(caller, id);
  }

  async resume(
    caller: AuthUser,
    id: string,
    body: { reason: string },
    meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    const now = new Date();
    await this.tx.run(async () => {
      const s = await this.steps.locked(caller, id);
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
      await this.steps.record(
        s,
        caller,
        meta,
        'subscription_resumed',
        `Membership resumed: ${body.reason}`,
        event,
      );
    });
    return this.steps.answer(caller, id);
  }
}
