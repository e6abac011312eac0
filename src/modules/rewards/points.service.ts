import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { PointTransaction } from './entities/point-transaction.entity.js';
import { ledgerEntry, positiveInteger } from './ledger-entry.js';
import { PointsRepository } from './points.repository.js';
import { BONUS_MANY, DEBIT_FOR_CLAIM, entryParams, INSERT_ENTRY } from './points.statements.js';
import type { AdjustInput, CreditInput, EarnInput, EntryBase, PointsOutcome } from './points.types.js';
import {
  MAX_BALANCE,
  REASON_MAX,
  type RewardsRules,
  discountClaimBonus,
  lifetimeDelta,
} from './rewards.rules.js';

/**
 * The points ledger as other features use it. Every write takes the caller's EntityManager and uses only
 * it, so points move in the same transaction as the payment, entry or claim they belong to.
 */
@Injectable()
export class PointsService {
  constructor(
    private readonly repo: PointsRepository,
    private readonly tx: TransactionRunner,
  ) {}

  /** Credits points; with a payment, at most once per payment (a repeat answers `applied: false`). */
  async earn(manager: EntityManager, input: EarnInput): Promise<PointsOutcome> {
    if (input.amount === 0) return this.unchanged(manager, input.userId);
    positiveInteger(input.amount, 'earn');
    const entry = ledgerEntry(input, 'earn', input.amount, input.paymentTransactionId ?? null, null);
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
      this.tx.defer(INSERT_ENTRY, entryParams(ledgerEntry(input, 'spend', -input.amount, null, null)));
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
      ledgerEntry(
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
    const row = await this.repo.append(manager, ledgerEntry(input, 'spend', -input.amount, null, null));
    return { applied: true, balance, transaction: row };
  }

  /** An admin's correction, either way; 422 INSUFFICIENT_POINTS when it would take the balance below zero. */
  async adjust(
    manager: EntityManager,
    input: AdjustInput,
  ): Promise<PointsOutcome & { transaction: PointTransaction }> {
    if (!Number.isSafeInteger(input.amount) || input.amount === 0)
      throw new RangeError(`adjust: amount must be a non-zero integer, got ${input.amount}`);
    const entry = ledgerEntry(input, 'adjustment', input.amount, null, input.createdBy);
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

  private async unchanged(manager: EntityManager, userId: string): Promise<PointsOutcome> {
    return { applied: false, balance: await this.repo.balanceOf(userId, manager), transaction: null };
  }
}
