import { Injectable } from '@nestjs/common';
import { isoUtc } from '#app/infra/database/sql-time.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { SubscriptionStatus } from './subscriptions.rules.js';
import { appendHistory } from './subscriptions.repository.js';

/** A membership the expiry run moved, with the status it moved to. */
export interface ExpiredMembership {
  id: string;
  user_id: string;
  site_id: string;
  status: SubscriptionStatus;
  /** The tier as members read it (its display name). */
  tier_title: string;
  /** A schedule an imported membership still has at the gateway, to delete once it has ended. */
  gatewayone_schedule_id: string | null;
}

/** The expiry run's one statement (`ExpiriesJob`), in the ambient transaction. */
@Injectable()
export class ExpiriesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * Moves every subscription whose time has come, set-based (the `expiries` job); answers what moved,
   * with the status it moved to, for the activity log and e-mails.
   */
  async expire(now: Date): Promise<ExpiredMembership[]> {
    const [rows] = await this.tx.manager.query<[ExpiredMembership[], number]>(
      `UPDATE subscriptions s
          SET status = CASE
                WHEN s.status = 'incomplete' THEN 'incomplete_expired'
                WHEN s.status = 'pending_cancellation' THEN 'cancelled'
                WHEN s.status = 'past_due' THEN 'expired'
                -- A resume restores the status paused from (a trial stays a trial); older pauses: active.
                WHEN s.paused_from = 'trialing' THEN 'trialing'
                ELSE 'active' END,
              cancelled_at = CASE WHEN s.status = 'pending_cancellation' THEN $1::timestamptz ELSE s.cancelled_at END,
              auto_renew = CASE WHEN s.status IN ('paused') THEN s.auto_renew ELSE false END,
              current_period_end = CASE WHEN s.status = 'paused'
                THEN s.current_period_end + ($1::timestamptz - COALESCE(s.paused_at, $1::timestamptz)) ELSE s.current_period_end END,
              -- An ended membership is never charged again: it has no next billing date.
              next_billing_date = CASE WHEN s.status = 'paused'
                THEN s.next_billing_date + ($1::timestamptz - COALESCE(s.paused_at, $1::timestamptz))
                WHEN s.status IN ('pending_cancellation', 'past_due') THEN NULL ELSE s.next_billing_date END,
              trial_end_date = CASE WHEN s.status = 'paused' AND s.paused_from = 'trialing'
                THEN s.trial_end_date + ($1::timestamptz - COALESCE(s.paused_at, $1::timestamptz)) ELSE s.trial_end_date END,
              paused_until = CASE WHEN s.status = 'paused' THEN NULL ELSE s.paused_until END,
              paused_from = CASE WHEN s.status = 'paused' THEN NULL ELSE s.paused_from END,
              paused_at = CASE WHEN s.status = 'paused' THEN NULL ELSE s.paused_at END,
              metadata = ${appendHistory(`jsonb_build_object('event', CASE
                WHEN s.status = 'incomplete' THEN 'incomplete_expired'
                WHEN s.status = 'pending_cancellation' THEN 'cancelled'
                WHEN s.status = 'past_due' THEN 'expired'
                ELSE 'resumed' END, 'at', ${isoUtc('$1::timestamptz')}, 'by', 'schedule')`)},
              updated_at = now()
        WHERE s.pending_payment_id IS NULL AND (
              (s.status = 'incomplete' AND s.created_at <= $1::timestamptz - interval '24 hours')
           OR (s.status = 'pending_cancellation' AND s.current_period_end <= $1::timestamptz)
           OR (s.status = 'past_due' AND s.past_due_since <= $1::timestamptz - interval '7 days')
           OR (s.status = 'paused' AND s.paused_until <= $1::timestamptz))
       RETURNING s.id, s.user_id, s.site_id, s.status, s.gatewayone_schedule_id,
                 (SELECT COALESCE(NULLIF(btrim(t.display_name), ''), t.name) FROM subscription_tiers t WHERE t.id = s.tier_id) AS tier_title`,
      [now],
    );
    return rows;
  }
}
