import { api } from '../support/api';
import { type SandboxApp, startSandboxApp } from '../support/sandbox-app';
import { makeSite, makeUser, uid } from '../support/factories';
import { linkToken } from '../support/smtp-sink';
import { makePublished } from '../support/raffles';

describe('a newcomer on the embedded default buys tickets through the sandbox form', () => {
  let t: SandboxApp;
  let base: string;
  beforeAll(async () => {
    t = await startSandboxApp();
    base = t.base;
  });
  afterAll(async () => {
    await t.close();
  });

  it('pays on the hosted page; the webhook enters the tickets, earns points and sends the e-mails', async () => {
    const site = await makeSite(t, { frontendUrl: null });
    const admin = await makeUser(t, site, { role: 'admin' });
    const raffle = await makePublished(t, admin.token);
    const email = `newcomer-${uid()}@example.com`;
    const order = await api(t.app)
      .post('/gatewayone/create-order', {
        item_id: raffle.item_id,
        site_id: site,
        quantity: 2,
        customer_email: email,
      })
      .expect(200);
    expect(order.body.environment).toBe('sandbox');
    const payUrl = `${base}/sandbox/gatewayone/pay/${order.body.checkout_id as string}`;
    expect(order.body.checkout_url).toBe(payUrl);
    const page = await fetch(payUrl);
    expect(await page.text()).toContain('5.00 GBP');
    const paid = await fetch(payUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'decision=pay',
      redirect: 'manual',
    });
    expect(paid.status).toBe(200);
    const next = await paid.text();
    expect(next).toContain('What happens next');
    expect(next).toContain(`${base}/docs#/admin:%20mail/listOutbox`);
    expect(next).toContain(`${base}/docs#/payments/getPayment`);
    expect(next).toContain(order.body.order_id as string);
    expect(next).toContain(`GET /admin/outbox?site_id=${site}`);
    await t.drain();

    const [payment] = await t.db.query(
      `SELECT status, webhook_received_at, user_id FROM payment_transactions WHERE id = $1`,
      [order.body.order_id],
    );
    expect(payment.status).toBe('succeeded');
    expect(payment.webhook_received_at).not.toBeNull();
    const entries = await t.db.query(
      `SELECT entries_count FROM raffle_entries WHERE payment_transaction_id = $1`,
      [order.body.order_id],
    );
    expect(entries).toEqual([{ entries_count: 2 }]);
    const [balance] = await t.db.query(`SELECT current_points FROM rewards_balances WHERE user_id = $1`, [
      payment.user_id,
    ]);
    expect(balance.current_points).toBe(5);
    const confirmed = await api(t.app)
      .post('/gatewayone/create-order', { confirmation_only: true, order_id: order.body.order_id })
      .expect(200);
    expect(confirmed.body).toMatchObject({ status: 'succeeded', checkout_url: payUrl });
    const subjects = t.smtp.to(email).map((m) => m.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Your 2 tickets'),
        expect.stringContaining('You are in the draw'),
      ]),
    );

    // The site has no front end: the e-mail's links lead to the sandbox's own pages for it.
    const purchase = t.smtp.to(email).find((m) => m.subject.startsWith('Your 2 tickets'));
    const token = linkToken(purchase!, 'set-password');
    expect(purchase!.text).toContain(`${base}/sandbox/sites/${site}/set-password?token=${token}`);
    const setPage = await fetch(`${base}/sandbox/sites/${site}/set-password?token=${token}`);
    expect(setPage.status).toBe(200);
    expect(await setPage.text()).toContain('Set my password');
    const home = await fetch(`${base}/sandbox/sites/${site}`);
    expect(await home.text()).toContain('My entries');
    expect((await fetch(`${base}/sandbox/sites/no-such-site`)).status).toBe(404);
  });

  it('says after a decline that nothing is entered', async () => {
    const site = await makeSite(t);
    const admin = await makeUser(t, site, { role: 'admin' });
    const raffle = await makePublished(t, admin.token);
    const order = await api(t.app)
      .post('/gatewayone/create-order', {
        item_id: raffle.item_id,
        site_id: site,
        customer_email: `decliner-${uid()}@example.com`,
      })
      .expect(200);
    const declined = await fetch(order.body.checkout_url as string, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'decision=decline',
    });
    const text = await declined.text();
    expect(text).toContain('Payment declined.');
    expect(text).toContain('nothing is');
  });

  it('answers a generic payment (endpoint 6) with the sandbox page to pay it at', async () => {
    const site = await makeSite(t);
    const buyer = await makeUser(t, site);
    const res = await api(t.app)
      .as(buyer.token)
      .post('/payments/create', { amount_cents: 1500, currency: 'GBP', payment_method: 'card' })
      .expect(200);
    expect(res.body.metadata.checkout_url).toBe(
      `${base}/sandbox/gatewayone/pay/${res.body.metadata.checkout_id as string}`,
    );
    expect((await fetch(res.body.metadata.checkout_url as string)).status).toBe(200);
  });

  it('sends a paid merch order to the sandbox’s own print-on-demand provider', async () => {
    const site = await makeSite(t, { frontendUrl: null });
    const admin = await makeUser(t, site, { role: 'admin' });
    const buyer = await makeUser(t, site);
    const product = await api(t.app)
      .as(admin.token)
      .post('/api/admin/merch/products', { name: 'Mug', sku: 'H-MUG-W', amount_cents: 899, currency: 'GBP' })
      .expect(201);
    const created = await api(t.app)
      .as(buyer.token)
      .post('/merch/orders', {
        items: [{ merch_product_id: product.body.id as string, copies: 1 }],
        recipient_name: 'Jane Doe',
        address_line1: '1 High Street',
        town_or_city: 'London',
        postal_or_zip_code: 'SW1A 1AA',
        country_code: 'GB',
      })
      .expect(201);
    const paid = await fetch(created.body.checkout_url as string, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'decision=pay',
      redirect: 'manual',
    });
    expect(paid.status).toBeLessThan(400);
    await t.drain();
    const order = await api(t.app)
      .as(admin.token)
      .get(`/api/admin/merch/orders/${created.body.merch_order.id as string}`)
      .expect(200);
    expect(order.body.status_stage).toBe('submitted');
    expect(order.body.fulfilment_order_id).toMatch(/^ord_/);
  });
});
