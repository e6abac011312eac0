import { Client } from 'pg';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { NotifyPaymentJob } from '#app/modules/payments/jobs/notify-payment.job.js';
import { DECLINE_CODE } from '#app/infra/providers/gatewayone/fake/fake-gatewayone.js';
import { api } from '../support/api';
import { makeUser, uid, pointsOf as balanceOf } from '../support/factories';
import { untilSomeoneWaits } from '../support/held-rows';
import { linkToken } from '../support/smtp-sink';
import {
  buyerWithLimit,
  confirm,
  orderAsUser,
  type PaymentsWorld,
  raffleOn,
  scheduledRunWatching,
  spentThisMonth,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

describe('buying raffle tickets at gatewayone (endpoints 3 and 5)', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  const pointsOf = (userId: string): Promise<number> => balanceOf(w.t, userId);

  it('prices the order on the server, takes the payment, and enters the tickets once confirmed', async () => {
    const raffle = await raffleOn(w, { discount_tiers: [{ min_quantity: 4, discount: 10 }] });
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 4, amount: 9 });
    expect(order).toMatchObject({
      success: true,
      status: 'pending',
      order_state: 'pending',
      error: null,
      error_code: null,
    });
    const [pending] = await w.t.db.query(
      `SELECT amount_cents, status FROM payment_transactions WHERE id = $1`,
      [order.order_id],
    );
    expect(pending).toEqual({ amount_cents: 900, status: 'pending' });
    // The buyer's activity states the amount as money is shown (major units), not as stored.
    const [created] = await w.t.db.query<Array<{ description: string }>>(
      `SELECT description FROM activity_logs WHERE resource_id = $1 AND activity_type = 'order_created'`,
      [order.order_id],
    );
    expect(created.description).toBe('Order of 9.00 GBP at gatewayone');

    w.fakes.gatewayOne.complete(order.checkout_id);
    const confirmed = await confirm(w, order.order_id, { result_code: '000.100.110', status: 'paid' }).expect(
      200,
    );
    expect(confirmed.body).toMatchObject({ success: true, status: 'succeeded', order_id: order.order_id });

    const entries = await w.t.db.query(
      `SELECT entries_count, ticket_from, ticket_to, method FROM raffle_entries WHERE payment_transaction_id = $1`,
      [order.order_id],
    );
    expect(entries).toEqual([{ entries_count: 4, ticket_from: 1, ticket_to: 4, method: 'paid' }]);
    const [counts] = await w.t.db.query(
      `SELECT current_entries, entries_purchased FROM raffles WHERE id = $1`,
      [raffle.id],
    );
    expect(counts).toEqual({ current_entries: 4, entries_purchased: 4 });
    expect(await pointsOf(buyer.user.id)).toBe(9);

    await w.t.drain();
    const subjects = w.t.smtp.to(buyer.email).map((m) => m.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Your 4 tickets'),
        expect.stringContaining('You are in the draw'),
      ]),
    );
  });

  it('greets the buyer by their own first name in the purchase and entry mails, not the raffle’s one greeting', async () => {
    const raffle = await raffleOn(w, {
      mailer_email_params: { brand_name: 'Prize Co', first_name: 'Valued Customer', current_year: '1999' },
    });
    const greeted = async (profile: Record<string, unknown>) => {
      const buyer = await makeUser(w.t, w.site);
      await api(w.t.app).as(buyer.token).put('/users/profile', { profile }).expect(200);
      const order = await orderAsUser(w, buyer.token, raffle.item_id);
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
      await w.t.drain();
      const mails = w.t.smtp.to(buyer.email);
      expect(mails.map((m) => m.headers['x-mail-kind']).sort()).toEqual([
        'purchase_existing',
        'raffle_entry',
      ]);
      return mails;
    };
    for (const mail of await greeted({ first_name: 'Ann' })) {
      expect(mail.text).toContain('Hello Ann,');
      // The year is the one the mail is sent in, whatever the raffle's params say.
      expect(mail.text).toContain(`© ${new Date().getUTCFullYear()} Prize Co`);
    }
    // A buyer who gave no first name gets the greeting the raffle's admin chose.
    for (const mail of await greeted({ last_name: 'Nobody' }))
      expect(mail.text).toContain('Hello Valued Customer,');
  });

  it('mails a purchase once though its notify job runs again, as pg-boss runs a job whose end was lost', async () => {
    const raffle = await raffleOn(w);
    const kinds = (email: string) =>
      w.t.smtp
        .to(email)
        .map((m) => m.headers['x-mail-kind'])
        .sort();
    // A member's purchase, and a guest's, whose mail carries a password-set link (one link, not two).
    const member = await makeUser(w.t, w.site);
    const bought = await orderAsUser(w, member.token, raffle.item_id);
    const guestEmail = `guest-${uid()}@example.com`;
    const guest = await api(w.t.app)
      .post('/gatewayone/create-order', {
        site_id: w.site,
        item_id: raffle.item_id,
        quantity: 1,
        customer_email: guestEmail,
      })
      .expect(200);
    for (const order of [bought, guest.body as { order_id: string; checkout_id: string }]) {
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
    }
    await w.t.drain();
    for (const order of [bought, guest.body as { order_id: string }])
      await w.t.app.get(JobQueue).enqueue('payments.notify', { payment_transaction_id: order.order_id });
    await w.t.drain();
    expect(kinds(member.email)).toEqual(['purchase_existing', 'raffle_entry']);
    expect(kinds(guestEmail)).toEqual(['purchase_new', 'raffle_entry']);
  });

  it('sends no purchase or entry mail for an order refunded whole before its mails went: the refund’s notice only', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    await confirm(w, order.order_id).expect(200);
    // Staff give it all back before the queue reaches its mails (a backlog, or a quick admin).
    await api(w.t.app)
      .as(w.admin.token)
      .post(`/admin/payments/${order.order_id}/refund`, { reason: 'Customer request' })
      .expect(200);
    await w.t.drain();
    expect(w.t.smtp.to(buyer.email).map((m) => m.headers['x-mail-kind'])).toEqual(['payment_refunded']);
  });

  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    'sends none either when the whole refund commits while the mails’ claim waits on the payment (PostgreSQL)',
    async () => {
      const raffle = await raffleOn(w);
      const buyer = await makeUser(w.t, w.site);
      const order = await orderAsUser(w, buyer.token, raffle.item_id);
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
      const holder = new Client({ connectionString: process.env.E2E_DATABASE_URL });
      await holder.connect();
      try {
        // A whole refund being recorded, not yet committed, when the notify job claims the payment.
        await holder.query('BEGIN');
        await holder.query(
          `UPDATE payment_transactions SET status = 'refunded', refunded_cents = amount_cents WHERE id = $1`,
          [order.order_id],
        );
        const notified = w.t.app.get(NotifyPaymentJob).run(order.order_id);
        await untilSomeoneWaits(holder);
        await holder.query('COMMIT');
        await notified;
      } finally {
        await holder.end();
      }
      await w.t.drain();
      expect(w.t.smtp.to(buyer.email)).toEqual([]);
    },
  );

  it('confirms an order named by the gateway’s payment id, as the answer gave it, or by its checkout', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    const first = await confirm(w, order.order_id).expect(200);
    const paymentId = (first.body as { payment_id: string }).payment_id;
    expect(paymentId).not.toBe(order.checkout_id);

    for (const id of [paymentId, order.checkout_id]) {
      const again = await api(w.t.app)
        .post('/gatewayone/create-order', { confirmation_only: true, payment_id: id })
        .expect(200);
      expect(again.body).toMatchObject({ success: true, status: 'succeeded', order_id: order.order_id });
    }
    const entries = await w.t.db.query(
      `SELECT entries_count FROM raffle_entries WHERE payment_transaction_id = $1`,
      [order.order_id],
    );
    expect(entries).toEqual([{ entries_count: 2 }]);
  });

  it('refuses an amount that differs from the server’s price, in the order body shape', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const res = await api(w.t.app)
      .as(buyer.token)
      .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site, quantity: 2, amount: 1 })
      .expect(422);
    expect(res.body).toMatchObject({ success: false, error_code: 'AMOUNT_MISMATCH' });
    expect(res.headers['content-type']).toContain('application/json');
    expect(
      await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]),
    ).toHaveLength(0);
  });

  it('refuses an order adding up to more than one payment may be (422 AMOUNT_TOO_LARGE), writing nothing', async () => {
    const raffle = await raffleOn(w, { price_display: 1_000_000 });
    const buyer = await makeUser(w.t, w.site);
    const res = await api(w.t.app)
      .as(buyer.token)
      .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site, quantity: 22 })
      .expect(422);
    expect(res.body).toMatchObject({ success: false, error_code: 'AMOUNT_TOO_LARGE' });
    expect(
      await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]),
    ).toHaveLength(0);
    expect(await spentThisMonth(w, buyer.token)).toBe(0);
  });

  it.each([
    ['a raffle priced 0', { price_display: 0 }],
    ['a whole discount', { discount_tiers: [{ discount: 100, min_quantity: 1 }] }],
    [
      'a discount rounding a 1p ticket to nothing',
      { price_display: 0.01, discount_tiers: [{ discount: 60, min_quantity: 1 }] },
    ],
  ])(
    'refuses an order coming to nothing through %s (422 AMOUNT_TOO_SMALL), asking the gateway for nothing',
    async (_how, rules) => {
      const raffle = await raffleOn(w, rules);
      const quote = await api(w.t.app).get(`/raffles/${raffle.id}/quote?quantity=1`).expect(200);
      expect(quote.body.amount_cents).toBe(0);
      const buyer = await makeUser(w.t, w.site);
      const checkoutsBefore = w.fakes.gatewayOne.payments.size;
      const res = await api(w.t.app)
        .as(buyer.token)
        .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site, quantity: 1 })
        .expect(422);
      expect(res.body).toMatchObject({ success: false, error_code: 'AMOUNT_TOO_SMALL' });
      expect(
        await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]),
      ).toHaveLength(0);
      expect(w.fakes.gatewayOne.payments.size).toBe(checkoutsBefore);
    },
  );

  it('refuses an order the buyer could never enter, holding the raffle’s max_entries already, charging nothing', async () => {
    const raffle = await raffleOn(w, { max_entries: 3 });
    const buyer = await makeUser(w.t, w.site);
    const first = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(first.checkout_id);
    await confirm(w, first.order_id).expect(200);
    const order = (quantity: number) =>
      api(w.t.app)
        .as(buyer.token)
        .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site, quantity });
    // Two held and two more would pass the cap of three: refused before any payment or checkout.
    const checkoutsBefore = w.fakes.gatewayOne.payments.size;
    const refused = await order(2).expect(422);
    expect(refused.body).toMatchObject({ success: false, error_code: 'MAX_ENTRIES_REACHED' });
    expect(refused.body.message).toContain('You hold 2 of the 3 tickets');
    expect(w.fakes.gatewayOne.payments.size).toBe(checkoutsBefore);
    const payments = await w.t.db.query(
      `SELECT status FROM payment_transactions WHERE raffle_id = $1 AND user_id = $2`,
      [raffle.id, buyer.user.id],
    );
    expect(payments).toEqual([{ status: 'succeeded' }]);
    // The one ticket that still fits is sold.
    await order(1).expect(200);
  });

  it('answers a member’s order though the month’s spend counter is at its largest value, never a 500', async () => {
    // Guest orders anyone may open naming a member's address each count against the member's month; added
    // up past PostgreSQL's integer, they made every later order of that member fail.
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const month = new Date().toISOString().slice(0, 7);
    await w.t.db.query(
      `INSERT INTO user_monthly_spend (user_id, month, spent_cents) VALUES ($1, $2, 2147483600)`,
      [buyer.user.id, month],
    );
    await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 1 });
    const [row] = await w.t.db.query(
      `SELECT spent_cents FROM user_monthly_spend WHERE user_id = $1 AND month = $2`,
      [buyer.user.id, month],
    );
    expect(row).toEqual({ spent_cents: 2147483647 });
  });

  it('sells a bundle alone (quantity 0) at the price the quote gives for it; an order of nothing is a 400', async () => {
    const raffle = await raffleOn(w, { upsells: [{ quantity: 10, percentage: 20 }] });
    const quote = await api(w.t.app)
      .get(`/raffles/${raffle.id}/quote?quantity=0&upsell=10&site_id=${w.site}`)
      .expect(200);
    expect(quote.body.amount_cents).toBe(2000); // 10 × £2.50 less 20 %
    const buyer = await makeUser(w.t, w.site);
    const order = (body: Record<string, unknown>) =>
      api(w.t.app)
        .as(buyer.token)
        .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site, quantity: 0, ...body });
    const opened = await order({ upsells: [{ quantity: 10 }], amount: 20, currency: 'GBP' }).expect(200);
    w.fakes.gatewayOne.complete(opened.body.checkout_id as string);
    await confirm(w, opened.body.order_id as string).expect(200);
    const [entry] = await w.t.db.query(
      `SELECT entries_count, ticket_from, ticket_to FROM raffle_entries WHERE payment_transaction_id = $1`,
      [opened.body.order_id],
    );
    expect(entry).toEqual({ entries_count: 10, ticket_from: 1, ticket_to: 10 });
    const nothing = await order({}).expect(400);
    expect(nothing.body).toMatchObject({ success: false });
  });

  it('refuses a raffle that has not started as 409 RAFFLE_NOT_STARTED, naming its start date', async () => {
    const start = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    const raffle = await raffleOn(w, {
      start_date: start.toISOString(),
      end_date: new Date(start.getTime() + 24 * 3600 * 1000).toISOString(),
    });
    const buyer = await makeUser(w.t, w.site);
    const res = await api(w.t.app)
      .as(buyer.token)
      .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site, quantity: 1 })
      .expect(409);
    expect(res.body).toMatchObject({ success: false, error_code: 'RAFFLE_NOT_STARTED' });
    expect(res.body.error).toContain(`opens for entries at ${start.toISOString()}`);
  });

  it('answers bad input in the order body shape too: malformed JSON, unknown fields, wrong types', async () => {
    const bad = await api(w.t.app).post('/gatewayone/create-order', '{"item_id":').expect(400);
    expect(bad.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
    const unknown = await api(w.t.app)
      .post('/gatewayone/create-order', { item_id: 'x', price: 0 })
      .expect(400);
    expect(unknown.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
    const typed = await api(w.t.app).post('/gatewayone/create-order', { quantity: 'lots' }).expect(400);
    expect(typed.body.message).toContain('quantity');
  });

  it('refuses a caller’s own data past 8 KB or 4 levels, and return URLs that are not http(s), storing nothing', async () => {
    const raffle = await raffleOn(w);
    const ordersBefore = await w.t.db.query(`SELECT count(*)::int AS n FROM payment_transactions`);
    const order = (extra: Record<string, unknown>) =>
      api(w.t.app).post('/gatewayone/create-order', {
        site_id: w.site,
        item_id: raffle.item_id,
        quantity: 1,
        customer_email: `guest-${uid()}@example.com`,
        ...extra,
      });
    const big = { note: 'x'.repeat(9 * 1024) };
    const deep = { a: { b: { c: { d: { e: 1 } } } } };
    for (const field of ['metadata', 'custom_data', 'utm_params'])
      for (const value of [big, deep]) {
        const refused = await order({ [field]: value }).expect(400);
        expect(refused.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
        expect(refused.body.message).toContain(field);
      }
    for (const field of ['success_url', 'redirect_url', 'cancel_url', 'failure_url']) {
      const refused = await order({ [field]: 'javascript:alert(document.cookie)' }).expect(400);
      expect(refused.body.message).toContain(field);
    }
    expect(await w.t.db.query(`SELECT count(*)::int AS n FROM payment_transactions`)).toEqual(ordersBefore);
    // Within the bounds, taken as before; a URL sent empty is none.
    await order({
      metadata: { campaign: { source: 'newsletter' } },
      utm_params: { utm_source: 'mail' },
      success_url: 'https://shop.example/thanks',
      cancel_url: '',
      failure_url: '',
    }).expect(200);
    await order({ success_url: '', redirect_url: '' }).expect(200);
  });

  it('never trusts a client that claims success the gateway denies', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id);
    const still = await confirm(w, order.order_id, { result_code: '000.100.110', status: 'success' }).expect(
      200,
    );
    expect(still.body.status).toBe('pending');
    w.fakes.gatewayOne.complete(order.checkout_id, '800.100.151');
    const declined = await confirm(w, order.order_id, { result_code: '000.100.110' }).expect(422);
    expect(declined.body).toMatchObject({ success: false, error_code: 'PAYMENT_DECLINED' });
    expect(await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE raffle_id = $1`, [raffle.id])).toHaveLength(
      0,
    );
    const [row] = await w.t.db.query(`SELECT status, metadata FROM payment_transactions WHERE id = $1`, [
      order.order_id,
    ]);
    expect(row.status).toBe('failed');
    expect(row.metadata.client_claims[0]).toMatchObject({ result_code: '000.100.110', status: 'success' });
  });

  it('fulfils from an encrypted webhook; a duplicate is answered and dropped; a tampered one is 401', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id, { corrupt: 'tag' })).toBe(401);
    expect(
      await w.t.db.query(`SELECT 1 FROM inbound_events WHERE payload->'payload'->>'ndc' = $1`, [
        order.checkout_id,
      ]),
    ).toHaveLength(0);
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id)).toBe(200);
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id)).toBe(200);
    await w.t.drain();
    const [row] = await w.t.db.query(
      `SELECT status, webhook_received_at, webhook_data FROM payment_transactions WHERE id = $1`,
      [order.order_id],
    );
    expect(row.status).toBe('succeeded');
    expect(row.webhook_received_at).not.toBeNull();
    expect(row.webhook_data.payload.ndc).toBe(order.checkout_id);
    expect(
      await w.t.db.query(`SELECT 1 FROM inbound_events WHERE payload->'payload'->>'ndc' = $1`, [
        order.checkout_id,
      ]),
    ).toHaveLength(1);
    const entries = await w.t.db.query(
      `SELECT entries_count FROM raffle_entries WHERE payment_transaction_id = $1`,
      [order.order_id],
    );
    expect(entries).toEqual([{ entries_count: 2 }]);
  });

  it('fulfils once when webhook, confirmation and reconciliation arrive together', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 3 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    await w.t.db.query(
      `UPDATE payment_transactions SET created_at = now() - interval '10 minutes' WHERE id = $1`,
      [order.order_id],
    );
    const superadmin = await makeUser(w.t, w.site, { role: 'superadmin' });
    await Promise.all([
      w.fakes.gatewayOne.deliverWebhook(order.checkout_id).then(() => w.t.drain()),
      confirm(w, order.order_id),
      confirm(w, order.order_id),
      api(w.t.app).as(superadmin.token).post('/admin/jobs/reconciliation/run'),
    ]);
    await w.t.drain();
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [order.order_id]),
    ).toHaveLength(1);
    const [counts] = await w.t.db.query(`SELECT current_entries FROM raffles WHERE id = $1`, [raffle.id]);
    expect(counts.current_entries).toBe(3);
    expect(await pointsOf(buyer.user.id)).toBe(7); // £7.50 → 7 points, once
    const earns = await w.t.db.query(`SELECT 1 FROM point_transactions WHERE payment_transaction_id = $1`, [
      order.order_id,
    ]);
    expect(earns).toHaveLength(1);
    const purchaseMails = w.t.smtp.to(buyer.email).filter((m) => m.subject.startsWith('Your 3 tickets'));
    expect(purchaseMails).toHaveLength(1);
  });

  it('settles by reconciliation a checkout declined and then paid with another card, its webhook lost', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 1 });
    // The first card is declined, and the gateway's webhook says so: the payment is failed here.
    w.fakes.gatewayOne.complete(order.checkout_id, DECLINE_CODE);
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id)).toBe(200);
    await w.t.drain();
    const row = async () => {
      const [payment] = await w.t.db.query<Array<{ status: string; fulfilment: string | null }>>(
        `SELECT status, fulfilment FROM payment_transactions WHERE id = $1`,
        [order.order_id],
      );
      return payment;
    };
    expect(await row()).toEqual({ status: 'failed', fulfilment: null });
    // Another card at the same checkout goes through; the browser is closed and the webhook never comes.
    w.fakes.gatewayOne.complete(order.checkout_id);
    await w.t.db.query(
      `UPDATE payment_transactions SET created_at = now() - interval '10 minutes' WHERE id = $1`,
      [order.order_id],
    );
    await scheduledRunWatching(w, [order.order_id]);
    expect(await row()).toEqual({ status: 'succeeded', fulfilment: 'entered' });
    expect(
      await w.t.db.query(`SELECT entries_count FROM raffle_entries WHERE payment_transaction_id = $1`, [
        order.order_id,
      ]),
    ).toEqual([{ entries_count: 1 }]);
    expect(w.t.smtp.to(buyer.email).filter((m) => m.subject.startsWith('Your 1 ticket'))).toHaveLength(1);
  });

  it('makes the account of a guest buyer and sends a password-set link that works', async () => {
    const raffle = await raffleOn(w);
    const email = `guest-${uid()}@example.com`;
    const res = await api(w.t.app)
      .post('/gatewayone/create-order', {
        item_id: raffle.item_id,
        site_id: w.site,
        customer_email: email,
        user_exists: false,
        quantity: 1,
      })
      .expect(200);
    const [user] = await w.t.db.query(`SELECT id, signup_source FROM users WHERE email = $1`, [email]);
    expect(user.signup_source).toBe('purchase');
    w.fakes.gatewayOne.complete(res.body.checkout_id);
    await confirm(w, res.body.order_id).expect(200);
    await w.t.drain();
    const mail = w.t.smtp.to(email).find((m) => m.subject.startsWith('Your 1 ticket'));
    expect(mail).toBeDefined();
    const token = linkToken(mail!, 'set-password');
    const password = 'guest-Became-member-44';
    await api(w.t.app).post('/auth/password-set/confirm', { token, password }).expect(200);
    await api(w.t.app).post('/auth/login', { email, password, site_id: w.site }).expect(200);
  });

  it('sends the password-set link with the first paid purchase of a guest whose first checkout failed', async () => {
    const raffle = await raffleOn(w);
    const email = `guest-${uid()}@example.com`;
    const body = {
      item_id: raffle.item_id,
      site_id: w.site,
      customer_email: email,
      user_exists: false,
      quantity: 1,
    };
    // The first checkout cannot be opened (502, "try again"), but the account was made for it.
    w.fakes.gatewayOne.goDown('unavailable');
    try {
      await api(w.t.app).post('/gatewayone/create-order', body).expect(502);
    } finally {
      w.fakes.gatewayOne.comeUp();
    }
    const res = await api(w.t.app).post('/gatewayone/create-order', body).expect(200);
    w.fakes.gatewayOne.complete(res.body.checkout_id);
    await confirm(w, res.body.order_id).expect(200);
    await w.t.drain();
    const mail = w.t.smtp.to(email).find((m) => m.subject.startsWith('Your 1 ticket'));
    const token = linkToken(mail!, 'set-password');
    const password = 'guest-Second-try-45';
    await api(w.t.app).post('/auth/password-set/confirm', { token, password }).expect(200);
    await api(w.t.app).post('/auth/login', { email, password, site_id: w.site }).expect(200);
    // With a password set, the next guest purchase to that address is an existing member's: no link.
    const next = await api(w.t.app).post('/gatewayone/create-order', body).expect(200);
    w.fakes.gatewayOne.complete(next.body.checkout_id);
    await confirm(w, next.body.order_id).expect(200);
    await w.t.drain();
    const purchases = w.t.smtp.to(email).filter((m) => m.subject.startsWith('Your 1 ticket'));
    expect(purchases).toHaveLength(2);
    expect(() => linkToken(purchases[1], 'set-password')).toThrow();
  });

  it('answers 502 GATEWAY_UNAVAILABLE when the gateway is down, and keeps nothing open', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    w.fakes.gatewayOne.goDown('unavailable');
    try {
      const res = await api(w.t.app)
        .as(buyer.token)
        .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site })
        .expect(502);
      expect(res.body).toMatchObject({ success: false, error_code: 'GATEWAY_UNAVAILABLE' });
    } finally {
      w.fakes.gatewayOne.comeUp();
    }
    const rows = await w.t.db.query(`SELECT status FROM payment_transactions WHERE raffle_id = $1`, [
      raffle.id,
    ]);
    expect(rows).toEqual([{ status: 'failed' }]);
  });

  it('refuses an order past the buyer’s monthly spend limit (422 SPEND_LIMIT_REACHED)', async () => {
    const raffle = await raffleOn(w);
    const buyer = await buyerWithLimit(w, 300);
    await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 1 });
    const res = await api(w.t.app)
      .as(buyer.token)
      .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site, quantity: 1 })
      .expect(422);
    expect(res.body.error_code).toBe('SPEND_LIMIT_REACHED');
  });

  it('lists the site’s payments for its admins, with or without a status filter', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id);
    const all = await api(w.t.app).as(w.admin.token).get('/admin/payments').expect(200);
    expect(all.body.map((p: { id: string }) => p.id)).toContain(order.order_id);
    const pending = await api(w.t.app).as(w.admin.token).get('/admin/payments?status=pending').expect(200);
    expect(pending.body.every((p: { status: string }) => p.status === 'pending')).toBe(true);
    await api(w.t.app).as(w.admin.token).get('/admin/payments?status=paid').expect(400);
    await api(w.t.app).as(buyer.token).get('/admin/payments').expect(403);
  });
});
