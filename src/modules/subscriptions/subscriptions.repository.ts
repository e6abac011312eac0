import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Subscription } from './entities/subscription.entity.js';
import type { SubscriptionStatus } from './subscriptions.rules.js';

/** A subscription as read for answers and decisions: its row and its tier's name. */
export type SubscriptionRow = Subscription & { tier_name: string };

export type NewSubscription = Pick<
  Subscription,
  | 'site_id'
  | 'user_id'
  | 'tier_id'
  | 'status'
  | 'amount_cents'
  | 'currency'
  | 'billing_interval'
  | 'payment_method'
  | 'entry_credits_per_period'
  | 'trial_days'
  | 'metadata'
>;

/** One change of a subscription's history (`metadata.history`). */
export interface HistoryEvent {
  event: string;
  at: string;
  by?: string | null;
  reason?: string | null;
  [detail: string]: unknown;
}

/** A renewal run's claim on a due subscription: the payment it will charge, fixed before the charge. */
export interface ClaimedRenewal {
  id: string;
  site_id: string;
  user_id: string;
  status: SubscriptionStatus;
  amount_cents: number;
  currency: string;
  billing_interval: 'month' | 'year';
  tier_name: string;
  gatewayone_registration_id: string | null;
  pending_payment_id: string;
  current_period_end: Date | null;
  past_due_since: Date | null;
  failed_charges: number;
}

const SELECT_ROW = `SELECT s.*, t.name AS tier_name FROM subscriptions s JOIN subscription_tiers t ON t.id = s.tier_id`;

/** Appends `$n::jsonb` (an event) to `metadata.history`. */
const appendHistory = (param: string): string =>
  `jsonb_set(s.metadata, '{history}', COALESCE(s.metadata->'history', '[]'::jsonb) || jsonb_build_array(${param}::jsonb))`;

/**
 * Every query of memberships, in the ambient transaction when there is one. The renewal run's are
 * set-based: one statement claims a batch, one renews the paid ones, one marks the declined ones.
 */
@Injectable()
export class SubscriptionsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  async insert(row: NewSubscription): Promise<Subscription> {
    const repo = this.tx.repo(Subscription);
    return repo.save(repo.create(row));
  }

  async findById(id: string): Promise<SubscriptionRow | null> {
    const rows = await this.tx.manager.query<SubscriptionRow[]>(`${SELECT_ROW} WHERE s.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** The row locked for a change decided from its state (cancel, upgrade, pause, resume). */
  async lock(id: string): Promise<SubscriptionRow | null> {
    const rows = await this.tx.manager.query<SubscriptionRow[]>(
      `${SELECT_ROW} WHERE s.id = $1 FOR UPDATE OF s`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The user's memberships that are not over, locked (account deletion ends them all). */
  lockLiveOf(userId: string): Promise<SubscriptionRow[]> {
    return this.tx.manager.query<SubscriptionRow[]>(
      `${SELECT_ROW} WHERE s.user_id = $1
         AND s.status NOT IN ('cancelled', 'expired', 'incomplete_expired')
       ORDER BY s.created_at FOR UPDATE OF s`,
      [userId],
    );
  }

  async ofIds(ids: string[]): Promise<SubscriptionRow[]> {
    if (!ids.length) return [];
    return this.tx.manager.query<SubscriptionRow[]>(`${SELECT_ROW} WHERE s.id = ANY($1::uuid[])`, [ids]);
  }

  /** Newest first, keyset-paged on the last row's id. */
  async list(filter: {
    siteId?: string;
    userId?: string;
    status?: SubscriptionStatus;
    limit: number;
    cursor?: string;
  }): Promise<SubscriptionRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown): void => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.siteId) add('s.site_id = ?', filter.siteId);
    if (filter.userId) add('s.user_id = ?', filter.userId);
    if (filter.status) add('s.status = ?', filter.status);
    if (filter.cursor)
      add('(s.created_at, s.id) < (SELECT created_at, id FROM subscriptions WHERE id = ?)', filter.cursor);
    params.push(filter.limit);
    return this.tx.manager.query<SubscriptionRow[]>(
      `${SELECT_ROW} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY s.created_at DESC, s.id DESC LIMIT $${params.length}`,
      params,
    );
  }

  async update(id: string, changes: Partial<Subscription>, event?: HistoryEvent): Promise<void> {
    const columns = Object.keys(changes);
    const params: unknown[] = [id, ...Object.values(changes).map((v) => (isJson(v) ? JSON.stringify(v) : v))];
    const sets = columns.map((c, i) => `${c} = $${i + 2}`);
    if (event) {
      params.push(JSON.stringify(event));
      sets.push(`metadata = ${appendHistory(`$${params.length}`)}`);
    }
    sets.push('updated_at = now()');
    await this.tx.manager.query(`UPDATE subscriptions s SET ${sets.join(', ')} WHERE s.id = $1`, params);
  }

  /**
   * Takes `quantity` credits of the member's current period, or none: one conditional UPDATE on their
   * newest subscription that may spend credits, so parallel entries never spend more than it holds.
   */
  async takeCredits(userId: string, siteId: string, quantity: number): Promise<boolean> {
    const [rows] = await this.tx.manager.query<[unknown[], number]>(
      `UPDATE subscriptions s SET credits_used_this_period = credits_used_this_period + $3, updated_at = now()
        WHERE s.id = (SELECT id FROM subscriptions
                       WHERE user_id = $1 AND site_id = $2
                         AND status IN ('trialing', 'active', 'past_due', 'pending_cancellation')
                       ORDER BY created_at DESC LIMIT 1)
          AND s.status IN ('trialing', 'active', 'past_due', 'pending_cancellation')
          AND s.credits_used_this_period + $3 <= s.entry_credits_per_period
        RETURNING s.id`,
      [userId, siteId, quantity],
    );
    return rows.length === 1;
  }

  /**
   * Claims up to `limit` due subscriptions for this renewal run (the ones another run holds are skipped):
   * each gets the id of the payment that will charge its period, so it is charged once whoever runs.
   */
  async claimDue(now: Date, limit: number): Promise<ClaimedRenewal[]> {
    const [rows] = await this.tx.manager.query<[ClaimedRenewal[], number]>(
      `UPDATE subscriptions s SET pending_payment_id = gen_random_uuid(), updated_at = now()
         FROM subscription_tiers t,
              (SELECT id FROM subscriptions
                WHERE status IN ('active', 'trialing', 'past_due') AND auto_renew
                  AND next_billing_date <= $1 AND pending_payment_id IS NULL
                ORDER BY next_billing_date
                LIMIT $2
                FOR UPDATE SKIP LOCKED) due
        WHERE s.id = due.id AND t.id = s.tier_id
       RETURNING s.id, s.site_id, s.user_id, s.status, s.amount_cents, s.currency, s.billing_interval,
                 t.name AS tier_name, s.gatewayone_registration_id, s.pending_payment_id, s.current_period_end,
                 s.past_due_since, s.failed_charges`,
      [now, limit],
    );
    return rows;
  }

  /** Charges a run claimed whose answer was lost (still pending since before `olderThan`): to look up. */
  async lostCharges(olderThan: Date, limit: number): Promise<Array<ClaimedRenewal & { claimed_at: Date }>> {
    return this.tx.manager.query(
      `SELECT s.id, s.site_id, s.user_id, s.status, s.amount_cents, s.currency, s.billing_interval,
              t.name AS tier_name, s.gatewayone_registration_id, s.pending_payment_id, s.current_period_end,
              s.past_due_since, s.failed_charges, s.updated_at AS claimed_at
         FROM subscriptions s JOIN subscription_tiers t ON t.id = s.tier_id
        WHERE s.pending_payment_id IS NOT NULL AND s.updated_at < $1
        ORDER BY s.updated_at LIMIT $2`,
      [olderThan, limit],
    );
  }

  /** Gives back a run's claim on subscriptions it did not charge (the pending payment was never written). */
  async release(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.tx.manager.query(
      `UPDATE subscriptions SET pending_payment_id = NULL, updated_at = now() WHERE id = ANY($1::uuid[])`,
      [ids],
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
              gatewayone_registration_id = COALESCE(v.registration_id, s.gatewayone_registration_id),
              metadata = ${appendHistory(`jsonb_build_object('event', 'renewed', 'at', now(), 'payment_id', v.payment_id, 'period_end', v.period_end)`)},
              updated_at = now()
         FROM v
        WHERE s.id = v.id
          AND (s.pending_payment_id = v.payment_id OR s.status = 'past_due')
          AND s.status IN ('active', 'trialing', 'past_due')
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
         FROM (SELECT id, jsonb_object_agg(months::text, $3::timestamptz) AS awarded
                 FROM unnest($1::uuid[], $2::integer[]) AS x(id, months) GROUP BY id) m
        WHERE s.id = m.id`,
      [rows.map((r) => r.id), rows.map((r) => r.months), now],
    );
  }

  /**
   * A renewal charge declined (or refused by the member's own limits): `past_due`, its first failure
   * kept, the failures counted and the next attempt set (`retryAt`, null: the grace runs out).
   */
  async failRenewals(
    failures: Array<{
      subscriptionId: string;
      paymentId: string;
      retryAt: Date | null;
      firstFailure: Date;
      reason: string;
    }>,
  ): Promise<void> {
    if (!failures.length) return;
    await this.tx.manager.query(
      `WITH v AS (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::varchar[])
                   AS v(id, payment_id, retry_at, first_failure, reason))
       UPDATE subscriptions s
          SET status = 'past_due',
              past_due_since = COALESCE(s.past_due_since, v.first_failure),
              failed_charges = s.failed_charges + 1,
              next_billing_date = COALESCE(v.retry_at, s.next_billing_date),
              auto_renew = v.retry_at IS NOT NULL AND s.auto_renew,
              pending_payment_id = NULL,
              metadata = ${appendHistory(`jsonb_build_object('event', 'charge_failed', 'at', now(), 'payment_id', v.payment_id, 'reason', v.reason, 'retry_at', v.retry_at)`)},
              updated_at = now()
         FROM v
        WHERE s.id = v.id AND s.pending_payment_id = v.payment_id`,
      [
        failures.map((f) => f.subscriptionId),
        failures.map((f) => f.paymentId),
        failures.map((f) => f.retryAt),
        failures.map((f) => f.firstFailure),
        failures.map((f) => f.reason),
      ],
    );
  }

  /**
   * Moves every subscription whose time has come, set-based (the `expiries` job); answers what moved,
   * with the status it moved to, for the activity log and e-mails.
   */
  async expire(
    now: Date,
  ): Promise<
    Array<{ id: string; user_id: string; site_id: string; status: SubscriptionStatus; tier_name: string }>
  > {
    const [rows] = await this.tx.manager.query<
      [
        Array<{
          id: string;
          user_id: string;
          site_id: string;
          status: SubscriptionStatus;
          tier_name: string;
        }>,
        number,
      ]
    >(
      `UPDATE subscriptions s
          SET status = CASE
                WHEN s.status = 'incomplete' THEN 'incomplete_expired'
                WHEN s.status = 'pending_cancellation' THEN 'cancelled'
                WHEN s.status = 'past_due' THEN 'expired'
                ELSE 'active' END,
              cancelled_at = CASE WHEN s.status = 'pending_cancellation' THEN $1::timestamptz ELSE s.cancelled_at END,
              auto_renew = CASE WHEN s.status IN ('paused') THEN s.auto_renew ELSE false END,
              current_period_end = CASE WHEN s.status = 'paused'
                THEN s.current_period_end + ($1::timestamptz - COALESCE(s.paused_at, $1::timestamptz)) ELSE s.current_period_end END,
              next_billing_date = CASE WHEN s.status = 'paused'
                THEN s.next_billing_date + ($1::timestamptz - COALESCE(s.paused_at, $1::timestamptz)) ELSE s.next_billing_date END,
              paused_until = CASE WHEN s.status = 'paused' THEN NULL ELSE s.paused_until END,
              paused_at = CASE WHEN s.status = 'paused' THEN NULL ELSE s.paused_at END,
              metadata = ${appendHistory(`jsonb_build_object('event', CASE
                WHEN s.status = 'incomplete' THEN 'incomplete_expired'
                WHEN s.status = 'pending_cancellation' THEN 'cancelled'
                WHEN s.status = 'past_due' THEN 'expired'
                ELSE 'resumed' END, 'at', $1::timestamptz, 'by', 'schedule')`)},
              updated_at = now()
         FROM subscription_tiers t
        WHERE t.id = s.tier_id AND s.pending_payment_id IS NULL AND (
              (s.status = 'incomplete' AND s.created_at <= $1::timestamptz - interval '24 hours')
           OR (s.status = 'pending_cancellation' AND s.current_period_end <= $1::timestamptz)
           OR (s.status = 'past_due' AND s.past_due_since <= $1::timestamptz - interval '7 days')
           OR (s.status = 'paused' AND s.paused_until <= $1::timestamptz))
       RETURNING s.id, s.user_id, s.site_id, s.status, t.name AS tier_name`,
      [now],
    );
    return rows;
  }

  /**
   * Claims subscriptions renewing within `horizon` that have not been reminded of this renewal, until
   * the transaction ends: another run (another instance) skips them rather than reminding them too.
   */
  async toRemind(now: Date, horizon: Date, limit: number): Promise<SubscriptionRow[]> {
    return this.tx.manager.query<SubscriptionRow[]>(
      `${SELECT_ROW}
        WHERE s.status IN ('active', 'trialing') AND s.auto_renew
          AND s.next_billing_date > $1 AND s.next_billing_date <= $2
          AND s.reminded_for IS DISTINCT FROM s.next_billing_date
        ORDER BY s.next_billing_date LIMIT $3
        FOR UPDATE OF s SKIP LOCKED`,
      [now, horizon, limit],
    );
  }

  /** Marks them reminded of their next renewal; answers those not marked already (each reminded once). */
  async markReminded(ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.tx.manager.query<Array<{ id: string }>>(
      `WITH marked AS (
         UPDATE subscriptions SET reminded_for = next_billing_date, updated_at = now()
          WHERE id = ANY($1::uuid[]) AND reminded_for IS DISTINCT FROM next_billing_date
          RETURNING id)
       SELECT id FROM marked`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** The member's streak on a site: its current membership's, else its latest one's (none: null). */
  async loyaltyOf(
    userId: string,
    siteId: string,
  ): Promise<{
    streakMonths: number;
    lifetimeMonths: number;
    milestonesAwarded: Record<string, unknown>;
  } | null> {
    const rows = await this.tx.manager.query<
      Array<{ streak_months: number; lifetime_months: number; milestones_awarded: Record<string, unknown> }>
    >(
      `SELECT streak_months, lifetime_months, milestones_awarded FROM subscriptions
        WHERE user_id = $1 AND site_id = $2
        ORDER BY status IN ('trialing', 'active', 'past_due', 'paused', 'pending_cancellation') DESC, created_at DESC
        LIMIT 1`,
      [userId, siteId],
    );
    const r = rows.at(0);
    return r
      ? {
          streakMonths: r.streak_months,
          lifetimeMonths: r.lifetime_months,
          milestonesAwarded: r.milestones_awarded,
        }
      : null;
  }
}

function isJson(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !(value instanceof Date);
}
