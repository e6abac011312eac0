-- The ceiling for bench/purchase.ts: the statements one confirmation of endpoint 3 sends (traced from the
-- app with BENCH_TRACE=1), in the same order, as bare SQL for pgbench. Each transaction confirms the next
-- pending payment of bench_queue (made by bench/purchase.ts): a different buyer, ONE raffle, its counter
-- row (the contended one) updated last. Run: pgbench -n -f bench/purchase-transaction.sql -c 10 -j 2 -T 10

-- The confirmation's look-up of the order, outside the transaction (the app then asks the gateway).
SELECT p.id AS pid, p.user_id AS uid, p.site_id AS site, p.raffle_id AS raffle
  FROM bench_queue q JOIN payment_transactions p ON p.id = q.payment_id
 WHERE q.n = (SELECT nextval('bench_seq')) \gset
BEGIN;
SELECT * FROM payment_transactions WHERE id = ':pid' FOR UPDATE;
UPDATE payment_transactions
   SET status = 'succeeded', gateway_transaction_id = 'g1-' || ':pid',
       gateway_response = '{"id":"8ac7a4a1","paymentType":"DB","amount":"2.50","currency":"GBP","result":{"code":"000.100.110","description":"Request successfully processed"}}',
       metadata = metadata || '{"client_claims":[{"status":null,"result_code":null,"at":"2026-01-01T00:00:00Z"}]}',
       updated_at = CURRENT_TIMESTAMP
 WHERE id = ':pid';
INSERT INTO activity_logs (user_id, site_id, activity_type, description, severity, ip_address, user_agent,
                           request_id, session_id, resource_type, resource_id, metadata)
VALUES (':uid', ':site', 'payment_status', 'Payment pending → succeeded (confirmation)', 'info', NULL, NULL,
        NULL, NULL, 'payment_transaction', ':pid',
        '{"from":"pending","to":"succeeded","source":"confirmation"}')
RETURNING id, created_at, severity, metadata;
UPDATE payment_transactions SET fulfilled_at = now(), updated_at = CURRENT_TIMESTAMP
 WHERE id = ':pid' AND fulfilled_at IS NULL;
SELECT * FROM raffles WHERE id = ':raffle' LIMIT 1;
INSERT INTO pgboss.job (id, name, data, priority, start_after, singleton_key, singleton_on, dead_letter,
                        expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
SELECT gen_random_uuid(), j.name, j.data, 0, now(), NULL, NULL, q.dead_letter,
       COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
       now() + COALESCE((q.retention_minutes * 60)::text, '14 days')::interval,
       COALESCE(q.retry_limit, 2), COALESCE(q.retry_delay, 0), COALESCE(q.retry_backoff, false), q.policy
  FROM (SELECT 'payments.notify'::text AS name,
               jsonb_build_object('payment_transaction_id', ':pid') AS data) j
  JOIN pgboss.queue q ON j.name = q.name
ON CONFLICT DO NOTHING RETURNING id;
SAVEPOINT fulfil_payment;
SELECT * FROM site_configs WHERE site_id = ':site' LIMIT 1;
INSERT INTO point_transactions (site_id, user_id, payment_transaction_id, reason, transaction_type, created_by,
                                amount, ip_address, user_agent, metadata)
VALUES (':site', ':uid', ':pid', 'Points for a raffle purchase', 'earn', NULL, 2, NULL, NULL, '{}')
ON CONFLICT (payment_transaction_id) WHERE transaction_type = 'earn' AND payment_transaction_id IS NOT NULL
DO NOTHING RETURNING *;
INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned) VALUES (':uid', ':site', 2, 2)
ON CONFLICT (user_id) DO UPDATE
   SET current_points = rewards_balances.current_points + EXCLUDED.current_points,
       lifetime_earned = rewards_balances.lifetime_earned + EXCLUDED.lifetime_earned, updated_at = now()
RETURNING current_points;
SAVEPOINT enter_raffle;
INSERT INTO raffle_user_entries (raffle_id, user_id, entries_count) VALUES (':raffle', ':uid', 1)
ON CONFLICT (raffle_id, user_id) DO UPDATE
   SET entries_count = raffle_user_entries.entries_count + EXCLUDED.entries_count
RETURNING entries_count;
-- The hot row, last.
UPDATE raffles
   SET current_entries = current_entries + 1, entries_purchased = entries_purchased + 1,
       closed = (current_entries + 1 >= total_entries_available),
       closed_at = CASE WHEN current_entries + 1 >= total_entries_available THEN now() ELSE closed_at END,
       updated_at = now()
 WHERE id = ':raffle' AND active AND NOT draft AND NOT archived AND NOT closed AND NOT is_drawn
   AND now() >= start_date AND now() < end_date AND current_entries + 1 <= total_entries_available
RETURNING current_entries AS top \gset
RELEASE SAVEPOINT enter_raffle;
INSERT INTO raffle_entries (raffle_id, user_id, site_id, method, entries_count, ticket_from, ticket_to,
                            points_spent, payment_transaction_id, created_by, note, ip_address, user_agent)
VALUES (':raffle', ':uid', ':site', 'paid', 1, :top, :top, 0, ':pid', NULL, NULL, NULL, NULL)
RETURNING id, created_at, points_spent;
UPDATE payment_transactions SET fulfilment = 'entered', updated_at = CURRENT_TIMESTAMP WHERE id = ':pid';
SELECT * FROM payment_transactions WHERE id = ':pid' LIMIT 1;
COMMIT;
