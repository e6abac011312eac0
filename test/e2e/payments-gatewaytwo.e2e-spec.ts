import { randomUUID } from 'node:crypto';
import { signWebhook } from '#app/infra/providers/gatewaytwo/gatewaytwo.rules.js';
import {
  RECONCILE_AFTER_MS,
  ReconcilePaymentsJob,
} from '#app/modules/payments/jobs/reconcile-payments.job.js';
import { api } from '../support/api';
import { makeUser, uid } from '../support/factories';
import {
  buyerWithLimit,
  type PaymentsWorld,
  raffleOn,
  scheduledRunWatching,
  spentThisMonth,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

describe('paying at gatewaytwo (endpoint 4 and its webhook)', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  const createOrder = (token: string | undefined, body: Record<string, unknown>) =>
    api(w.t.app).as(token).post('/gatewaytwo/create-order', body);

  /** A £2.50 ticket order of `raffle` by `token`'s member, opened `ago` (a PostgreSQL interval) ago; its id. */
  const orderOpened = async (token: string, raffle: { item_id: string }, ago: string): Promise<string> => {
    const body = { item_id: raffle.item_id, site_id: w.site, amount: 2.5, currency: 'GBP', description: ago };
    const id = (await createOrder(token, body).expect(200)).body.order_id as string;
    await w.t.db.query(`UPDATE payment_transactions SET created_at = now() - $2::interval WHERE id = $1`, [
      id,
      ago,
    ]);
    return id;
  };

  const paymentRow = async (id: string) => {
    const [row] = await w.t.db.query(
      `SELECT status, amount_cents, currency, purpose, checkout_id, user_id, fulfilment
         FROM payment_transactions WHERE id = $1`,
      [id],
    );
    return row as Record<string, unknown>;
  };

  /** Posts a gatewaytwo webhook body we sign ourselves, to read the app's answer. */
  const postSigned = (body: Record<string, unknown>, at = Date.now()) => {
    const raw = JSON.stringify(body);
    const timestamp = String(at);
    return api(w.t.app)
      .post('/gatewaytwo/webhook', raw)
      .set('Revolut-Request-Timestamp', timestamp)
      .set(
        'Revolut-Signature',
        signWebhook({ rawBody: raw, timestamp, secret: w.fakes.config.gatewayTwo.webhookSecret }),
      );
  };

  it('prices a raffle order on the server and sends the gateway the amount in minor units', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      item_id: raffle.item_id,
      site_id: w.site,
      quantity: 3,
      amount: 7.5,
      currency: 'GBP',
      description: '3 tickets',
    }).expect(200);
    expect(res.body).toEqual({
      success: true,
      checkout_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/gatewaytwo\/pay\//),
      environment: 'live',
      error: null,
      error_code: null,
      order_id: expect.any(String),
      order_state: 'pending',
    });
    const row = await paymentRow(res.body.order_id);
    expect(row).toMatchObject({ status: 'pending', amount_cents: 750, currency: 'GBP', purpose: 'raffle' });
    const order = w.fakes.gatewayTwo.orderFor(res.body.order_id);
    expect(order).toMatchObject({
      amount: 750,
      currency: 'GBP',
      state: 'pending',
      customerEmail: buyer.email,
    });
    expect(row.checkout_id).toBe(order!.id);
  });

  it('refuses an amount that differs from the server’s price (422 AMOUNT_MISMATCH, order shape)', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      item_id: raffle.item_id,
      site_id: w.site,
      quantity: 2,
      amount: 4.99,
      currency: 'GBP',
      description: '2 tickets',
    }).expect(422);
    expect(res.body).toMatchObject({
      success: false,
      error_code: 'AMOUNT_MISMATCH',
      error: expect.any(String),
      message: expect.any(String),
    });
    expect(
      await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]),
    ).toHaveLength(0);
  });

  it('refuses a raffle priced 0 (422 AMOUNT_TOO_SMALL, order shape), leaving no payment no webhook can settle', async () => {
    const raffle = await raffleOn(w, { price_display: 0 });
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      item_id: raffle.item_id,
      site_id: w.site,
      quantity: 1,
      amount: 0,
      currency: 'GBP',
      description: 'A free ticket',
    }).expect(422);
    expect(res.body).toMatchObject({ success: false, error_code: 'AMOUNT_TOO_SMALL' });
    expect(
      await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]),
    ).toHaveLength(0);
  });

  it('takes a generic payment of the stated amount when no item is named', async () => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      site_id: w.site,
      amount: 12.1,
      currency: 'EUR',
      description: 'Donation',
    }).expect(200);
    expect(res.body.success).toBe(true);
    const row = await paymentRow(res.body.order_id);
    expect(row).toMatchObject({ amount_cents: 1210, currency: 'EUR', purpose: 'generic', status: 'pending' });
    expect(w.fakes.gatewayTwo.orderFor(res.body.order_id)).toMatchObject({
      amount: 1210,
      currency: 'EUR',
      description: 'Donation',
    });
  });

  it.each([
    ['amount', { currency: 'GBP', description: 'x' }],
    ['currency', { amount: 5, description: 'x' }],
    ['description', { amount: 5, currency: 'GBP' }],
  ])('answers 400 in the order shape when %s is missing', async (field, body) => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, { site_id: w.site, ...body }).expect(400);
    expect(res.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
    expect(res.body.message).toContain(field);
  });

  it('answers 400 for wrong types, unknown fields and a negative amount', async () => {
    const buyer = await makeUser(w.t, w.site);
    const base = { site_id: w.site, amount: 5, currency: 'GBP', description: 'x' };
    for (const body of [
      { ...base, amount: 'five' },
      { ...base, price: 5 },
      { ...base, amount: -1 },
      { ...base, quantity: 0 },
    ]) {
      const res = await createOrder(buyer.token, body).expect(400);
      expect(res.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
    }
  });

  it('completes through the signed webhook: the payment succeeds and the tickets are entered', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      item_id: raffle.item_id,
      site_id: w.site,
      quantity: 2,
      amount: 5,
      currency: 'GBP',
      description: '2 tickets',
    }).expect(200);
    const order = w.fakes.gatewayTwo.orderFor(res.body.order_id)!;
    w.fakes.gatewayTwo.complete(order.id);
    expect(await w.fakes.gatewayTwo.deliverWebhook(order.id)).toBe(200);
    await w.t.drain();
    expect(await paymentRow(res.body.order_id)).toMatchObject({ status: 'succeeded', fulfilment: 'entered' });
    const entries = await w.t.db.query(
      `SELECT entries_count, user_id FROM raffle_entries WHERE payment_transaction_id = $1`,
      [res.body.order_id],
    );
    expect(entries).toEqual([{ entries_count: 2, user_id: buyer.user.id }]);
    const [inbox] = await w.t.db.query(
      `SELECT status, payment_transaction_id, site_id FROM inbound_events
        WHERE provider = 'gatewaytwo' AND payload->>'order_id' = $1`,
      [order.id],
    );
    expect(inbox).toEqual({
      status: 'processed',
      payment_transaction_id: res.body.order_id,
      site_id: w.site,
    });
  });

  it('fulfils a generic payment as the transaction alone', async () => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      site_id: w.site,
      amount: 3,
      currency: 'GBP',
      description: 'Top-up',
    }).expect(200);
    const order = w.fakes.gatewayTwo.orderFor(res.body.order_id)!;
    w.fakes.gatewayTwo.complete(order.id);
    expect(await w.fakes.gatewayTwo.deliverWebhook(order.id)).toBe(200);
    await w.t.drain();
    expect(await paymentRow(res.body.order_id)).toMatchObject({
      status: 'succeeded',
      fulfilment: 'recorded',
    });
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [
        res.body.order_id,
      ]),
    ).toHaveLength(0);
  });

  it('refuses a tampered signature and a stale timestamp with 401, storing nothing', async () => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      site_id: w.site,
      amount: 4,
      currency: 'GBP',
      description: 'x',
    }).expect(200);
    const order = w.fakes.gatewayTwo.orderFor(res.body.order_id)!;
    w.fakes.gatewayTwo.complete(order.id);
    expect(await w.fakes.gatewayTwo.deliverWebhook(order.id, { corrupt: 'signature' })).toBe(401);
    expect(await w.fakes.gatewayTwo.deliverWebhook(order.id, { corrupt: 'stale' })).toBe(401);
    const unsigned = await api(w.t.app)
      .post('/gatewaytwo/webhook', { event: 'ORDER_COMPLETED', order_id: order.id })
      .expect(401);
    expect(unsigned.body.code ?? unsigned.body.error_code).toBe('UNAUTHENTICATED');
    expect(
      await w.t.db.query(`SELECT 1 FROM inbound_events WHERE payload->>'order_id' = $1`, [order.id]),
    ).toHaveLength(0);
    await w.t.drain();
    expect((await paymentRow(res.body.order_id)).status).toBe('pending');
  });

  it('answers a repeated event with duplicate: true and stores it once', async () => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      site_id: w.site,
      amount: 4,
      currency: 'GBP',
      description: 'x',
    }).expect(200);
    const order = w.fakes.gatewayTwo.orderFor(res.body.order_id)!;
    w.fakes.gatewayTwo.complete(order.id);
    const event = { event: 'ORDER_COMPLETED', order_id: order.id, merchant_order_ext_ref: res.body.order_id };
    const first = await postSigned(event).expect(200);
    expect(first.body).toEqual({ received: true, duplicate: false });
    const second = await postSigned(event).expect(200);
    expect(second.body).toEqual({ received: true, duplicate: true });
    await w.t.drain();
    expect(
      await w.t.db.query(`SELECT 1 FROM inbound_events WHERE payload->>'order_id' = $1`, [order.id]),
    ).toHaveLength(1);
    expect((await paymentRow(res.body.order_id)).status).toBe('succeeded');
  });

  it('trusts the gateway, not the event: a completion event for an unpaid order changes nothing', async () => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      site_id: w.site,
      amount: 4,
      currency: 'GBP',
      description: 'x',
    }).expect(200);
    const order = w.fakes.gatewayTwo.orderFor(res.body.order_id)!;
    await postSigned({ event: 'ORDER_COMPLETED', order_id: order.id }).expect(200);
    await w.t.drain();
    expect((await paymentRow(res.body.order_id)).status).toBe('pending');
  });

  /** A guest's order of one £2.50 ticket, the buyer named by `customer_email` alone. */
  const guestOrder = (itemId: string, email: string) =>
    createOrder(undefined, {
      item_id: itemId,
      site_id: w.site,
      customer_email: email,
      user_exists: false,
      quantity: 1,
      amount: 2.5,
      currency: 'GBP',
      description: '1 ticket',
    });

  it('makes a guest buyer’s account from customer_email', async () => {
    const raffle = await raffleOn(w);
    const email = `g2-guest-${uid()}@example.com`;
    const res = await guestOrder(raffle.item_id, email).expect(200);
    const [user] = await w.t.db.query(`SELECT id, signup_source FROM users WHERE email = $1`, [email]);
    expect(user.signup_source).toBe('purchase');
    expect((await paymentRow(res.body.order_id)).user_id).toBe(user.id);
  });

  const I = '\u0130'; // LATIN CAPITAL LETTER I WITH DOT ABOVE: lower-cases to two UTF-16 units
  it.each([
    // 158 characters, 310 once lower-cased: it passed validation and failed the insert (a 500).
    [
      'grows past 254 characters when lower-cased',
      () => `${I.repeat(32)}@${I.repeat(60)}.${I.repeat(60)}.com`,
    ],
    // Where an erased account's address goes: taking it first would block that erasure.
    ['is in the reserved .invalid domain', () => `deleted-${uid()}@deleted.invalid`],
  ])('refuses a guest address that %s (400, no account)', async (_, address) => {
    const raffle = await raffleOn(w);
    const email = address();
    const res = await guestOrder(raffle.item_id, email).expect(400);
    expect(res.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
    expect(res.body.message).toContain('customer_email');
    expect(await w.t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toHaveLength(0);
  });

  it('refuses a body user_id that disagrees with the token (422 USER_MISMATCH) and a wrong currency', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const other = await makeUser(w.t, w.site);
    const body = { item_id: raffle.item_id, site_id: w.site, amount: 2.5, currency: 'GBP', description: '1' };
    const mismatch = await createOrder(buyer.token, { ...body, user_id: other.user.id }).expect(422);
    expect(mismatch.body).toMatchObject({ success: false, error_code: 'USER_MISMATCH' });
    const currency = await createOrder(buyer.token, { ...body, currency: 'EUR' }).expect(422);
    expect(currency.body).toMatchObject({ success: false, error_code: 'CURRENCY_MISMATCH' });
    const unknown = await createOrder(buyer.token, { ...body, item_id: `nope-${uid()}` }).expect(404);
    expect(unknown.body).toMatchObject({ success: false, error_code: 'NOT_FOUND' });
    expect(
      await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]),
    ).toHaveLength(0);
  });

  it('settles a completed order whose webhook never came, by reconciliation', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      item_id: raffle.item_id,
      site_id: w.site,
      amount: 2.5,
      currency: 'GBP',
      description: '1 ticket',
    }).expect(200);
    w.fakes.gatewayTwo.complete(w.fakes.gatewayTwo.orderFor(res.body.order_id)!.id);
    await w.t.db.query(
      `UPDATE payment_transactions SET created_at = now() - interval '10 minutes' WHERE id = $1`,
      [res.body.order_id],
    );
    const superadmin = await makeUser(w.t, w.site, { role: 'superadmin' });
    await api(w.t.app).as(superadmin.token).post('/admin/jobs/reconciliation/run').expect(200);
    await w.t.drain();
    expect(await paymentRow(res.body.order_id)).toMatchObject({ status: 'succeeded', fulfilment: 'entered' });
  });

  it('reaches a paid order behind more abandoned checkouts than a batch, asking abandoned ones ever less often', async () => {
    const job = w.t.app.get(ReconcilePaymentsJob);
    const scheduledRun = () => job.run(new Date(Date.now() - RECONCILE_AFTER_MS));
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const body = { item_id: raffle.item_id, site_id: w.site, amount: 2.5, currency: 'GBP', description: '1' };
    const model = (await createOrder(buyer.token, body).expect(200)).body.order_id as string;
    // 150 more checkouts abandoned half an hour ago, copied from it at the gateway (still pending there) and here.
    const order = w.fakes.gatewayTwo.orderFor(model)!;
    const copies = Array.from({ length: 150 }, () => ({
      id: randomUUID(),
      checkout_id: `${order.id}-${uid()}`,
    }));
    for (const c of copies)
      w.fakes.gatewayTwo.orders.set(c.checkout_id, {
        ...order,
        id: c.checkout_id,
        reference: c.id,
        refunds: [],
      });
    await w.t.db.query(
      `INSERT INTO payment_transactions
       SELECT (jsonb_populate_record(p, jsonb_build_object('id', c.id, 'checkout_id', c.checkout_id))).*
         FROM payment_transactions p, jsonb_to_recordset($2::jsonb) AS c(id uuid, checkout_id text)
        WHERE p.id = $1`,
      [model, JSON.stringify(copies)],
    );
    const abandoned = [model, ...copies.map((c) => c.id)];
    await w.t.db.query(
      `UPDATE payment_transactions SET created_at = now() - interval '30 minutes' WHERE id = ANY($1::uuid[])`,
      [abandoned],
    );
    const paidOrder = async () => {
      const id = (await createOrder(buyer.token, body).expect(200)).body.order_id as string;
      w.fakes.gatewayTwo.complete(w.fakes.gatewayTwo.orderFor(id)!.id); // paid; its webhook never comes
      await w.t.db.query(
        `UPDATE payment_transactions SET created_at = now() - interval '5 minutes' WHERE id = $1`,
        [id],
      );
      return id;
    };
    const asked = (from: number) => {
      const paths = w.fakes.gatewayTwo.requests
        .slice(from)
        .filter((r) => r.method === 'GET')
        .map((r) => r.path);
      return (id: string) =>
        paths.filter((p) => p.endsWith(`/${w.fakes.gatewayTwo.orderFor(id)!.id}`)).length;
    };

    // The scheduled run reaches the paid order behind them, asking each once.
    const paid = await paidOrder();
    let from = w.fakes.gatewayTwo.requests.length;
    await scheduledRun();
    await w.t.drain();
    expect(await paymentRow(paid)).toMatchObject({ status: 'succeeded', fulfilment: 'entered' });
    let times = asked(from);
    expect(abandoned.map(times)).toEqual(abandoned.map(() => 1));
    // Asked a moment ago, they are not due again; a newly paid order is.
    const second = await paidOrder();
    from = w.fakes.gatewayTwo.requests.length;
    await scheduledRun();
    await w.t.drain();
    expect(await paymentRow(second)).toMatchObject({ status: 'succeeded', fulfilment: 'entered' });
    times = asked(from);
    expect(abandoned.filter((id) => times(id) > 0)).toEqual([]);
    // An admin's run asks about every open payment, once each.
    const superadmin = await makeUser(w.t, w.site, { role: 'superadmin' });
    from = w.fakes.gatewayTwo.requests.length;
    await api(w.t.app).as(superadmin.token).post('/admin/jobs/reconciliation/run').expect(200);
    times = asked(from);
    expect(abandoned.map(times)).toEqual(abandoned.map(() => 1));
    expect(await paymentRow(model)).toMatchObject({ status: 'pending' });
  });

  it('settles a held refund however many held ones the gateway cannot settle', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const body = { item_id: raffle.item_id, site_id: w.site, amount: 2.5, currency: 'GBP', description: '1' };
    const model = (await createOrder(buyer.token, body).expect(200)).body.order_id as string;
    const order = w.fakes.gatewayTwo.orderFor(model)!;
    w.fakes.gatewayTwo.complete(order.id);
    expect(await w.fakes.gatewayTwo.deliverWebhook(order.id)).toBe(200);
    await w.t.drain();
    // Paid orders holding 1.00 of a refund whose answer was lost: at the gateway, 101 of them show 2.50 given
    // back (more than was held: left for an admin), the newest shows the 1.00.
    const copies = Array.from({ length: 102 }, (_, i) => ({
      id: randomUUID(),
      checkout_id: `${order.id}-${uid()}`,
      at_gateway: i < 101 ? 250 : 100,
      held_for: i < 101 ? '20 minutes' : '10 minutes',
    }));
    for (const c of copies)
      w.fakes.gatewayTwo.orders.set(c.checkout_id, {
        ...order,
        id: c.checkout_id,
        reference: c.id,
        refunds: [{ id: uid(), amount: c.at_gateway }],
      });
    await w.t.db.query(
      `INSERT INTO payment_transactions
       SELECT (jsonb_populate_record(p, jsonb_build_object(
                 'id', c.id, 'checkout_id', c.checkout_id, 'refund_pending_cents', 100,
                 'refund_reserved_at', now() - c.held_for::interval))).*
         FROM payment_transactions p,
              jsonb_to_recordset($2::jsonb) AS c(id uuid, checkout_id text, held_for text)
        WHERE p.id = $1`,
      [model, JSON.stringify(copies)],
    );
    const superadmin = await makeUser(w.t, w.site, { role: 'superadmin' });
    await api(w.t.app).as(superadmin.token).post('/admin/jobs/reconciliation/run').expect(200);
    const rows = await w.t.db.query<
      Array<{ id: string; status: string; refunded_cents: number; refund_pending_cents: number }>
    >(
      `SELECT id, status, refunded_cents, refund_pending_cents FROM payment_transactions WHERE id = ANY($1::uuid[])`,
      [copies.map((c) => c.id)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(copies[101].id)).toMatchObject({
      status: 'partially_refunded',
      refunded_cents: 100,
      refund_pending_cents: 0,
    });
    expect(copies.slice(0, 101).filter((c) => byId.get(c.id)!.refund_pending_cents !== 100)).toEqual([]);
  });

  it('refunds at gatewaytwo the order for the last ticket that came second', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 1 });
    const [first, second] = [await makeUser(w.t, w.site), await makeUser(w.t, w.site)];
    const body = { item_id: raffle.item_id, site_id: w.site, amount: 2.5, currency: 'GBP', description: '1' };
    const a = await createOrder(first.token, body).expect(200);
    const b = await createOrder(second.token, body).expect(200);
    for (const res of [a, b]) {
      const order = w.fakes.gatewayTwo.orderFor(res.body.order_id)!;
      w.fakes.gatewayTwo.complete(order.id);
      expect(await w.fakes.gatewayTwo.deliverWebhook(order.id)).toBe(200);
    }
    await w.t.drain();
    // The webhooks are processed in either order: whichever comes second is too late.
    const rows = [await paymentRow(a.body.order_id), await paymentRow(b.body.order_id)];
    const won = rows[0].fulfilment === 'entered' ? 0 : 1;
    const lost = 1 - won;
    expect(rows[won]).toMatchObject({ status: 'succeeded', fulfilment: 'entered' });
    expect(rows[lost]).toMatchObject({ status: 'refunded', fulfilment: 'refunded_unfillable' });
    const orderOf = (i: number) => w.fakes.gatewayTwo.orderFor([a, b][i].body.order_id as string)!;
    expect(orderOf(lost).refunds.map((r) => r.amount)).toEqual([250]);
    expect(orderOf(won).refunds).toEqual([]);
    expect(w.t.smtp.to([first, second][lost].email).map((m) => m.subject)).toEqual([
      expect.stringContaining('has been refunded'),
    ]);
  });

  it('accepts any one matching signature during a secret rotation, and refuses a timestamp from the future', async () => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      site_id: w.site,
      amount: 4,
      currency: 'GBP',
      description: 'x',
    }).expect(200);
    const order = w.fakes.gatewayTwo.orderFor(res.body.order_id)!;
    w.fakes.gatewayTwo.complete(order.id);
    const raw = JSON.stringify({ event: 'ORDER_COMPLETED', order_id: order.id });
    const future = String(Date.now() + 10 * 60_000);
    const secret = w.fakes.config.gatewayTwo.webhookSecret;
    await api(w.t.app)
      .post('/gatewaytwo/webhook', raw)
      .set('Revolut-Request-Timestamp', future)
      .set('Revolut-Signature', signWebhook({ rawBody: raw, timestamp: future, secret }))
      .expect(401);
    const now = String(Date.now());
    const old = signWebhook({ rawBody: raw, timestamp: now, secret: 'wsk_the_old_secret' });
    const current = signWebhook({ rawBody: raw, timestamp: now, secret });
    await api(w.t.app)
      .post('/gatewaytwo/webhook', raw)
      .set('Revolut-Request-Timestamp', now)
      .set('Revolut-Signature', `${old},${current}`)
      .expect(200);
    await w.t.drain();
    expect((await paymentRow(res.body.order_id)).status).toBe('succeeded');
  });

  it('refuses a guest generic payment without an e-mail (400) or on a site that does not exist (404)', async () => {
    const body = { amount: 5, currency: 'GBP', description: 'Guest top-up' };
    const noEmail = await createOrder(undefined, { ...body, site_id: w.site }).expect(400);
    expect(noEmail.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
    const noSite = await createOrder(undefined, { ...body, customer_email: `x-${uid()}@example.com` }).expect(
      400,
    );
    expect(noSite.body.message).toContain('site_id');
    const email = `ghost-${uid()}@example.com`;
    const ghost = await createOrder(undefined, {
      ...body,
      site_id: `no-such-site-${uid()}`,
      customer_email: email,
    });
    expect(ghost.status).toBe(404);
    expect(ghost.body).toMatchObject({ success: false, error_code: 'UNKNOWN_SITE' });
    expect(await w.t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toHaveLength(0);
  });

  it.each([
    ['more decimals than the currency has', 12.345],
    ['zero', 0],
    ['more than a payment may be', 99_999_999_999],
  ])('refuses a generic amount of %s (400, nothing stored)', async (_label, amount) => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(buyer.token, {
      site_id: w.site,
      amount,
      currency: 'GBP',
      description: 'x',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
    expect(
      await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE user_id = $1`, [buyer.user.id]),
    ).toHaveLength(0);
  });

  it('marks an order the shopper cancelled as cancelled and gives its spend back', async () => {
    const buyer = await buyerWithLimit(w, 400);
    const res = await createOrder(buyer.token, {
      site_id: w.site,
      amount: 4,
      currency: 'GBP',
      description: 'x',
    }).expect(200);
    const order = w.fakes.gatewayTwo.orderFor(res.body.order_id)!;
    w.fakes.gatewayTwo.complete(order.id, 'cancelled');
    expect(await w.fakes.gatewayTwo.deliverWebhook(order.id)).toBe(200);
    await w.t.drain();
    expect((await paymentRow(res.body.order_id)).status).toBe('cancelled');
    expect(await spentThisMonth(w, buyer.token)).toBe(0);
  });

  it('cancels a checkout still open at the gateway a day on, giving its spend back, and fulfils it if paid after all', async () => {
    const raffle = await raffleOn(w);
    const buyer = await buyerWithLimit(w, 500);
    const order = (hours: number) => ({
      item_id: raffle.item_id,
      site_id: w.site,
      amount: 2.5,
      currency: 'GBP',
      description: `opened ${hours} h ago`,
    });
    const open = async (hours: number) => {
      const id = (await createOrder(buyer.token, order(hours)).expect(200)).body.order_id as string;
      await w.t.db.query(
        `UPDATE payment_transactions SET created_at = now() - make_interval(hours => $2) WHERE id = $1`,
        [id, hours],
      );
      return id;
    };
    const spent = () => spentThisMonth(w, buyer.token);
    const abandoned = await open(25);
    const recent = await open(23);
    // Both walked away from at the gateway (still pending there): the month's limit is used up.
    expect(await spent()).toBe(500);
    const refused = await createOrder(buyer.token, order(0));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, error_code: 'SPEND_LIMIT_REACHED' });

    const superadmin = await makeUser(w.t, w.site, { role: 'superadmin' });
    await api(w.t.app).as(superadmin.token).post('/admin/jobs/reconciliation/run').expect(200);
    await w.t.drain();
    expect(await paymentRow(abandoned)).toMatchObject({ status: 'cancelled', fulfilment: null });
    expect(await paymentRow(recent)).toMatchObject({ status: 'pending' });
    expect(await spent()).toBe(250);
    const [activity] = await w.t.db.query(
      `SELECT description FROM activity_logs WHERE resource_id = $1 AND activity_type = 'payment_status'`,
      [abandoned],
    );
    expect(activity.description).toBe('Payment pending → cancelled (reconciliation: abandoned)');

    // The buyer pays the old checkout after all: the money was taken, so it counts and is fulfilled.
    const late = w.fakes.gatewayTwo.orderFor(abandoned)!;
    w.fakes.gatewayTwo.complete(late.id);
    expect(await w.fakes.gatewayTwo.deliverWebhook(late.id)).toBe(200);
    await w.t.drain();
    expect(await paymentRow(abandoned)).toMatchObject({ status: 'succeeded', fulfilment: 'entered' });
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [abandoned]),
    ).toHaveLength(1);
    expect(await spent()).toBe(500);
  });

  it('settles by reconciliation a checkout cancelled as abandoned and paid later, its webhook lost', async () => {
    const raffle = await raffleOn(w);
    const buyer = await buyerWithLimit(w, 500);
    const id = await orderOpened(buyer.token, raffle, '25 hours');
    const superadmin = await makeUser(w.t, w.site, { role: 'superadmin' });
    const reconcile = async () => {
      await api(w.t.app).as(superadmin.token).post('/admin/jobs/reconciliation/run').expect(200);
      await w.t.drain();
    };
    const activity = () =>
      w.t.db.query(
        `SELECT description FROM activity_logs WHERE resource_id = $1 AND activity_type = 'payment_status'
          ORDER BY created_at`,
        [id],
      );
    await reconcile();
    expect(await paymentRow(id)).toMatchObject({ status: 'cancelled', fulfilment: null });
    // Asked again by the schedule while the checkout is still open at the gateway: nothing changes or is written.
    const lastChange = async () =>
      (
        await w.t.db.query<Array<{ at: Date }>>(
          `SELECT updated_at AS at FROM payment_transactions WHERE id = $1`,
          [id],
        )
      )[0].at;
    const before = await lastChange();
    await scheduledRunWatching(w, [id]);
    expect(await paymentRow(id)).toMatchObject({ status: 'cancelled', fulfilment: null });
    expect(await activity()).toHaveLength(1);
    expect(await lastChange()).toEqual(before);
    // The buyer pays the old checkout after all, and the gateway's webhook is lost.
    w.fakes.gatewayTwo.complete(w.fakes.gatewayTwo.orderFor(id)!.id);
    // An admin's run asks about open payments only; the schedule's watched queue settles it.
    await reconcile();
    expect(await paymentRow(id)).toMatchObject({ status: 'cancelled' });
    await scheduledRunWatching(w, [id]);
    expect(await paymentRow(id)).toMatchObject({ status: 'succeeded', fulfilment: 'entered' });
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [id]),
    ).toHaveLength(1);
    expect(await spentThisMonth(w, buyer.token)).toBe(250);
    expect((await activity()).map((a: { description: string }) => a.description)).toEqual([
      'Payment pending → cancelled (reconciliation: abandoned)',
      'Payment cancelled → succeeded (reconciliation)',
    ]);
  });

  it('asks about payments still open before a week of declines, and about at most a batch of those a run', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const model = await orderOpened(buyer.token, raffle, '1 day');
    // 1,000 payments declined in the last day (a busy site's week, or a card-testing burst), never asked about.
    const declined = Array.from({ length: 1000 }, () => randomUUID());
    await w.t.db.query(
      `INSERT INTO payment_transactions
       SELECT (jsonb_populate_record(p, jsonb_build_object(
                 'id', c.id, 'checkout_id', NULL, 'status', 'failed',
                 'created_at', now() - interval '1 day', 'reconciled_at', NULL))).*
         FROM payment_transactions p, unnest($2::uuid[]) AS c(id)
        WHERE p.id = $1`,
      [model, declined],
    );
    try {
      // A buyer pays five minutes ago, and the gateway's webhook is lost.
      const paid = await orderOpened(buyer.token, raffle, '5 minutes');
      w.fakes.gatewayTwo.complete(w.fakes.gatewayTwo.orderFor(paid)!.id);
      await scheduledRunWatching(w, declined);
      expect(await paymentRow(paid)).toMatchObject({ status: 'succeeded', fulfilment: 'entered' });
      const [asked] = await w.t.db.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM payment_transactions
          WHERE id = ANY($1::uuid[]) AND reconciled_at > now() - interval '1 minute'`,
        [declined],
      );
      expect(asked.n).toBe(100);
    } finally {
      await w.t.db.query(`DELETE FROM payment_transactions WHERE id = ANY($1::uuid[])`, [declined]);
    }
  });

  it('stops watching a payment given up here a week after it was opened', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const id = await orderOpened(buyer.token, raffle, '8 days');
    await w.t.db.query(`UPDATE payment_transactions SET status = 'cancelled' WHERE id = $1`, [id]);
    w.fakes.gatewayTwo.complete(w.fakes.gatewayTwo.orderFor(id)!.id);
    await scheduledRunWatching(w, [id]);
    // Left as it was: not asked (its last ask stays the one the helper set, seven hours ago).
    const [row] = await w.t.db.query(
      `SELECT status, reconciled_at < now() - interval '6 hours' AS unasked FROM payment_transactions WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ status: 'cancelled', unasked: true });
  });
});
