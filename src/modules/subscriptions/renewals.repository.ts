import { Injectable } from '@nestjs/common';
import { isoUtc } from '#app/infra/database/sql-time.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { SubscriptionStatus } from './subscriptions.rules.js';
import { appendHistory } from './subscriptions.repository.js';

/** The statuses a membership renews in: charged when due, renewed or made past due by the charge's outcome. */
const RENEWING = `'active', 'trialing', 'past_due'`;

/** A renewal run's claim on a due subscription: the payment it will charge, fixed before the charge. */
export interface ClaimedRenewal {
  id: string;
  site_id: string;
  user_id: string;
  status: SubscriptionStatus;
  amount_cents: number;
  currency: string;
  billing_interval: 'month' | 'year';
  /** The tier as members read it (its display name), in the charge's description and the e-mails. */
  tier_title: string;
  gatewayone_registration_id: string | null;
  pending_payment_id: string;
  current_period_start: Date | null;
  current_period_end: Date | null;
  past_due_since: Date | null;
  failed_charges: number;
}

/**
 * The renewal run's statements, set-based and in the ambient transaction: one claims a batch of due
 * memberships, one renews the paid ones, one marks the declined ones; expiry ends the lapsed ones.
 */
@Injectable()
export class RenewalsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * Locks up to `limit` due subscriptions for this renewal run, the ones another run holds skipped (`FOR UPDATE SKIP
   * LOCKED`: several runners never take the same one): their ids and members. `claimDue` then claims those whose
   * member the run could hold (see `RenewalsJob.claim`).
   */
  lockDue(
    now: Date,
    limit: number,
    skip: readonly string[] = [],
  ): Promise<Array<{ id: string; user_id: string }>> {
    return this.tx.manager.query(
      `SELECT id, user_id FROM subscriptions
        WHERE status IN (${RENEWING}) AND auto_renew AND next_billing_date <= $1 AND pending_payment_id IS NULL
          AND id <> ALL($3::uuid[])
        ORDER BY next_billing_date
        LIMIT $2
        FOR UPDATE SKIP LOCKED`,
      [now, limit, skip],
    );
  }

  /**
   * Claims the subscriptions `lockDue` locked (`ids`): each gets the id of the payment that will charge its
   * period, so it is charged once whoever runs. The tier's name by a subquery, not a join (see
   * `SubscriptionsRepository`'s `SELECT_ROW`).
   */
  async claimDue(ids: string[]): Promise<ClaimedRenewal[]> {
    if (!ids.length) return [];
    const [rows] = await this.tx.manager.query<[ClaimedRenewal[], number]>(
      `UPDATE subscriptions s SET pending_payment_id = gen_random_uuid(), pending_payment_claimed_at = now(),
                                  updated_at = now()
        WHERE s.id = ANY($1::uuid[])
       RETURNING s.id, s.site_id, s.user_id, s.status, s.amount_cents, s.currency, s.billing_interval,
                 (SELECT COALESCE(NULLIF(btrim(t.display_name), ''), t.name) FROM subscription_tiers t WHERE t.id = s.tier_id) AS tier_title,
                 s.gatewayone_registration_id, s.pending_payment_id, s.current_period_start,
                 s.current_period_end, s.past_due_since, s.failed_charges`,
      [ids],
    );
    return rows;
  }

  /**
   * Charges a run claimed whose answer was lost (still pending since before `olderThan`): to look up,
   * `limit` at a time in id order after `afterId` (a look-up that settles nothing leaves its row as it
   * was, so a run pages past it rather than reading it again).
   */
  async lostCharges(
    olderThan: Date,
    limit: number,
    afterId?: string,
  ): Promise<Array<ClaimedRenewal & { claimed_at: Date }>> {
    return this.tx.manager.query(
      `SELECT s.id, s.site_id, s.user_id, s.status, s.amount_cents, s.currency, s.billing_interval,
              COALESCE(NULLIF(btrim(t.display_name), ''), t.name) AS tier_title, s.gatewayone_registration_id, s.pending_payment_id, s.current_period_start,
              s.current_period_end, s.past_due_since, s.failed_charges, s.pending_payment_claimed_at AS claimed_at
         FROM subscriptions s JOIN subscription_tiers t ON t.id = s.tier_id
        WHERE s.pending_payment_id IS NOT NULL AND s.pending_payment_claimed_at < $1 AND ($3::uuid IS NULL OR s.id > $3::uuid)
        ORDER BY s.id LIMIT $2`,
      [olderThan, limit, afterId ?? null],
    );
  }

  /**
   * Renews the subscriptions these payments paid for, set-based, with the dates `renewedDates` decided
   * for each: credits reset, streak and lifetime months up, dunning cleared — only a subscription whose
   * charge this is (the one in flight, or a card update's for one past due) and that may still renew.
   * Answers the renewed ones with what their milestones need.
   */
  async renew(
    renewals: Array<{
      subscriptionId: string;
      paymentId: string;
      registrationId: string | null;
      periodStart: Date;
      periodEnd: Date;
      coolingOffExpiry: Date;
      months: number;
    }>,
  ): Promise<
    Array<{
      id: string;
      user_id: string;
      site_id: string;
      streak_months: number;
      milestones_awarded: Record<string, string>;
    }>
  > {
    if (!renewals.length) return [];
    const [rows] = await this.tx.manager.query<
      [
        Array<{
          id: string;
          user_id: string;
          site_id: string;
          streak_months: number;
          milestones_awarded: Record<string, string>;
        }>,
        number,
      ]
    >(
      `WITH v AS (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::timestamptz[], $5::timestamptz[],
                                       $6::timestamptz[], $7::integer[])
                   AS v(id, payment_id, registration_id, period_start, period_end, cooling_off, months))
       UPDATE subscriptions s
          SET status = 'active',
              current_period_start = v.period_start,
              current_period_end = v.period_end,
              next_billing_date = v.period_end,
              cooling_off_expiry = v.cooling_off,
              credits_used_this_period = 0,
              streak_months = s.streak_months + v.months,
              lifetime_months = s.lifetime_months + v.months,
              current_payment_id = v.payment_id,
              pending_payment_id = NULL,
              past_due_since = NULL,
              failed_charges = 0,
              -- The grace's last failure turned renewing off (failRenewals); a member who then pays the
              -- overdue period goes on renewing. Only a cancellation turns it off otherwise, and a
              -- cancelled membership is not renewed here.
              auto_renew = s.auto_renew OR s.status = 'past_due',
              gatewayone_registration_id = COALESCE(v.registration_id, s.gatewayone_registration_id),
              metadata = ${appendHistory(`jsonb_build_object('event', 'renewed', 'at', ${isoUtc('now()')}, 'payment_id', v.payment_id, 'period_end', ${isoUtc('v.period_end')})`)},
              updated_at = now()
         FROM v
        WHERE s.id = v.id
          AND (s.pending_payment_id = v.payment_id OR s.status = 'past_due')
          AND s.status IN (${RENEWING})
       RETURNING s.id, s.user_id, s.site_id, s.streak_months, s.milestones_awarded`,
      [
        renewals.map((r) => r.subscriptionId),
        renewals.map((r) => r.paymentId),
        renewals.map((r) => r.registrationId),
        renewals.map((r) => r.periodStart),
        renewals.map((r) => r.periodEnd),
        renewals.map((r) => r.coolingOffExpiry),
        renewals.map((r) => r.months),
      ],
    );
    return rows;
  }

  /** Records milestones as awarded (months → when), set-based. */
  async markMilestones(rows: Array<{ id: string; months: number }>, now: Date): Promise<void> {
    if (!rows.length) return;
    await this.tx.manager.query(
      `UPDATE subscriptions s
          SET milestones_awarded = s.milestones_awarded || m.awarded, updated_at = now()
         FROM (SELECT id, jsonb_object_agg(months::text, $3::text) AS awarded
                 FROM unnest($1::uuid[], $2::integer[]) AS x(id, months) GROUP BY id) m
        WHERE s.id = m.id`,
      [rows.map((r) => r.id), rows.map((r) => r.months), now.toISOString()],
    );
  }

  /**
   * Payments that paid for no period: each noted in its membership's history, and no longer awaited where
   * the membership still waits on it (`pending_payment_id`).
   */
  async releaseUnused(payments: Array<{ subscriptionId: string; paymentId: string }>): Promise<void> {
    await this.tx.manager.query(
      `WITH v AS (SELECT * FROM unnest($1::uuid[], $2::uuid[]) AS v(id, payment_id))
       UPDATE subscriptions s
          SET pending_payment_id = CASE WHEN s.pending_payment_id = v.payment_id THEN NULL
                                        ELSE s.pending_payment_id END,
              metadata = ${appendHistory(`jsonb_build_object('event', 'payment_refunded_unused', 'at', ${isoUtc('now()')}, 'payment_id', v.payment_id)`)},
              updated_at = now()
         FROM v
        WHERE s.id = v.id`,
      [payments.map((p) => p.subscriptionId), payments.map((p) => p.paymentId)],
    );
  }

  /**
   * Renewal charges that never reached the gateway: the membership no longer waits on the charge and is due
   * as it was, to be charged by a later run under a new payment. Nothing happened to the member, so nothing
   * is noted in its history (a gateway's outage would note it every run); the cancelled payment says it.
   */
  async releaseUnsent(payments: Array<{ subscriptionId: string; paymentId: string }>): Promise<void> {
    if (!payments.length) return;
    await this.tx.manager.query(
      `UPDATE subscriptions s
          SET pending_payment_id = NULL, pending_payment_claimed_at = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::uuid[]) AS v(id, payment_id)
        WHERE s.id = v.id AND s.pending_payment_id = v.payment_id`,
      [payments.map((p) => p.subscriptionId), payments.map((p) => p.paymentId)],
    );
  }

  /**
   * A renewal charge declined (or refused by the member's own limits): `past_due`, its first failure
   * kept, the failures counted and the next attempt set (`retryAt`, null: the grace runs out). Only a
   * subscription still waiting on that charge, and still renewing, moves; answers those that did. One
   * the member cancelled or an admin paused while the charge was in flight keeps its status and only
   * stops waiting on the charge (noted in its history): a decline must not bring it back to `past_due`,
   * where it would count as active and be charged again.
   */
  async failRenewals(
    failures: Array<{
      subscriptionId: string;
      paymentId: string;
      retryAt: Date | null;
      firstFailure: Date;
      reason: string;
    }>,
  ): Promise<string[]> {
    if (!failures.length) return [];
    const ids = failures.map((f) => f.subscriptionId);
    const payments = failures.map((f) => f.paymentId);
    const reasons = failures.map((f) => f.reason);
    const [rows] = await this.tx.manager.query<[Array<{ id: string }>, number]>(
      `WITH v AS (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::varchar[])
                   AS v(id, payment_id, retry_at, first_failure, reason))
       UPDATE subscriptions s
          SET status = 'past_due',
              past_due_since = COALESCE(s.past_due_since, v.first_failure),
              failed_charges = s.failed_charges + 1,
              next_billing_date = COALESCE(v.retry_at, s.next_billing_date),
              auto_renew = v.retry_at IS NOT NULL AND s.auto_renew,
              pending_payment_id = NULL,
              metadata = ${appendHistory(`jsonb_build_object('event', 'charge_failed', 'at', ${isoUtc('now()')}, 'payment_id', v.payment_id, 'reason', v.reason, 'retry_at', ${isoUtc('v.retry_at')})`)},
              updated_at = now()
         FROM v
        WHERE s.id = v.id AND s.pending_payment_id = v.payment_id AND s.status IN (${RENEWING})
       RETURNING s.id`,
      [ids, payments, failures.map((f) => f.retryAt), failures.map((f) => f.firstFailure), reasons],
    );
    // Cancelled or paused meanwhile: only no longer waiting on the charge.
    await this.tx.manager.query(
      `WITH v AS (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[]) AS v(id, payment_id, reason))
       UPDATE subscriptions s
          SET pending_payment_id = NULL,
              metadata = ${appendHistory(`jsonb_build_object('event', 'charge_failed', 'at', ${isoUtc('now()')}, 'payment_id', v.payment_id, 'reason', v.reason, 'retry_at', NULL)`)},
              updated_at = now()
         FROM v
        WHERE s.id = v.id AND s.pending_payment_id = v.payment_id AND s.status NOT IN (${RENEWING})`,
      [ids, payments, reasons],
    );
    return rows.map((r) => r.id);
  }
}
