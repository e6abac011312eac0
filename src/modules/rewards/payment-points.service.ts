import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import type { PointTransactionRecordDto } from '#app/modules/users/dto/user-records.dto.js';
import { ledgerEntry, positiveInteger } from './ledger-entry.js';
import { toPointTransactionRecordDto } from './points.mapper.js';
import { PointsRepository } from './points.repository.js';
import {
  EARN_ONCE_FOR_PAYMENT,
  EARN_ONCE_FOR_PAYMENTS,
  entryParams,
  type NewPointTransaction,
} from './points.statements.js';
import type { LedgerMeta, ReversalOutcome, ReverseInput } from './points.types.js';
import {
  REASON_MAX,
  lifetimeDelta,
  paymentPoints,
  planReversal,
  reversalReason,
  rewardsRules,
} from './rewards.rules.js';

/** What a payment earns, as fulfilment hands it over. */
export interface PaymentEarn {
  userId: string;
  siteId: string;
  paymentTransactionId: string;
  points: number;
  reason: string;
  meta?: LedgerMeta;
}

/**
 * The points of payments: what one earns (decided by `paymentPoints`), earned at most once per payment in
 * the fulfilment's own transaction, taken back pro rata when it is refunded, and shown with the payment.
 */
@Injectable()
export class PaymentPointsService {
  constructor(
    private readonly repo: PointsRepository,
    private readonly sites: SitesService,
    private readonly tx: TransactionRunner,
  ) {}

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
  earnForPaymentLater(input: PaymentEarn): void {
    if (input.points <= 0) return;
    positiveInteger(input.points, 'earnForPaymentLater');
    this.tx.defer(EARN_ONCE_FOR_PAYMENT, entryParams(this.paymentEntry(input)));
  }

  /** `earnForPaymentLater` for many payments, in one statement (a renewal run's charges). */
  earnForPaymentsLater(rows: Array<PaymentEarn>): void {
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
  async earnForPayment(input: PaymentEarn): Promise<{ applied: boolean; balance: number | null }> {
    if (input.points <= 0) return { applied: false, balance: null };
    positiveInteger(input.points, 'earnForPayment');
    const balance = await this.repo.earnOnceForPayment(this.tx.manager, this.paymentEntry(input));
    return { applied: balance !== null, balance };
  }

  /** The ledger row of what a payment earns. */
  private paymentEntry(input: PaymentEarn): NewPointTransaction {
    const { userId, siteId, points, reason, meta } = input;
    return ledgerEntry(
      { userId, siteId, amount: points, reason, meta },
      'earn',
      points,
      input.paymentTransactionId,
      null,
    );
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
}
