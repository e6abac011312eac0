import { Injectable } from '@nestjs/common';
import { keepPlan } from '#app/infra/database/kept-plans.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SATURATING } from './points.statements.js';
import type { Referral, ReferralStatus } from './entities/referral.entity.js';

/**
 * The referee's pending referral completed by a payment, and the referrer's purchase bonus: sent with every
 * sale, mostly to find no pending referral, so its plan is kept (`keepPlan`) rather than made each time. The
 * referrer's account is held (`FOR KEY SHARE`, in the condition, so before the referral's row is locked): the
 * bonus references it, and an erasure of the referrer locks the account, then its referrals (as
 * `AccountsService.holdAccount`; taken the other way round, the two deadlocked).
 */
const COMPLETE_PENDING = keepPlan(`
  WITH ref AS (
    UPDATE referrals r SET status = 'completed', completed_payment_id = $2, purchase_points = $3, updated_at = now()
     WHERE r.referee_user_id = $1 AND r.status = 'pending'
       AND EXISTS (SELECT 1 FROM users u WHERE u.id = r.referrer_user_id FOR KEY SHARE)
     RETURNING r.id, r.site_id, r.referrer_user_id),
  ledger AS (
    INSERT INTO point_transactions (site_id, user_id, payment_transaction_id, reason, transaction_type, created_by, amount, metadata)
    SELECT ref.site_id, ref.referrer_user_id, NULL, 'Referral bonus: a friend you referred made a purchase', 'bonus', NULL, $3,
           jsonb_build_object('referral_id', ref.id, 'payment_id', $2::uuid)
      FROM ref WHERE $3 > 0)
  INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned,
                                referral_points_awarded, successful_referrals_count)
  SELECT ref.referrer_user_id, ref.site_id, $3, $3, $3, 1 FROM ref
  ON CONFLICT (user_id) DO UPDATE
     SET current_points = ${SATURATING('current_points')},
         lifetime_earned = ${SATURATING('lifetime_earned')},
         referral_points_awarded = ${SATURATING('referral_points_awarded')},
         successful_referrals_count = rewards_balances.successful_referrals_count + EXCLUDED.successful_referrals_count,
         updated_at = now()`);

/** The referrer a code names, with what the self-referral tests need. */
export interface Referrer {
  user_id: string;
  email: string;
  created_at: Date;
  registration_ip: string | null;
}

/** A referral a cancellation moved, with what it took back from the referrer. */
export interface CancelledReferral {
  id: string;
  referrer_user_id: string;
  was_status: ReferralStatus;
  due: number;
  taken: number;
}

/**
 * Every query of referrals, in the ambient transaction. Each change is one statement that moves the
 * referral, the ledger and the referrer's balance and counters together (DESIGN §6: counters kept in the
 * transactions that move points).
 */
@Injectable()
export class ReferralsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  async codeOf(userId: string): Promise<string | null> {
    const rows = await this.tx.manager.query<Array<{ referral_code: string | null }>>(
      `SELECT referral_code FROM rewards_balances WHERE user_id = $1`,
      [userId],
    );
    return rows[0]?.referral_code ?? null;
  }

  /**
   * Gives the user `code` unless it has one already: answers the user's code, or null when `code` is
   * taken on the site (the caller draws another).
   */
  async assignCode(userId: string, siteId: string, code: string): Promise<string | null> {
    try {
      const rows = await this.tx.manager.query<Array<{ referral_code: string }>>(
        `INSERT INTO rewards_balances (user_id, site_id, referral_code) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE
            SET referral_code = COALESCE(rewards_balances.referral_code, EXCLUDED.referral_code)
         RETURNING referral_code`,
        [userId, siteId, code],
      );
      return rows[0].referral_code;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return null;
      throw error;
    }
  }

  /** The referrer whose code this is on the site, with its e-mail, signup time and registration IP. */
  async referrerByCode(siteId: string, code: string): Promise<Referrer | null> {
    const rows = await this.tx.manager.query<Referrer[]>(
      `SELECT u.id AS user_id, u.email, u.created_at,
              (SELECT a.ip_address FROM activity_logs a
                WHERE a.user_id = u.id AND a.activity_type = 'register' ORDER BY a.created_at LIMIT 1) AS registration_ip
         FROM rewards_balances b JOIN users u ON u.id = b.user_id
        WHERE b.site_id = $1 AND b.referral_code = $2 AND u.deleted_at IS NULL`,
      [siteId, code],
    );
    return rows[0] ?? null;
  }

  /**
   * Records the signup: a pending referral with the referrer's signup bonus (ledger row, balance,
   * counters), or a cancelled one (self-referral) that awards nothing. One statement.
   */
  async recordSignup(r: {
    siteId: string;
    referrerId: string;
    refereeId: string;
    code: string;
    status: ReferralStatus;
    cancelReason: string | null;
    points: number;
  }): Promise<void> {
    await this.tx.manager.query(
      `WITH ref AS (
         INSERT INTO referrals (site_id, referrer_user_id, referee_user_id, referral_code, status, signup_points, cancel_reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id),
       ledger AS (
         INSERT INTO point_transactions (site_id, user_id, reason, transaction_type, created_by, amount, metadata)
         SELECT $1, $2, 'Referral bonus: a friend signed up with your code', 'bonus', NULL, $6,
                jsonb_build_object('referral_id', ref.id)
           FROM ref WHERE $6 > 0)
       INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned,
                                     referral_signup_points_awarded, referral_signups_count)
       SELECT $2, $1, $6, $6, $6, CASE WHEN $5 = 'pending' THEN 1 ELSE 0 END FROM ref
       ON CONFLICT (user_id) DO UPDATE
          SET current_points = ${SATURATING('current_points')},
              lifetime_earned = ${SATURATING('lifetime_earned')},
              referral_signup_points_awarded = ${SATURATING('referral_signup_points_awarded')},
              referral_signups_count = rewards_balances.referral_signups_count + EXCLUDED.referral_signups_count,
              updated_at = now()`,
      [r.siteId, r.referrerId, r.refereeId, r.code, r.status, r.points, r.cancelReason],
    );
  }

  /**
   * Completes the referee's pending referral with this payment and pays the referrer's purchase bonus,
   * at most once (only a pending referral moves). Sent with the fulfilment's next statement (`defer`).
   */
  completeLater(refereeId: string, paymentId: string, points: number): void {
    this.tx.defer(COMPLETE_PENDING, [refereeId, paymentId, points]);
  }

  /**
   * Cancels the referral completed by this payment (refunded) and takes back what it awarded: both
   * bonuses, as far as the referrer's balance holds them (the rest is forgiven, as with every
   * reversal; the ledger row says so). Answers whether one was cancelled.
   */
  async cancelForPayment(paymentId: string, reason: string): Promise<boolean> {
    const cancelled = await this.cancelAndReverse(
      `completed_payment_id = $1 AND status = 'completed'`,
      paymentId,
      reason,
      `Referral cancelled: the friend's purchase was refunded`,
      paymentId,
    );
    return cancelled.length > 0;
  }

  /**
   * The referee's account is deleted: its referral, pending or completed, is cancelled and what it
   * awarded the referrer is taken back exactly like a refund's (a pending one paid the signup bonus
   * only). Only a live referral moves, so a repeat, or a refund after it, takes nothing twice.
   */
  cancelForReferee(refereeId: string, reason: string): Promise<CancelledReferral[]> {
    return this.cancelAndReverse(
      `referee_user_id = $1 AND status IN ('pending', 'completed')`,
      refereeId,
      reason,
      'Referral cancelled: the friend you referred closed their account',
      null,
    );
  }

  /**
   * The referrer's account is deleted: its pending referrals are cancelled so that a later purchase
   * pays no one; completed ones stay as history. Nothing moves on the deleted referrer's balance.
   */
  async cancelPendingOfReferrer(referrerId: string, reason: string): Promise<number> {
    const rows = await this.tx.manager.query<Array<{ id: string }>>(
      `WITH moved AS (
         UPDATE referrals SET status = 'cancelled', cancel_reason = $2, updated_at = now()
          WHERE referrer_user_id = $1 AND status = 'pending' RETURNING id)
       SELECT id FROM moved`,
      [referrerId, reason],
    );
    return rows.length;
  }

  /**
   * The one reversal: cancels the live referrals `where` names (over `$1`), then takes back their
   * bonuses from each referrer, never below zero, moving the counters the award moved, and writes a
   * `reversal` ledger row when anything was taken (`due`/`taken` in its metadata). One statement.
   */
  private cancelAndReverse(
    where: string,
    key: string,
    reason: string,
    ledgerReason: string,
    paymentId: string | null,
  ): Promise<CancelledReferral[]> {
    return this.tx.manager.query<CancelledReferral[]>(
      `WITH old AS (
         SELECT id, status FROM referrals WHERE ${where} FOR UPDATE),
       ref AS (
         UPDATE referrals r SET status = 'cancelled', cancel_reason = $2, updated_at = now()
           FROM old WHERE r.id = old.id
          RETURNING r.id, r.site_id, r.referrer_user_id, r.signup_points, r.purchase_points,
                    old.status AS was_status),
       bal AS (
         SELECT b.user_id, LEAST(b.current_points, ref.signup_points + ref.purchase_points) AS take,
                ref.signup_points + ref.purchase_points AS due, ref.id, ref.site_id,
                ref.signup_points, ref.purchase_points, ref.was_status
           FROM ref JOIN rewards_balances b ON b.user_id = ref.referrer_user_id FOR UPDATE OF b),
       moved AS (
         UPDATE rewards_balances b
            SET current_points = b.current_points - bal.take,
                lifetime_earned = GREATEST(0, b.lifetime_earned - bal.due),
                referral_points_awarded = b.referral_points_awarded - bal.purchase_points,
                referral_signup_points_awarded = b.referral_signup_points_awarded - bal.signup_points,
                referral_signups_count = b.referral_signups_count - 1,
                successful_referrals_count = b.successful_referrals_count
                  - CASE WHEN bal.was_status = 'completed' THEN 1 ELSE 0 END,
                updated_at = now()
           FROM bal WHERE b.user_id = bal.user_id
         RETURNING b.user_id),
       ledger AS (
         INSERT INTO point_transactions (site_id, user_id, payment_transaction_id, reason, transaction_type, created_by, amount, metadata)
         SELECT bal.site_id, bal.user_id, NULL,
                $3 ||
                  CASE WHEN bal.take < bal.due THEN ' (' || bal.due || ' points due, ' || (bal.due - bal.take) || ' already spent; ' || bal.take || ' taken back)' ELSE '' END,
                'reversal', NULL, -bal.take,
                jsonb_strip_nulls(jsonb_build_object('referral_id', bal.id, 'payment_id', $4::uuid,
                                                     'due', bal.due, 'taken', bal.take, 'cause', $2::text))
           FROM bal WHERE bal.take > 0)
       SELECT ref.id, ref.referrer_user_id, ref.was_status, COALESCE(bal.due, 0) AS due, COALESCE(bal.take, 0) AS taken
         FROM ref LEFT JOIN bal ON bal.id = ref.id`,
      [key, reason, ledgerReason, paymentId],
    );
  }

  /** A page of the referrals a user made on a site, newest first; `cursor`: the previous page's last id. */
  listOf(referrerId: string, siteId: string, limit: number, cursor?: string): Promise<Referral[]> {
    return this.tx.manager.query<Referral[]>(
      `SELECT * FROM referrals r WHERE r.referrer_user_id = $1 AND r.site_id = $2
          AND ($4::uuid IS NULL OR (r.created_at, r.id) < (SELECT c.created_at, c.id FROM referrals c
                                                            WHERE c.id = $4 AND c.referrer_user_id = $1))
        ORDER BY r.created_at DESC, r.id DESC LIMIT $3`,
      [referrerId, siteId, limit, cursor ?? null],
    );
  }
}
