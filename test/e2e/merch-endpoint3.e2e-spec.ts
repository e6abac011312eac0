import { randomUUID } from 'node:crypto';
import { api } from '../support/api';
import { makeSite, makeUser, uid } from '../support/factories';
import {
  ADDRESS,
  adminOrder,
  type MerchWorld,
  productOn,
  startMerchWorld,
  stopMerchWorld,
} from '../support/merch';
import { confirm, raffleOn } from '../support/payments';
import { linkToken } from '../support/smtp-sink';

/**
 * Endpoint 3's `item_id` naming a merch product (DESIGN §10, issue 14): priced by the server, paid on
 * the same gatewayone checkout and confirmation path as raffle orders, and sent to the print provider
 * exactly as `POST /merch/orders`' orders are.
 */
describe('endpoint 3 sells merch products (issue 14)', () => {
  let w: MerchWorld;
  let tee: { id: string; amount_cents: number; sku: string };

  beforeAll(async () => {
    w = await startMerchWorld();
    tee = await productOn(w);
  });
  afterAll(() => stopMerchWorld(w));
  beforeEach(() => {
    w.fulfilment.resetControls();
  });

  const createOrder = (body: Record<string, unknown>, token?: string) => {
    const req = api(w.t.app);
    return (token ? req.as(token) : req).post('/gatewayone/create-order', { site_id: w.site, ...body });
  };

  /** The merch order written beside payment `paymentId`, as an admin reads it. */
  async function orderOfPayment(paymentId: string) {
    const rows = await w.t.db.query<Array<{ id: string }>>(
      `SELECT id FROM merch_orders WHERE payment_id = $1`,
      [paymentId],
    );
    expect(rows).toHaveLength(1);
    return adminOrder(w, rows[0].id);
  }

  /** What the site holds: payments, merch orders, accounts. */
  async function counts(): Promise<{ payments: number; orders: number; users: number }> {
    const [row] = await w.t.db.query<Array<{ payments: number; orders: number; users: number }>>(
      `SELECT (SELECT count(*)::int FROM payment_transactions WHERE site_id = $1) AS payments,
              (SELECT count(*)::int FROM merch_orders WHERE site_id = $1) AS orders,
              (SELECT count(*)::int FROM users WHERE site_id = $1) AS users`,
      [w.site],
    );
    return row;
  }

  it('creates a server-priced merch order, and fulfils it once when webhook, confirmations and reconciliation race', async () => {
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder(
      { item_id: tee.id, quantity: 2, amount: 30, ...ADDRESS },
      buyer.token,
    ).expect(200);
    expect(res.body).toMatchObject({ success: true, status: 'pending', error: null });
    const paymentId = res.body.order_id as string;
    const checkoutId = res.body.checkout_id as string;

    // The server's price: £15 × 2, at the gateway and on our payment.
    expect(w.fakes.gatewayOne.payments.get(checkoutId)).toMatchObject({ amount: '30.00', currency: 'GBP' });
    const [payment] = await w.t.db.query(
      `SELECT amount_cents, currency, purpose, raffle_id, status FROM payment_transactions WHERE id = $1`,
      [paymentId],
    );
    expect(payment).toEqual({
      amount_cents: 3000,
      currency: 'GBP',
      purpose: 'merch',
      raffle_id: null,
      status: 'pending',
    });
    let o = await orderOfPayment(paymentId);
    expect(o).toMatchObject({
      status_stage: 'awaiting_payment',
      user_id: buyer.user.id,
      checkout_id: checkoutId,
      fulfilment_order_id: null,
      recipient_name: 'Jane Doe',
      recipient_email: 'jane@example.com',
      address_line1: '1 High Street',
      country_code: 'GB',
      shipping_method: 'Standard',
      items: [
        expect.objectContaining({
          merch_product_id: tee.id,
          sku: tee.sku,
          copies: 2,
          recipient_cost_amount: 30,
          recipient_cost_currency: 'GBP',
        }),
      ],
    });
    expect(w.fulfilment.byReference(o.id as string)).toBeUndefined();

    // Paid; the gateway's webhook, two confirmations and the reconciliation sweep all arrive at once.
    w.fakes.gatewayOne.complete(checkoutId);
    await w.t.db.query(
      `UPDATE payment_transactions SET created_at = now() - interval '10 minutes' WHERE id = $1`,
      [paymentId],
    );
    const root = await makeUser(w.t, w.site, { role: 'superadmin' });
    const [, first, second] = await Promise.all([
      w.fakes.gatewayOne.deliverWebhook(checkoutId).then(() => w.t.drain()),
      confirm(w, paymentId),
      confirm(w, paymentId, { result_code: '000.000.000', status: 'paid' }),
      api(w.t.app).as(root.token).post('/admin/jobs/reconciliation/run'),
    ]);
    await w.t.drain();
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: true, status: 'succeeded', order_id: paymentId });
      expect(answer.body.message).not.toMatch(/entries/);
    }

    o = await adminOrder(w, o.id as string);
    const sent = w.fulfilment.byReference(o.id as string)!;
    expect(o).toMatchObject({
      status_stage: 'submitted',
      fulfilment_order_id: sent.id,
      payment_id: paymentId,
    });
    expect(w.fulfilment.created.filter((c) => c.merchantReference === o.id)).toHaveLength(1);
    expect(sent.request).toMatchObject({
      merchantReference: o.id,
      shippingMethod: 'Standard',
      recipient: { name: 'Jane Doe', address: { line1: '1 High Street', countryCode: 'GB' } },
      items: [expect.objectContaining({ sku: tee.sku, copies: 2 })],
    });
    const [settled] = await w.t.db.query(
      `SELECT status, fulfilment,
              (SELECT count(*)::int FROM pgboss.job j
                WHERE j.name = 'merch.submit' AND j.data->>'merch_order_id' = $2) AS submits
         FROM payment_transactions WHERE id = $1`,
      [paymentId, o.id],
    );
    expect(settled).toEqual({ status: 'succeeded', fulfilment: 'fulfilled', submits: 1 });
    const mails = w.t.smtp
      .to(buyer.email)
      .filter((m) => m.subject.startsWith('Your payment for Merchandise'));
    expect(mails).toHaveLength(1);
  });

  it('makes a guest’s account, ships to the buyer’s e-mail by default, and sends the password-set link', async () => {
    const email = `guest-${uid()}@example.com`;
    const { recipient_email: _unused, ...address } = ADDRESS;
    const res = await createOrder({
      item_id: tee.id,
      customer_email: email,
      customer_name: 'Gus Guest',
      user_exists: false,
      ...address,
    }).expect(200);
    const [user] = await w.t.db.query(
      `SELECT id, signup_source FROM users WHERE email = $1 AND site_id = $2`,
      [email, w.site],
    );
    expect(user.signup_source).toBe('purchase');
    const o = await orderOfPayment(res.body.order_id as string);
    expect(o).toMatchObject({
      user_id: user.id,
      recipient_email: email,
      items: [expect.objectContaining({ copies: 1 })],
    });
    expect(w.fakes.gatewayOne.payments.get(res.body.checkout_id)).toMatchObject({ amount: '15.00' });

    w.fakes.gatewayOne.complete(res.body.checkout_id);
    await confirm(w, res.body.order_id).expect(200);
    await w.t.drain();
    expect((await adminOrder(w, o.id as string)).status_stage).toBe('submitted');
    expect(w.fulfilment.created.filter((c) => c.merchantReference === o.id)).toHaveLength(1);
    const mail = w.t.smtp.to(email).find((m) => m.subject.startsWith('Your payment for Merchandise'));
    expect(mail).toBeDefined();
    const token = linkToken(mail!, 'set-password');
    await api(w.t.app)
      .post('/auth/password-set/confirm', { token, password: 'guest-Bought-a-tee-44' })
      .expect(200);
  });

  it('charges the server’s price only: a differing amount or currency is refused and nothing is made', async () => {
    const buyer = await makeUser(w.t, w.site);
    const before = await counts();
    const cheap = await createOrder(
      { item_id: tee.id, quantity: 2, amount: 0.01, ...ADDRESS },
      buyer.token,
    ).expect(422);
    expect(cheap.body).toMatchObject({ success: false, error_code: 'AMOUNT_MISMATCH' });
    const euros = await createOrder({ item_id: tee.id, currency: 'EUR', ...ADDRESS }, buyer.token).expect(
      422,
    );
    expect(euros.body.error_code).toBe('CURRENCY_MISMATCH');
    // A price the client makes up is no field of endpoint 3 at all.
    await createOrder({ item_id: tee.id, amount_cents: 1, ...ADDRESS }, buyer.token).expect(400);
    expect(await counts()).toEqual(before);
  });

  it('refuses an order without an address, naming each missing field, and makes nothing (not even the guest)', async () => {
    const email = `guest-${uid()}@example.com`;
    const before = await counts();
    const res = await createOrder({
      item_id: tee.id,
      customer_email: email,
      recipient_name: 'Jane Doe',
      address_line1: '  ',
    }).expect(400);
    expect(res.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
    for (const field of ['address_line1', 'town_or_city', 'postal_or_zip_code', 'country_code'])
      expect(res.body.message).toContain(`${field}: required to ship a merch product`);
    expect(res.body.message).not.toContain('recipient_name');
    const buyer = await makeUser(w.t, w.site);
    await createOrder({ item_id: tee.id }, buyer.token).expect(400);
    expect(await counts()).toEqual({ ...before, users: before.users + 1 }); // only makeUser's
    expect(await w.t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toHaveLength(0);
  });

  it('refuses a shipping field broken over lines (400), as POST /merch/orders does, and makes nothing', async () => {
    const buyer = await makeUser(w.t, w.site);
    const before = await counts();
    for (const broken of [{ address_line2: 'Flat 2\r\nSomewhere else' }, { recipient_name: 'Jane\nDoe' }]) {
      const res = await createOrder({ item_id: tee.id, ...ADDRESS, ...broken }, buyer.token).expect(400);
      expect(res.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
      expect(res.body.message).toContain(Object.keys(broken)[0]);
    }
    expect(await counts()).toEqual(before);
  });

  it('answers an unknown product, another site’s product or a withdrawn one as a raffle order would', async () => {
    const buyer = await makeUser(w.t, w.site);
    const other = await makeSite(w.t);
    const otherAdmin = await makeUser(w.t, other, { role: 'admin' });
    const foreign = await api(w.t.app)
      .as(otherAdmin.token)
      .post('/api/admin/merch/products', { name: 'x', sku: 'S', amount_cents: 100, currency: 'GBP' })
      .expect(201);
    const withdrawn = await productOn(w, { name: 'Old tee', active: false });
    const before = await counts();
    for (const itemId of [randomUUID(), 'no-such-item', foreign.body.id as string]) {
      const res = await createOrder({ item_id: itemId, ...ADDRESS }, buyer.token).expect(404);
      expect(res.body).toMatchObject({ success: false, error_code: 'NOT_FOUND' });
    }
    const gone = await createOrder({ item_id: withdrawn.id, ...ADDRESS }, buyer.token).expect(422);
    expect(gone.body.error_code).toBe('PRODUCT_NOT_AVAILABLE');
    const bundle = await createOrder(
      { item_id: tee.id, upsells: [{ quantity: 5 }], ...ADDRESS },
      buyer.token,
    ).expect(422);
    expect(bundle.body.error_code).toBe('UNKNOWN_UPSELL');
    const many = await createOrder({ item_id: tee.id, quantity: 101, ...ADDRESS }, buyer.token).expect(400);
    expect(many.body.error_code).toBe('VALIDATION_FAILED');
    const none = await createOrder({ item_id: tee.id, quantity: 0, ...ADDRESS }, buyer.token).expect(400);
    expect(none.body.error_code).toBe('VALIDATION_FAILED');
    // Endpoint 4 sells raffles only: a product's id names nothing there.
    await api(w.t.app)
      .as(buyer.token)
      .post('/gatewaytwo/create-order', {
        item_id: tee.id,
        site_id: w.site,
        amount: 15,
        currency: 'GBP',
        description: 'tee',
      })
      .expect(404);
    expect(await counts()).toEqual(before);
  });

  it('sells the raffle when a raffle’s item_id equals a product’s id', async () => {
    const product = await productOn(w, { name: 'Twin' });
    const raffle = await raffleOn(w, { item_id: product.id });
    const buyer = await makeUser(w.t, w.site);
    const res = await createOrder({ item_id: product.id, quantity: 2 }, buyer.token).expect(200);
    const [payment] = await w.t.db.query(
      `SELECT purpose, raffle_id, amount_cents FROM payment_transactions WHERE id = $1`,
      [res.body.order_id],
    );
    expect(payment).toEqual({ purpose: 'raffle', raffle_id: raffle.id, amount_cents: 500 });
  });
});
