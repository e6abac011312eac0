import { keepPlan } from '#app/infra/database/kept-plans.js';
import type { PointTransaction } from './entities/point-transaction.entity.js';
import { MAX_BALANCE } from './rewards.rules.js';

/**
 * The statements that move points and balances together, shared by the points feature's services, which send
 * several of them in one message, and `PointsRepository`.
 */

export type NewPointTransaction = Pick<
  PointTransaction,
  | 'site_id'
  | 'user_id'
  | 'payment_transaction_id'
  | 'reason'
  | 'transaction_type'
  | 'created_by'
  | 'amount'
  | 'ip_address'
  | 'user_agent'
  | 'metadata'
>;

/** One ledger row (`entryParams`); alone, for a caller that moves the balance itself in the same transaction. */
export const INSERT_ENTRY = `INSERT INTO point_transactions
  (site_id, user_id, payment_transaction_id, reason, transaction_type, created_by, amount, ip_address, user_agent, metadata)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

/**
 * A discount claim's points and its count, on the balance row in one statement: the points taken only
 * if covered (no row: nothing covered), and the claim counted. A free claim (`$3` = 0) always goes
 * through (the row made if need be) and is not counted: claims count towards the claim bonus only when
 * they spend points, or a free code allowing several claims would mint points at every fifth.
 */
export const DEBIT_FOR_CLAIM = `
  WITH debited AS (
    UPDATE rewards_balances SET current_points = current_points - $3,
           discount_claims_count = discount_claims_count + 1, updated_at = now()
     WHERE user_id = $1 AND current_points >= $3 AND $3 > 0
     RETURNING current_points, discount_claims_count),
  counted AS (
    INSERT INTO rewards_balances (user_id, site_id) SELECT $1, $2 WHERE $3 = 0
    ON CONFLICT (user_id) DO UPDATE SET discount_claims_count = rewards_balances.discount_claims_count
    RETURNING current_points, discount_claims_count)
  SELECT * FROM debited UNION ALL SELECT * FROM counted`;

/**
 * A balance plus what was earned, stopping at the most a balance holds (`MAX_BALANCE`) rather than failing
 * the fulfilment that pays for it; the ledger keeps what was earned.
 */
export const SATURATING = (column: string): string =>
  `least(rewards_balances.${column}::bigint + EXCLUDED.${column}, ${MAX_BALANCE})::integer`;

/**
 * The tail of a statement that wrote ledger rows in the CTE `rows` (`user_id, site_id, amount`): each user's
 * balance credited with the sum of theirs, in one upsert.
 */
const CREDITED_PER_USER = (rows: string): string => `per_user AS (
    SELECT user_id, min(site_id) AS site_id, least(sum(amount), ${MAX_BALANCE})::integer AS amount
      FROM ${rows} GROUP BY user_id)
  INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned)
  SELECT user_id, site_id, amount, amount FROM per_user
  ON CONFLICT (user_id) DO UPDATE
     SET current_points = ${SATURATING('current_points')},
         lifetime_earned = ${SATURATING('lifetime_earned')},
         updated_at = now()`;

/** A payment's earn and the balance it moves, in one statement (see `earnOnceForPayment`). */
export const EARN_ONCE_FOR_PAYMENT = keepPlan(`
  WITH earned AS (
    ${INSERT_ENTRY}
    ON CONFLICT (payment_transaction_id) WHERE transaction_type = 'earn' AND payment_transaction_id IS NOT NULL
    DO NOTHING RETURNING user_id, site_id, amount)
  INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned)
  SELECT user_id, site_id, amount, amount FROM earned
  ON CONFLICT (user_id) DO UPDATE
     SET current_points = ${SATURATING('current_points')},
         lifetime_earned = ${SATURATING('lifetime_earned')},
         updated_at = now()
  RETURNING current_points`);

/**
 * Many payments' earns and the balances they move, in one statement: each ledger row goes in unless its
 * payment already earned, and balances are credited per user with the sum of what went in.
 */
export const EARN_ONCE_FOR_PAYMENTS = `
  WITH earned AS (
    INSERT INTO point_transactions
      (site_id, user_id, payment_transaction_id, reason, transaction_type, created_by, amount, metadata)
    SELECT v.site_id, v.user_id, v.payment_id, v.reason, 'earn', NULL, v.amount, '{}'
      FROM unnest($1::varchar[], $2::uuid[], $3::uuid[], $4::varchar[], $5::integer[])
           AS v(site_id, user_id, payment_id, reason, amount)
    ON CONFLICT (payment_transaction_id) WHERE transaction_type = 'earn' AND payment_transaction_id IS NOT NULL
    DO NOTHING RETURNING user_id, site_id, amount),
  ${CREDITED_PER_USER('earned')}`;

/** Bonuses for many users (milestones of a renewal run), and their balances, in one statement. */
export const BONUS_MANY = `
  WITH added AS (
    INSERT INTO point_transactions (site_id, user_id, reason, transaction_type, created_by, amount, metadata)
    SELECT v.site_id, v.user_id, v.reason, 'bonus', NULL, v.amount, v.details::jsonb
      FROM unnest($1::varchar[], $2::uuid[], $3::varchar[], $4::integer[], $5::text[])
           AS v(site_id, user_id, reason, amount, details)
    RETURNING user_id, site_id, amount),
  ${CREDITED_PER_USER('added')}`;

/** `INSERT_ENTRY`'s parameters for one ledger row. */
export function entryParams(e: NewPointTransaction): unknown[] {
  return [
    e.site_id,
    e.user_id,
    e.payment_transaction_id,
    e.reason,
    e.transaction_type,
    e.created_by,
    e.amount,
    e.ip_address,
    e.user_agent,
    JSON.stringify(e.metadata),
  ];
}
