-- The least SQL that claims a bulk discount code correctly (issue 12), run by pgbench as the limit
-- `bench:claims` holds the app against: the claim row, a distinct unclaimed code (SKIP LOCKED), the
-- points spent (conditional debit and its ledger row), the claim counted, and the code's use last.
-- Variables: :code (the bulk code's id), :site; members are bench_claim_members(n, id), n = 1..200.
\set m random(1, 200)
BEGIN;
SELECT id AS uid FROM bench_claim_members WHERE n = :m \gset
INSERT INTO discount_claims (site_id, discount_code_id, user_id, once_per_user, code, points_spent)
VALUES (':site', ':code', ':uid', NULL, NULL, 1) RETURNING id AS claim \gset
WITH picked AS (
  UPDATE discount_unique_codes SET claimed_by_user_id = ':uid', claimed_at = now()
   WHERE id = (SELECT id FROM discount_unique_codes WHERE discount_code_id = ':code' AND claimed_at IS NULL
                LIMIT 1 FOR UPDATE SKIP LOCKED)
   RETURNING id, code)
UPDATE discount_claims c SET unique_code_id = picked.id, code = picked.code FROM picked WHERE c.id = ':claim';
UPDATE rewards_balances SET current_points = current_points - 1, updated_at = now()
 WHERE user_id = ':uid' AND current_points >= 1;
INSERT INTO point_transactions (site_id, user_id, reason, transaction_type, created_by, amount, metadata)
VALUES (':site', ':uid', 'Claimed discount', 'spend', NULL, -1, '{}');
UPDATE rewards_balances SET discount_claims_count = discount_claims_count + 1 WHERE user_id = ':uid';
UPDATE discount_codes SET current_uses = current_uses + 1, updated_at = now()
 WHERE id = ':code' AND (max_uses IS NULL OR current_uses < max_uses);
COMMIT;
