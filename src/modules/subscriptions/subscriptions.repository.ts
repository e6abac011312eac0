import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Subscription } from './entities/subscription.entity.js';
import { GRACE_DAYS, type SubscriptionStatus } from './subscriptions.rules.js';

/** A subscription as read for answers and decisions: its row and its tier's name. */
/** `tier_name` names the tier as the API does; `tier_title` as members read it (its display name). */
export type SubscriptionRow = Subscription & { tier_name: string; tier_title: string };

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

/**
 * A subscription with its tier's name, read by a subquery rather than a join: under READ COMMITTED a row locked
 * `FOR UPDATE` after waiting for another transaction is checked again as that one left it, and a join would then
 * meet the tier of the old version; after an upgrade (a new `tier_id`) the row no longer matched, and the lock
 * read nothing: a cancel racing an upgrade answered 404, a card payment for the period was taken and nothing
 * renewed. The subquery is evaluated again for the row as it now is.
 */
const SELECT_ROW = `SELECT s.*, (SELECT t.name FROM subscription_tiers t WHERE t.id = s.tier_id) AS tier_name,
                           (SELECT COALESCE(NULLIF(btrim(t.display_name), ''), t.name) FROM subscription_tiers t WHERE t.id = s.tier_id) AS tier_title
                      FROM subscriptions s`;

/** Appends `$n::jsonb` (an event) to `metadata.history`. */
export const appendHistory = (param: string): string =>
  `jsonb_set(s.metadata, '{history}', COALESCE(s.metadata->'history', '[]'::jsonb) || jsonb_build_array(${param}::jsonb))`;

/**
 * The queries of memberships as members and admins change them, in the ambient transaction when there
 * is one. The renewal run's own statements are `RenewalsRepository`'s.
 */
@Injectable()
export class SubscriptionsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  async insert(row: NewSubscription): Promise<Subscription> {
    const repo = this.tx.repo(Subscription);
    return repo.save(repo.create(row));
  }

  /**
   * Whether the member has had a membership on the site that started (any status but `incomplete` and
   * `incomplete_expired`), other than `exceptId`.
   */
  async hasStarted(siteId: string, userId: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.tx.manager.query<Array<{ started: boolean }>>(
      `SELECT EXISTS (SELECT 1 FROM subscriptions
                       WHERE user_id = $1 AND site_id = $2 AND id IS DISTINCT FROM $3::uuid
                         AND status NOT IN ('incomplete', 'incomplete_expired')) AS started`,
      [userId, siteId, exceptId ?? null],
    );
    return row.started;
  }

  /** Takes the member's turn to start a membership on the site, until the transaction ends. */
  async lockMemberStarts(siteId: string, userId: string): Promise<void> {
    await this.tx.lockUntilEnd(`subscription-start:${siteId}:${userId}`);
  }

  async findById(id: string): Promise<SubscriptionRow | null> {
    const rows = await this.tx.manager.query<SubscriptionRow[]>(`${SELECT_ROW} WHERE s.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Whose membership it is (never changes), or null when there is none. */
  async ownerOf(id: string): Promise<string | null> {
    const rows = await this.tx.manager.query<Array<{ user_id: string }>>(
      `SELECT user_id FROM subscriptions WHERE id = $1`,
      [id],
    );
    return rows.length ? rows[0].user_id : null;
  }

  /** The row locked for a change decided from its state (cancel, upgrade, pause, resume). */
  async lock(id: string): Promise<SubscriptionRow | null> {
    const rows = await this.tx.manager.query<SubscriptionRow[]>(`${SELECT_ROW} WHERE s.id = $1 FOR UPDATE`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  /**
   * The user's memberships that are not over, locked (account deletion ends them all). A start given up unpaid
   * (`incomplete_expired`) is one: its checkout can still be paid late, and that payment would start it.
   */
  lockLiveOf(userId: string): Promise<SubscriptionRow[]> {
    return this.tx.manager.query<SubscriptionRow[]>(
      `${SELECT_ROW} WHERE s.user_id = $1
         AND s.status NOT IN ('cancelled', 'expired')
       ORDER BY s.created_at FOR UPDATE`,
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
   * Takes `quantity` credits of the member's current period from one of their live subscriptions that
   * holds them all (the newest first), or none. One conditional UPDATE: the subquery picks and locks the
   * candidate, `FOR UPDATE` without SKIP LOCKED so that a spend in flight is waited for, not skipped (it
   * may roll back, or leave enough). When the spend ahead empties the candidate, PostgreSQL re-checks it
   * on its new version, drops it and locks the next one in order, so a member whose newest membership
   * just ran out still spends an older one's credits; the outer guard keeps every spend within its own.
   */
  async takeCredits(userId: string, siteId: string, quantity: number): Promise<boolean> {
    // `creditsOpen` in SQL: a status that grants credits, not past a cancellation's period end or the grace. Its
    // columns unqualified: the row the subquery picks, and in the outer check the row as updated (after the lock).
    const open = `status IN ('trialing', 'active', 'past_due', 'pending_cancellation')
          AND (status <> 'pending_cancellation' OR current_period_end IS NULL OR current_period_end > now())
          AND (status <> 'past_due' OR past_due_since IS NULL
               OR past_due_since > now() - make_interval(days => $4::integer))`;
    const [rows] = await this.tx.manager.query<[unknown[], number]>(
      `UPDATE subscriptions s SET credits_used_this_period = credits_used_this_period + $3, updated_at = now()
        WHERE s.id = (SELECT id FROM subscriptions
                       WHERE user_id = $1 AND site_id = $2 AND ${open}
                         AND credits_used_this_period + $3 <= entry_credits_per_period
                       ORDER BY created_at DESC, id DESC LIMIT 1
                       FOR UPDATE)
          AND ${open}
          AND s.credits_used_this_period + $3 <= s.entry_credits_per_period
        RETURNING s.id`,
      [userId, siteId, quantity, GRACE_DAYS],
    );
    return rows.length === 1;
  }

  /**
   * Claims subscriptions renewing within `horizon` that have not been reminded of this renewal, until
   * the transaction ends: another run (another instance) skips them rather than reminding them too. In id
   * order after `afterId` (the last of the previous page): a page of renewals not due a reminder yet is passed
   * over, not read again. (Not a keyset on `next_billing_date`: it holds microseconds, and a JavaScript `Date`
   * handed back as the cursor keeps milliseconds, so rows of one instant came back page after page.)
   */
  async toRemind(now: Date, horizon: Date, limit: number, afterId?: string): Promise<SubscriptionRow[]> {
    return this.tx.manager.query<SubscriptionRow[]>(
      `${SELECT_ROW}
        WHERE s.status IN ('active', 'trialing') AND s.auto_renew
          AND s.next_billing_date > $1 AND s.next_billing_date <= $2
          AND s.reminded_for IS DISTINCT FROM s.next_billing_date
          AND ($4::uuid IS NULL OR s.id > $4::uuid)
        ORDER BY s.id LIMIT $3
        FOR UPDATE SKIP LOCKED`,
      [now, horizon, limit, afterId ?? null],
    );
  }

  /**
   * Whether a membership still renews on `renewal` as a reminder announced it (`toRemind`'s conditions): not
   * cancelled, paused or ended since, renewing on, its date unmoved (to the millisecond the announced date was
   * read at: the column keeps microseconds).
   */
  async stillRenewsOn(id: string, renewal: Date): Promise<boolean> {
    const rows = await this.tx.manager.query<unknown[]>(
      `SELECT 1 FROM subscriptions
        WHERE id = $1 AND status IN ('active', 'trialing') AND auto_renew
          AND abs(extract(epoch FROM next_billing_date - $2::timestamptz)) < 0.001`,
      [id, renewal],
    );
    return rows.length > 0;
  }

  /** Whether the membership is still past due (its dunning e-mail still true: no payment has settled it since). */
  async stillPastDue(id: string): Promise<boolean> {
    const rows = await this.tx.manager.query<unknown[]>(
      `SELECT 1 FROM subscriptions WHERE id = $1 AND status = 'past_due'`,
      [id],
    );
    return rows.length > 0;
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
