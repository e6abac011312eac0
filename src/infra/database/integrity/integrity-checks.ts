/**
 * The money-integrity checks (`npm run check:integrity`, run after fault tests and benchmarks): each is
 * one query answering the rows that break a promise the service makes about money, points or tickets —
 * none when all is well. Read-only; run on a live database they see one snapshot per check.
 */
export interface IntegrityCheck {
  name: string;
  /** The promise, in words. */
  promise: string;
  /** The rows that break it, each with the `site_id` it belongs to. */
  sql: string;
}

/** Violations reported per check at most (the count is exact). */
export const SAMPLE = 5;

export const INTEGRITY_CHECKS: IntegrityCheck[] = [
  {
    name: 'points_balances',
    promise: 'every balance equals the sum of its ledger (and no ledger without a balance row)',
    sql: `
      WITH ledger AS (SELECT user_id, SUM(amount)::bigint AS total FROM point_transactions GROUP BY user_id)
      SELECT u.site_id, COALESCE(b.user_id, l.user_id) AS user_id, b.current_points, l.total AS ledger
        FROM rewards_balances b FULL JOIN ledger l ON l.user_id = b.user_id
        JOIN users u ON u.id = COALESCE(b.user_id, l.user_id)
       WHERE COALESCE(b.current_points, 0) <> COALESCE(l.total, 0)`,
  },
  {
    name: 'raffle_counters',
    promise: "every raffle's counters equal its entries' tickets (all, and those paid for)",
    sql: `
      SELECT r.site_id, r.id AS raffle_id, r.current_entries, r.entries_purchased,
             COALESCE(e.tickets, 0) AS entered, COALESCE(e.paid, 0) AS paid
        FROM raffles r
        LEFT JOIN (SELECT raffle_id, SUM(entries_count)::bigint AS tickets,
                          SUM(entries_count) FILTER (WHERE method = 'paid')::bigint AS paid
                     FROM raffle_entries GROUP BY raffle_id) e ON e.raffle_id = r.id
       WHERE r.current_entries <> COALESCE(e.tickets, 0) OR r.entries_purchased <> COALESCE(e.paid, 0)
          OR r.current_entries > r.total_entries_available`,
  },
  {
    name: 'ticket_ranges',
    promise: "every raffle's tickets are numbered 1.. without a gap or a ticket held twice",
    sql: `
      SELECT site_id, raffle_id, id AS entry_id, ticket_from, ticket_to, previous_to
        FROM (SELECT site_id, raffle_id, id, ticket_from, ticket_to, entries_count,
                     lag(ticket_to) OVER (PARTITION BY raffle_id ORDER BY ticket_from, id) AS previous_to
                FROM raffle_entries) e
       WHERE ticket_from <> COALESCE(previous_to, 0) + 1 OR ticket_to - ticket_from + 1 <> entries_count`,
  },
  {
    name: 'user_caps',
    promise:
      'what a user holds in a raffle (the row max_entries is checked against) equals their standing entries',
    sql: `
      WITH held AS (SELECT raffle_id, user_id, SUM(entries_count) FILTER (WHERE voided_at IS NULL)::bigint AS tickets
                      FROM raffle_entries GROUP BY raffle_id, user_id)
      SELECT r.site_id, COALESCE(u.raffle_id, h.raffle_id) AS raffle_id, COALESCE(u.user_id, h.user_id) AS user_id,
             u.entries_count AS counted, h.tickets AS entered
        FROM raffle_user_entries u FULL JOIN held h ON h.raffle_id = u.raffle_id AND h.user_id = u.user_id
        JOIN raffles r ON r.id = COALESCE(u.raffle_id, h.raffle_id)
       WHERE COALESCE(u.entries_count, 0) <> COALESCE(h.tickets, 0)`,
  },
  {
    name: 'fulfilled_once',
    promise: 'a payment is fulfilled exactly when it succeeded, and only then',
    sql: `
      SELECT site_id, id AS payment_id, status, fulfilled_at, fulfilment FROM payment_transactions
       WHERE (fulfilled_at IS NULL) <> (status NOT IN ('succeeded', 'refunded', 'partially_refunded'))
          OR (fulfilled_at IS NULL) <> (fulfilment IS NULL)`,
  },
  {
    name: 'paid_entries',
    promise:
      'a raffle payment marked entered has exactly one entry of exactly its tickets; an unfillable one has none',
    sql: `
      SELECT p.site_id, p.id AS payment_id, p.fulfilment, (p.order_details->>'tickets')::integer AS tickets,
             count(e.id) AS entries, COALESCE(SUM(e.entries_count), 0) AS entered
        FROM payment_transactions p
        LEFT JOIN raffle_entries e ON e.payment_transaction_id = p.id
       WHERE p.fulfilment IN ('entered', 'refunded_unfillable') OR e.id IS NOT NULL
       GROUP BY p.site_id, p.id
      HAVING (p.fulfilment = 'entered'
              AND (count(e.id) <> 1 OR SUM(e.entries_count) <> (p.order_details->>'tickets')::integer))
          OR (p.fulfilment IS DISTINCT FROM 'entered' AND count(e.id) > 0)`,
  },
  {
    name: 'unfillable_earned_nothing',
    promise: 'a paid order that could not be entered earned no points',
    sql: `
      SELECT p.site_id, p.id AS payment_id, t.amount FROM payment_transactions p
        JOIN point_transactions t ON t.payment_transaction_id = p.id AND t.transaction_type = 'earn'
       WHERE p.fulfilment = 'refunded_unfillable'`,
  },
  {
    name: 'refund_amounts',
    promise: 'refunds never pass what was paid, and a payment is refunded exactly when all of it went back',
    sql: `
      SELECT site_id, id AS payment_id, status, amount_cents, refunded_cents, refund_pending_cents
        FROM payment_transactions
       WHERE refunded_cents < 0 OR refund_pending_cents < 0
          OR refunded_cents + refund_pending_cents > amount_cents
          OR (status = 'refunded') <> (refunded_cents = amount_cents AND amount_cents > 0)
          OR (status = 'partially_refunded' AND NOT (refunded_cents > 0 AND refunded_cents < amount_cents))`,
  },
  {
    name: 'refunds_reversed_points',
    promise:
      'the points a refunded payment earned were taken back pro rata (what was spent forgiven, counted)',
    sql: `
      SELECT p.site_id, p.id AS payment_id, earn.amount AS earned, p.refunded_cents, p.amount_cents,
             COALESCE(rev.due, 0) AS reversed_due,
             (earn.amount * p.refunded_cents / p.amount_cents) AS due
        FROM payment_transactions p
        JOIN point_transactions earn ON earn.payment_transaction_id = p.id AND earn.transaction_type = 'earn'
        LEFT JOIN (SELECT payment_transaction_id, SUM((metadata->>'due')::integer)::bigint AS due
                     FROM point_transactions WHERE transaction_type = 'reversal'
                    GROUP BY payment_transaction_id) rev ON rev.payment_transaction_id = p.id
       WHERE p.amount_cents > 0
         AND COALESCE(rev.due, 0) <> (earn.amount::bigint * p.refunded_cents / p.amount_cents)`,
  },
  {
    name: 'earn_once',
    promise: 'a payment earns points at most once',
    sql: `
      SELECT site_id, payment_transaction_id AS payment_id, count(*) AS earns FROM point_transactions
       WHERE transaction_type = 'earn' AND payment_transaction_id IS NOT NULL
       GROUP BY site_id, payment_transaction_id HAVING count(*) > 1`,
  },
  {
    name: 'bonus_credits_won',
    promise:
      'a user holds no more bonus entry credits than its claimed spins won (and at most one spin reward)',
    sql: `
      WITH won AS (SELECT user_id, SUM(credits)::bigint AS credits,
                          count(*) FILTER (WHERE credits > 0) AS rewards
                     FROM spin_claims WHERE user_id IS NOT NULL GROUP BY user_id)
      SELECT b.site_id, b.user_id, b.credits AS held, COALESCE(w.credits, 0) AS won, COALESCE(w.rewards, 0) AS rewards
        FROM bonus_credits b LEFT JOIN won w ON w.user_id = b.user_id
       WHERE b.credits > COALESCE(w.credits, 0) OR COALESCE(w.rewards, 0) > 1`,
  },
  {
    name: 'prizes_won_fairly',
    promise:
      'every winner holds the winning ticket in its entry of that raffle, and an instant prize is won once, by the entry covering its ticket',
    sql: `
      SELECT w.site_id, w.id AS winner_id, w.raffle_id, w.giveaway, w.ticket
        FROM raffle_winners w
        LEFT JOIN raffle_entries e ON e.id = w.entry_id
        LEFT JOIN raffle_instant_tickets t
               ON w.giveaway = 'instant' AND t.raffle_id = w.raffle_id AND t.ticket = w.ticket
       WHERE e.id IS NULL OR e.raffle_id <> w.raffle_id OR e.user_id <> w.user_id
          OR w.ticket NOT BETWEEN e.ticket_from AND e.ticket_to
          OR (w.giveaway = 'instant' AND (t.ticket IS NULL OR t.entry_id IS DISTINCT FROM w.entry_id))`,
  },
];
