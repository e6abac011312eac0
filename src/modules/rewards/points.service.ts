import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import type { PointTransactionRecordDto } from '#app/modules/users/dto/user-records.dto.js';
import type { PointTransaction } from './entities/point-transaction.entity.js';
import { toPointTransactionRecordDto } from './points.mapper.js';
import {
  BONUS_MANY,
  DEBIT_FOR_CLAIM,
  EARN_ONCE_FOR_PAYMENT,
  EARN_ONCE_FOR_PAYMENTS,
  entryParams,
  INSERT_ENTRY,
  type NewPointTransaction,
  PointsRepository,
} from './points.repository.js';
import type {
  AdjustInput,
  CreditInput,
  EarnInput,
  EntryBase,
  LedgerMeta,
  PointsOutcome,
  ReversalOutcome,
  ReverseInput,
} from './points.types.js';
import {
  MAX_BALANCE,
  REASON_MAX,
  type RewardsRules,
  discountClaimBonus,
  lifetimeDelta,
  planReversal,
  paymentPoints,
  reversalReason,
  rewardsRules,
} from './rewards.rules.js';

function positiveInteger(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError(`${what}: amount must be a positive integer, got ${amount}`);
}

/**
 * The points ledger as other features use it. Every write takes the caller's EntityManager and uses only
 * it, so points move in the same transaction as the payment, entry or claim they belong to.
 */
@Injectable()
export class PointsService {
  constructor(
    private readonly repo: PointsRepository,
    private readonly sites: SitesService,
    private readonly tx: TransactionRunner,
  ) {}

  /** Credits points; with a payment, at most once per payment (a repeat answers `applied: false`). */
  async earn(manager: EntityManager, input: EarnInput): Promise<PointsOutcome> {
    if (input.amount === 0) return this.unchanged(manager, input.userId);
    positiveInteger(input.amount, 'earn');
    const entry = this.entry(input, 'earn', input.amount, input.paymentTransactionId ?? null, null);
    const row = entry.payment_transaction_id
      ? await this.repo.appendEarnOnce(manager, entry)
      : await this.repo.append(manager, entry);
    if (!row) return this.unchanged(manager, input.userId);
    const balance = await this.repo.credit(manager, {
      userId: input.userId,
      siteId: input.siteId,
      amount: input.amount,
      lifetime: lifetimeDelta('earn', input.amount),
    });
    return { applied: true, balance, transaction: row };
  }

  /**
   * The points a payment earns under its site's rules (read from the site's cached settings, no row
   * read per payment) and a raffle's multiplier where it has points enabled: `paymentPoints` decides.
   */
  async pointsForPayment(input: {
    siteId: string;
    amountCents: number;
    currency: string;
    multiplier?: number | null;
  }): Promise<number> {
    const rules = rewardsRules(await this.sites.settingsOf(input.siteId));
    return paymentPoints({ ...input, rules });
  }

  /**
   * `earnForPayment` sent with the ambient transaction's next statement (`TransactionRunner.defer`): the
   * fulfilment of a paid order, which never reads the new balance, pays no round trip for it.
   */
  earnForPaymentLater(input: Parameters<PointsService['earnForPayment']>[0]): void {
    if (input.points <= 0) return;
    positiveInteger(input.points, 'earnForPaymentLater');
    this.tx.defer(EARN_ONCE_FOR_PAYMENT, entryParams(this.paymentEntry(input)));
  }

  /**
   * Bonuses (loyalty milestones) for many users, sent with the ambient transaction's next statement:
   * one statement for the ledger rows and the balances they move.
   */
  bonusManyLater(
    rows: Array<{
      userId: string;
      siteId: string;
      amount: number;
      reason: string;
      details?: Record<string, unknown>;
    }>,
  ): void {
    if (!rows.length) return;
    for (const r of rows) positiveInteger(r.amount, 'bonus');
    this.tx.defer(BONUS_MANY, [
      rows.map((r) => r.siteId),
      rows.map((r) => r.userId),
      rows.map((r) => r.reason.slice(0, REASON_MAX)),
      rows.map((r) => r.amount),
      rows.map((r) => JSON.stringify(r.details ?? {})),
    ]);
  }

  /** `earnForPaymentLater` for many payments, in one statement (a renewal run's charges). */
  earnForPaymentsLater(rows: Array<Parameters<PointsService['earnForPayment']>[0]>): void {
    const earning = rows.filter((r) => r.points > 0);
    if (!earning.length) return;
    for (const r of earning) positiveInteger(r.points, 'earnForPaymentsLater');
    this.tx.defer(EARN_ONCE_FOR_PAYMENTS, [
      earning.map((r) => r.siteId),
      earning.map((r) => r.userId),
      earning.map((r) => r.paymentTransactionId),
      earning.map((r) => r.reason.slice(0, REASON_MAX)),
      earning.map((r) => r.points),
    ]);
  }

  /**
   * Credits what a payment earns, at most once per payment, in one statement in the ambient transaction
   * (a repeat or a racing fulfilment answers `applied: false`). `points` comes from `pointsForPayment`.
   */
  async earnForPayment(input: {
    userId: string;
    siteId: string;
    paymentTransactionId: string;
    points: number;
    reason: string;
    meta?: LedgerMeta;
  }): Promise<{ applied: boolean; balance: number | null }> {
    if (input.points <= 0) return { applied: false, balance: null };
    positiveInteger(input.points, 'earnForPayment');
    const balance = await this.repo.earnOnceForPayment(this.tx.manager, this.paymentEntry(input));
    return { applied: balance !== null, balance };
  }

  /** The ledger row of what a payment earns. */
  private paymentEntry(input: Parameters<PointsService['earnForPayment']>[0]): NewPointTransaction {
    const { userId, siteId, points, reason, meta } = input;
    return this.entry(
      { userId, siteId, amount: points, reason, meta },
      'earn',
      points,
      input.paymentTransactionId,
      null,
    );
  }

  /**
   * A discount claim's points: takes `amount` (0 for a free code) if the balance covers it and counts the
   * claim when it spent points, in one statement of the ambient transaction; the ledger row and the claim
   * bonus (every N counted claims, `rules`) go with the transaction's next statement. Null when the
   * balance does not cover it.
   */
  async spendForClaim(
    input: EntryBase,
    rules: RewardsRules,
  ): Promise<{ balance: number; claims: number; bonus: number } | null> {
    if (input.amount !== 0) positiveInteger(input.amount, 'spendForClaim');
    if (input.amount > MAX_BALANCE) return null;
    const rows = await this.tx.manager.query<
      Array<{ current_points: number; discount_claims_count: number }>
    >(DEBIT_FOR_CLAIM, [input.userId, input.siteId, input.amount]);
    if (!rows.length) return null;
    const { current_points, discount_claims_count: claims } = rows[0];
    if (input.amount > 0)
      this.tx.defer(INSERT_ENTRY, entryParams(this.entry(input, 'spend', -input.amount, null, null)));
    const bonus = input.amount > 0 ? discountClaimBonus(claims, rules) : 0;
    if (bonus > 0)
      this.bonusManyLater([
        {
          userId: input.userId,
          siteId: input.siteId,
          amount: bonus,
          reason: `Bonus for ${claims} discount claims`,
        },
      ]);
    return { balance: current_points + bonus, claims, bonus };
  }

  /** Credits a bonus (referrals, milestones) or gives back points spent on something refunded. */
  async credit(manager: EntityManager, input: CreditInput): Promise<PointsOutcome> {
    positiveInteger(input.amount, input.type);
    const row = await this.repo.append(
      manager,
      this.entry(
        input,
        input.type,
        input.amount,
        input.paymentTransactionId ?? null,
        input.createdBy ?? null,
      ),
    );
    const balance = await this.repo.credit(manager, {
      userId: input.userId,
      siteId: input.siteId,
      amount: input.amount,
      lifetime: lifetimeDelta(input.type, input.amount),
    });
    return { applied: true, balance, transaction: row };
  }

  /** Spends points; 422 INSUFFICIENT_POINTS when the balance does not cover them, under any concurrency. */
  async spend(
    manager: EntityManager,
    input: EntryBase,
  ): Promise<PointsOutcome & { transaction: PointTransaction }> {
    positiveInteger(input.amount, 'spend');
    // Beyond the column's range no balance covers it, and the database would refuse the number itself.
    const balance =
      input.amount > MAX_BALANCE ? null : await this.repo.debitIfCovered(manager, input.userId, input.amount);
    if (balance === null)
      throw AppException.unprocessable(
        'INSUFFICIENT_POINTS',
        `This needs ${input.amount} points, more than the balance holds.`,
      );
    const row = await this.repo.append(manager, this.entry(input, 'spend', -input.amount, null, null));
    return { applied: true, balance, transaction: row };
  }

  /**
   * Takes back points a payment earned when it is refunded: all of them, or pro rata for a partial
   * refund (rounded down). `fraction` is cumulative, so calling again with the same value does nothing.
   * Points already spent are not taken below zero: the entry records the shortfall and it is forgiven.
   */
  async reverseForPayment(manager: EntityManager, input: ReverseInput): Promise<ReversalOutcome> {
    const earned = await this.repo.lockEarnOfPayment(manager, input.paymentTransactionId);
    if (!earned) return { applied: false, balance: 0, transaction: null, due: 0, reversed: 0, shortfall: 0 };
    const alreadyDue = await this.repo.reversedDue(manager, input.paymentTransactionId);
    const current = (await this.repo.lockBalance(manager, earned.user_id)) ?? 0;
    const share = input.fraction ?? 1;
    const plan = planReversal(earned.amount, share, alreadyDue, current);
    if (plan.due === 0)
      return { applied: false, balance: current, transaction: null, due: 0, reversed: 0, shortfall: 0 };
    const balance = plan.take
      ? await this.repo.subtract(manager, earned.user_id, plan.take, lifetimeDelta('reversal', -plan.take))
      : current;
    const row = await this.repo.append(manager, {
      site_id: earned.site_id,
      user_id: earned.user_id,
      payment_transaction_id: input.paymentTransactionId,
      reason: reversalReason(input.reason, plan),
      transaction_type: 'reversal',
      created_by: null,
      amount: 0 - plan.take,
      ip_address: input.meta?.ip ?? null,
      user_agent: input.meta?.userAgent ?? null,
      metadata: { earned: earned.amount, share, due: plan.due, taken: plan.take, shortfall: plan.shortfall },
    });
    return {
      applied: true,
      balance,
      transaction: row,
      due: plan.due,
      reversed: plan.take,
      shortfall: plan.shortfall,
    };
  }

  /** An admin's correction, either way; 422 INSUFFICIENT_POINTS when it would take the balance below zero. */
  async adjust(
    manager: EntityManager,
    input: AdjustInput,
  ): Promise<PointsOutcome & { transaction: PointTransaction }> {
    if (!Number.isSafeInteger(input.amount) || input.amount === 0)
      throw new RangeError(`adjust: amount must be a non-zero integer, got ${input.amount}`);
    const entry = this.entry(input, 'adjustment', input.amount, null, input.createdBy);
    if (input.amount > 0) {
      const row = await this.repo.append(manager, entry);
      const balance = await this.repo.credit(manager, {
        userId: input.userId,
        siteId: input.siteId,
        amount: input.amount,
        lifetime: lifetimeDelta('adjustment', input.amount),
      });
      return { applied: true, balance, transaction: row };
    }
    const balance = await this.repo.debitIfCovered(manager, input.userId, -input.amount);
    if (balance === null) {
      const current = await this.repo.balanceOf(input.userId, manager);
      throw AppException.unprocessable(
        'INSUFFICIENT_POINTS',
        `The balance is ${current} points; an adjustment of ${input.amount} would take it below zero.`,
      );
    }
    const row = await this.repo.append(manager, entry);
    return { applied: true, balance, transaction: row };
  }

  /** The current balance (0 for a user who never had points). */
  balanceOf(userId: string, manager?: EntityManager): Promise<number> {
    return this.repo.balanceOf(userId, manager);
  }

  /**
   * The ledger entries tied to each payment, oldest first, in the nested form a Payment transaction
   * shows as `points` (one query for all payments asked).
   */
  async recordsOfPayments(
    paymentTransactionIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, PointTransactionRecordDto[]>> {
    const byPayment = new Map<string, PointTransactionRecordDto[]>();
    for (const row of await this.repo.ofPayments(paymentTransactionIds, manager)) {
      if (!row.payment_transaction_id) continue;
      const list = byPayment.get(row.payment_transaction_id) ?? [];
      list.push(toPointTransactionRecordDto(row));
      byPayment.set(row.payment_transaction_id, list);
    }
    return byPayment;
  }

  private async unchanged(manager: EntityManager, userId: string): Promise<PointsOutcome> {
    return { applied: false, balance: await this.repo.balanceOf(userId, manager), transaction: null };
  }

  private entry(
    input: Omit<EntryBase, 'details'> & { details?: Record<string, unknown> },
    type: NewPointTransaction['transaction_type'],
    amount: number,
    paymentTransactionId: string | null,
    createdBy: string | null,
  ): NewPointTransaction {
    return {
      site_id: input.siteId,
      user_id: input.userId,
      payment_transaction_id: paymentTransactionId,
      reason: input.reason.slice(0, REASON_MAX),
      transaction_type: type,
      created_by: createdBy,
      amount,
      ip_address: input.meta?.ip ?? null,
      user_agent: input.meta?.userAgent?.slice(0, 500) ?? null,
      metadata: input.details ?? {},
    };
  }
}
