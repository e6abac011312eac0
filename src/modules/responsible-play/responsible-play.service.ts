import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { LimitsDto, UpdateLimitsDto } from './dto/limits.dto.js';
import type { UserLimit } from './entities/user-limit.entity.js';
import { toLimitsDto } from './limits.mapper.js';
import { PauseListeners } from './pause-listeners.js';
import { ResponsiblePlayRepository } from './responsible-play.repository.js';
import {
  type LimitsState,
  monthOf,
  NO_LIMITS,
  planLimits,
  remaining,
  spendGate,
} from './responsible-play.rules.js';

export interface SpendReservation {
  /** The month (UTC `YYYY-MM`) the spend counts against: keep it to release the spend later. */
  month: string;
  spentCents: number;
  limitCents: number | null;
}

function stateOf(row: UserLimit | null): LimitsState {
  if (!row) return NO_LIMITS;
  return {
    monthly_spend_limit_cents: row.monthly_spend_limit_cents,
    pending_limit_cents: row.pending_limit_cents,
    pending_effective_at: row.pending_effective_at,
    paused_until: row.paused_until,
  };
}

function sameState(a: LimitsState, b: LimitsState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function nonNegativeInteger(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`${what}: amountCents must be a non-negative integer, got ${amount}`);
}

/**
 * Responsible play (DESIGN §6): a user's monthly spend limit and self-pause, and the check every paid
 * way in makes inside its own transaction.
 */
@Injectable()
export class ResponsiblePlayService {
  constructor(
    private readonly repo: ResponsiblePlayRepository,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
    private readonly pauses: PauseListeners,
  ) {}

  async getLimits(userId: string, now = new Date()): Promise<LimitsDto> {
    const [row, spent] = await Promise.all([
      this.repo.findLimits(userId),
      this.repo.spentIn(userId, monthOf(now)),
    ]);
    return toLimitsDto(stateOf(row), row?.updated_at ?? null, spent, now);
  }

  async setLimits(
    user: AuthUser,
    body: UpdateLimitsDto,
    meta: RequestMeta,
    now = new Date(),
  ): Promise<LimitsDto> {
    return this.tx.run(async (manager) => {
      const before = stateOf(await this.repo.lockLimits(manager, user.id));
      const plan = planLimits(
        before,
        {
          monthly_spend_limit_cents: body.monthly_spend_limit_cents,
          paused_until:
            body.paused_until === undefined || body.paused_until === null
              ? body.paused_until
              : new Date(body.paused_until),
        },
        now,
      );
      if (!plan.ok) {
        if (plan.status === 400)
          throw AppException.validation([{ field: plan.field, message: plan.message }]);
        throw AppException.unprocessable(plan.code, plan.message);
      }
      const spent = await this.repo.spentIn(user.id, monthOf(now), manager);
      if (sameState(before, plan.state)) {
        const row = await this.repo.findLimits(user.id, manager);
        return toLimitsDto(before, row?.updated_at ?? null, spent, now);
      }
      const saved = await this.repo.saveLimits(manager, user.id, plan.state);
      const until = plan.state.paused_until;
      if (until && until.getTime() !== before.paused_until?.getTime())
        await this.pauses.paused(user.id, until);
      await this.activity.record(
        {
          userId: user.id,
          siteId: user.siteId,
          type: 'limits_change',
          description: 'Responsible-play limits changed',
          resourceType: 'user_limits',
          resourceId: user.id,
          metadata: { before, after: plan.state },
        },
        meta,
        manager,
      );
      return toLimitsDto(stateOf(saved), saved.updated_at, spent, now);
    });
  }

  /**
   * Counts a paid order's amount against the user's month, inside the order's transaction: 422
   * SELF_PAUSED during a self-pause, 422 SPEND_LIMIT_REACHED when it would pass the limit in force.
   * One conditional upsert decides, so parallel orders can never pass the limit together.
   */
  async reserveSpend(
    manager: EntityManager,
    input: { userId: string; amountCents: number; now: Date },
  ): Promise<SpendReservation> {
    nonNegativeInteger(input.amountCents, 'reserveSpend');
    const gate = spendGate(stateOf(await this.repo.findLimits(input.userId, manager)), input.now);
    if (gate.paused)
      throw AppException.unprocessable(
        'SELF_PAUSED',
        'You have paused paid entries on your account for now.',
      );
    const month = monthOf(input.now);
    if (input.amountCents === 0)
      return {
        month,
        spentCents: await this.repo.spentIn(input.userId, month, manager),
        limitCents: gate.limit,
      };
    const spent = await this.repo.reserve(manager, {
      userId: input.userId,
      month,
      amountCents: input.amountCents,
      limitCents: gate.limit,
    });
    if (spent === null) {
      const left = remaining(gate.limit, await this.repo.spentIn(input.userId, month, manager));
      throw AppException.unprocessable(
        'SPEND_LIMIT_REACHED',
        `This order would pass your monthly spend limit; ${left ?? 0} (minor units) is left this month.`,
      );
    }
    return { month, spentCents: spent, limitCents: gate.limit };
  }

  /**
   * `reserveSpend` for many charges at once (a renewal run), in the caller's transaction: the limits of
   * every user read in one query, then one conditional upsert per charge (so the limit holds under any
   * concurrency, as for an order). Answers, per key, the month counted or why it was refused.
   */
  async reserveSpendMany(
    manager: EntityManager,
    charges: Array<{ key: string; userId: string; amountCents: number }>,
    now: Date,
  ): Promise<Map<string, { month: string } | { refused: 'SELF_PAUSED' | 'SPEND_LIMIT_REACHED' }>> {
    const month = monthOf(now);
    const limits = await this.repo.findLimitsOf([...new Set(charges.map((c) => c.userId))], manager);
    const out = new Map<string, { month: string } | { refused: 'SELF_PAUSED' | 'SPEND_LIMIT_REACHED' }>();
    for (const c of charges) {
      nonNegativeInteger(c.amountCents, 'reserveSpendMany');
      const gate = spendGate(stateOf(limits.get(c.userId) ?? null), now);
      if (gate.paused) {
        out.set(c.key, { refused: 'SELF_PAUSED' });
        continue;
      }
      const spent =
        c.amountCents === 0
          ? 0
          : await this.repo.reserve(manager, {
              userId: c.userId,
              month,
              amountCents: c.amountCents,
              limitCents: gate.limit,
            });
      out.set(c.key, spent === null ? { refused: 'SPEND_LIMIT_REACHED' } : { month });
    }
    return out;
  }

  /**
   * Counts again a spend given back too early: an order that failed and then went through after all.
   * The money was taken, so it counts whatever the limit says (the month may end above the limit).
   */
  async recountSpend(
    manager: EntityManager,
    input: { userId: string; amountCents: number; month: string },
  ): Promise<number> {
    nonNegativeInteger(input.amountCents, 'recountSpend');
    if (input.amountCents === 0) return this.repo.spentIn(input.userId, input.month, manager);
    const spent = await this.repo.reserve(manager, { ...input, limitCents: null });
    return spent ?? 0;
  }

  /** `releaseSpend` for many charges at once (declined renewals), in one statement. */
  async releaseSpendMany(
    manager: EntityManager,
    rows: Array<{ userId: string; amountCents: number; month: string }>,
  ): Promise<void> {
    for (const r of rows) nonNegativeInteger(r.amountCents, 'releaseSpendMany');
    await this.repo.releaseMany(
      manager,
      rows.filter((r) => r.amountCents > 0),
    );
  }

  /** Gives back a reservation of an order that failed or was refunded; never below zero. */
  async releaseSpend(
    manager: EntityManager,
    input: { userId: string; amountCents: number; month: string },
  ): Promise<number> {
    nonNegativeInteger(input.amountCents, 'releaseSpend');
    if (input.amountCents === 0) return this.repo.spentIn(input.userId, input.month, manager);
    return this.repo.release(manager, {
      userId: input.userId,
      month: input.month,
      amountCents: input.amountCents,
    });
  }
}
