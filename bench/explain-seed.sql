-- bench:explain's data: ~1M rows in each big table a list endpoint reads, set-based. Placeholders:
-- :site (the site), :member (the member whose own lists are read: every 100th row is theirs), :n (rows).
CREATE TEMP TABLE bu AS SELECT row_number() OVER () AS n, id FROM (SELECT id FROM users WHERE site_id = :site ORDER BY id) u;
CREATE TEMP TABLE br AS SELECT row_number() OVER () AS n, id FROM (SELECT id FROM raffles WHERE site_id = :site ORDER BY id) r;

INSERT INTO payment_transactions (site_id, user_id, gateway, checkout_id, currency, amount_cents, status, purpose,
                                  raffle_id, order_details, created_at, updated_at)
SELECT :site, CASE WHEN g % 100 = 0 THEN :member::uuid ELSE bu.id END, 'gatewayone', 'bench-' || g, 'GBP', 250,
       CASE WHEN g % 1000 = 0 THEN 'review' WHEN g % 10 = 7 THEN 'failed' WHEN g % 10 = 8 THEN 'pending'
            WHEN g % 50 = 9 THEN 'refunded' ELSE 'succeeded' END,
       'raffle', br.id, '{}', now() - g * interval '1 second', now() - g * interval '1 second'
  FROM generate_series(1, :n) g
  JOIN bu ON bu.n = 1 + g % (SELECT count(*) FROM bu)
  JOIN br ON br.n = 1 + g % (SELECT count(*) FROM br);

INSERT INTO raffle_entries (raffle_id, user_id, site_id, method, entries_count, ticket_from, ticket_to, created_at)
SELECT br.id, CASE WHEN g % 100 = 0 THEN :member::uuid ELSE bu.id END, :site, 'paid', 1, g, g,
       now() - g * interval '1 second'
  FROM generate_series(1, :n) g
  JOIN bu ON bu.n = 1 + g % (SELECT count(*) FROM bu)
  JOIN br ON br.n = 1 + g % (SELECT count(*) FROM br);

INSERT INTO point_transactions (site_id, user_id, reason, transaction_type, amount, created_at)
SELECT :site, CASE WHEN g % 100 = 0 THEN :member::uuid ELSE bu.id END, 'Bench points', 'earn', 10,
       now() - g * interval '1 second'
  FROM generate_series(1, :n) g
  JOIN bu ON bu.n = 1 + g % (SELECT count(*) FROM bu);

INSERT INTO activity_logs (user_id, site_id, activity_type, description, created_at)
SELECT bu.id, :site, 'login', 'Bench login', now() - g * interval '1 second'
  FROM generate_series(1, :n) g
  JOIN bu ON bu.n = 1 + g % (SELECT count(*) FROM bu);

INSERT INTO discount_brands (site_id, name, slug, published_on)
SELECT :site, 'Brand ' || g, 'brand-' || g, now() FROM generate_series(1, 200) g;
INSERT INTO tags (site_id, name, slug) SELECT :site, 'Tag ' || g, 'tag-' || g FROM generate_series(1, 50) g;
CREATE TEMP TABLE bb AS SELECT row_number() OVER () AS n, id FROM discount_brands WHERE site_id = :site;
INSERT INTO discount_codes (site_id, discount_brand_id, title, code, points_required, featured, created_at, updated_at)
SELECT :site, bb.id, 'Offer ' || g, 'CODE' || g, 10, g % 50 = 0, now() - g * interval '1 second', now()
  FROM generate_series(1, :n / 10) g
  JOIN bb ON bb.n = 1 + g % 200;
INSERT INTO discount_code_tags (discount_code_id, tag_id)
SELECT c.id, t.id FROM (SELECT id, row_number() OVER () AS n FROM discount_codes WHERE site_id = :site) c
  JOIN (SELECT id, row_number() OVER () AS n FROM tags WHERE site_id = :site) t ON t.n = 1 + c.n % 50;
CREATE TEMP TABLE bc AS SELECT row_number() OVER () AS n, id FROM discount_codes WHERE site_id = :site;
INSERT INTO discount_claims (site_id, discount_code_id, user_id, code, points_spent, created_at)
SELECT :site, bc.id, bu.id, 'CODE', 10, now() - g * interval '1 second'
  FROM generate_series(1, :n) g
  JOIN bu ON bu.n = 1 + g % (SELECT count(*) FROM bu)
  JOIN bc ON bc.n = 1 + g % (SELECT count(*) FROM bc);

INSERT INTO subscription_tiers (site_id, name, name_normalized, amount_cents, currency)
VALUES (:site, 'Bench tier', 'bench tier', 999, 'GBP');
INSERT INTO subscriptions (site_id, user_id, tier_id, status, amount_cents, currency, billing_interval,
                           current_period_end, next_billing_date, created_at, updated_at)
SELECT :site, CASE WHEN g % 1000 = 0 THEN :member::uuid ELSE bu.id END,
       (SELECT id FROM subscription_tiers WHERE site_id = :site LIMIT 1),
       CASE WHEN g % 10 < 6 THEN 'active' WHEN g % 10 < 9 THEN 'cancelled' ELSE 'past_due' END,
       999, 'GBP', 'month', now() + interval '10 days', now() + (g % 30) * interval '1 day',
       now() - g * interval '1 second', now()
  FROM generate_series(1, :n) g
  JOIN bu ON bu.n = 1 + g % (SELECT count(*) FROM bu);

INSERT INTO inbound_events (provider, event_key, event_type, site_id, payload, status, created_at, updated_at)
SELECT CASE WHEN g % 3 = 0 THEN 'gatewaytwo' ELSE 'gatewayone' END, 'bench-' || g, 'PAYMENT', :site, '{}',
       CASE WHEN g % 500 = 0 THEN 'failed' ELSE 'processed' END, now() - g * interval '1 second', now()
  FROM generate_series(1, :n) g;

INSERT INTO merch_products (site_id, name, sku, amount_cents, currency)
SELECT :site, 'Product ' || g, 'SKU' || g, 1500, 'GBP' FROM generate_series(1, 1000) g;
INSERT INTO merch_orders (site_id, user_id, callback_token, callback_url, idempotency_key, status_stage, amount_cents,
                          currency, shipping_method, recipient_name, address_line1, town_or_city, postal_or_zip_code,
                          country_code, created_at, updated_at)
SELECT :site, bu.id, 'cb-' || g, 'https://example.com/cb', gen_random_uuid(),
       CASE WHEN g % 100 = 0 THEN 'awaiting_payment' WHEN g % 10 = 1 THEN 'in_production' ELSE 'shipped' END,
       1500, 'GBP', 'standard', 'Bench Buyer', '1 High St', 'Town', 'AB1 2CD', 'GB',
       now() - g * interval '1 second', now()
  FROM generate_series(1, :n) g
  JOIN bu ON bu.n = 1 + g % (SELECT count(*) FROM bu);
