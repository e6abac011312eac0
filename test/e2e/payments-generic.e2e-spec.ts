import { api } from '../support/api';
import { makeSite, makeUser, type MadeUser } from '../support/factories';
import {
  buyerWithLimit,
  type PaymentsWorld,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

const SPEC_FIELDS = [
  'id',
  'site_id',
  'gateway',
  'gateway_transaction_id',
  'currency',
  'description',
  'payment_method',
  'status',
  'created_at',
  'updated_at',
  'webhook_received_at',
  'user_id',
  'amount_cents',
  'fraud_score',
  'metadata',
];

describe('payment transactions (endpoint 6, GET /payments/{id}, GET /admin/payments)', () => {
  let w: PaymentsWorld;
  let buyer: MadeUser;
  beforeAll(async () => {
    w = await startPaymentsWorld();
    buyer = await makeUser(w.t, w.site);
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  const create = (token: string | undefined, body: Record<string, unknown>) =>
    api(w.t.app).as(token).post('/payments/create', body);
  const valid = { amount_cents: 1250, currency: 'GBP', payment_method: 'card' };

  it('records a pending payment for the caller and opens a card checkout at gatewayone', async () => {
    const res = await create(buyer.token, {
      ...valid,
      description: 'Top-up',
      metadata: { basket: 'b-1' },
    }).expect(200);
    for (const field of SPEC_FIELDS) expect(res.body).toHaveProperty(field);
    expect(res.body).toMatchObject({
      site_id: w.site,
      gateway: 'gatewayone',
      gateway_transaction_id: null,
      currency: 'GBP',
      description: 'Top-up',
      payment_method: 'card',
      status: 'pending',
      webhook_received_at: null,
      user_id: buyer.user.id,
      amount_cents: 1250,
      fraud_score: null,
      metadata: { basket: 'b-1', checkout_id: expect.any(String), checkout_url: expect.any(String) },
    });
    expect(new Date(res.body.created_at as string).toString()).not.toBe('Invalid Date');
    const checkout = w.fakes.gatewayOne.checkoutFor(res.body.id);
    expect(checkout).toMatchObject({ id: res.body.metadata.checkout_id, amount: '12.50', currency: 'GBP' });
    const [row] = await w.t.db.query(`SELECT status, user_id FROM payment_transactions WHERE id = $1`, [
      res.body.id,
    ]);
    expect(row).toEqual({ status: 'pending', user_id: buyer.user.id });
  });

  it.each(['apple_pay', 'google_pay'])('sends %s to gatewayone', async (method) => {
    const res = await create(buyer.token, { ...valid, payment_method: method }).expect(200);
    expect(res.body).toMatchObject({ gateway: 'gatewayone', payment_method: method });
    expect(w.fakes.gatewayOne.checkoutFor(res.body.id)).toBeDefined();
  });

  it('sends revolut_pay to gatewaytwo with the amount in minor units and answers its checkout URL', async () => {
    const res = await create(buyer.token, {
      ...valid,
      amount_cents: 999,
      payment_method: 'revolut_pay',
    }).expect(200);
    expect(res.body).toMatchObject({
      gateway: 'gatewaytwo',
      payment_method: 'revolut_pay',
      amount_cents: 999,
    });
    const order = w.fakes.gatewayTwo.orderFor(res.body.id);
    expect(order).toMatchObject({ amount: 999, currency: 'GBP' });
    expect(res.body.metadata).toMatchObject({
      checkout_id: order!.id,
      checkout_url: expect.stringContaining(`/pay/${order!.id}`),
    });
  });

  it('leaves pending by the same webhook path as any order', async () => {
    const res = await create(buyer.token, { ...valid, payment_method: 'revolut_pay' }).expect(200);
    const orderId = res.body.metadata.checkout_id as string;
    w.fakes.gatewayTwo.complete(orderId);
    expect(await w.fakes.gatewayTwo.deliverWebhook(orderId)).toBe(200);
    await w.t.drain();
    const after = await api(w.t.app).as(buyer.token).get(`/payments/${res.body.id}`).expect(200);
    expect(after.body.status).toBe('succeeded');
    expect(after.body.webhook_received_at).not.toBeNull();
  });

  it('takes user_id from the token: a body user_id is an unknown field (400)', async () => {
    const other = await makeUser(w.t, w.site);
    const res = await create(buyer.token, { ...valid, user_id: other.user.id }).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it.each([
    ['an unknown currency', { currency: 'XYZ' }],
    ['a two-letter currency', { currency: 'GB' }],
    ['a numeric currency', { currency: 826 }],
    ['an unknown payment method', { payment_method: 'paypal' }],
    ['a zero amount', { amount_cents: 0 }],
    ['a negative amount', { amount_cents: -5 }],
    ['a fractional amount', { amount_cents: 12.5 }],
    ['an amount as text', { amount_cents: '1250' }],
    ['metadata that is not an object', { metadata: 'x' }],
  ])('refuses %s with 400', async (_label, change) => {
    const res = await create(buyer.token, { ...valid, ...change }).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it.each(['amount_cents', 'currency', 'payment_method'])(
    'refuses a body without %s (400)',
    async (field) => {
      const body = Object.fromEntries(Object.entries(valid).filter(([key]) => key !== field));
      const res = await create(buyer.token, body).expect(400);
      expect(JSON.stringify(res.body)).toContain(field);
    },
  );

  it('accepts the smallest amount, 1 cent', async () => {
    const res = await create(buyer.token, { ...valid, amount_cents: 1 }).expect(200);
    expect(res.body.amount_cents).toBe(1);
    expect(w.fakes.gatewayOne.checkoutFor(res.body.id)?.amount).toBe('0.01');
  });

  it('needs a token (401) and stores nothing without one', async () => {
    const before = await w.t.db.query(`SELECT count(*)::int AS n FROM payment_transactions`);
    await create(undefined, valid).expect(401);
    const after = await w.t.db.query(`SELECT count(*)::int AS n FROM payment_transactions`);
    expect(after[0].n).toBe(before[0].n);
  });

  it('replays a repeated request with the same Idempotency-Key: one payment, one checkout', async () => {
    const key = `pay-${Date.now()}-${Math.random()}`;
    const first = await create(buyer.token, valid).set('Idempotency-Key', key).expect(200);
    const again = await create(buyer.token, valid).set('Idempotency-Key', key).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const reused = await create(buyer.token, { ...valid, amount_cents: 1 })
      .set('Idempotency-Key', key)
      .expect(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const checkouts = [...w.fakes.gatewayOne.payments.values()].filter(
      (c) => c.merchantTransactionId === first.body.id,
    );
    expect(checkouts).toHaveLength(1);
  });

  it('takes the currency in any case and stores it as its ISO code', async () => {
    const res = await create(buyer.token, { ...valid, currency: 'eur' }).expect(200);
    expect(res.body.currency).toBe('EUR');
  });

  it('refuses (400) metadata naming the service’s own keys: a client cannot mark its payment paused, or pose as a purpose', async () => {
    const before = await w.t.db.query(`SELECT count(*)::int AS n FROM payment_transactions`);
    const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const res = await create(buyer.token, {
      ...valid,
      metadata: { buyer_paused_until: future, kind: 'start' },
    }).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'metadata.buyer_paused_until',
      'metadata.kind',
    ]);
    const after = await w.t.db.query(`SELECT count(*)::int AS n FROM payment_transactions`);
    expect(after[0].n).toBe(before[0].n);
  });

  it('refuses a self-paused buyer (422 SELF_PAUSED) and one past the spend limit (422)', async () => {
    const paused = await makeUser(w.t, w.site);
    await api(w.t.app)
      .as(paused.token)
      .put('/users/me/limits', { paused_until: new Date(Date.now() + 86_400_000).toISOString() })
      .expect(200);
    expect((await create(paused.token, valid).expect(422)).body.code).toBe('SELF_PAUSED');
    const limited = await buyerWithLimit(w, 1000);
    expect((await create(limited.token, valid).expect(422)).body.code).toBe('SPEND_LIMIT_REACHED');
    const rows = await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE user_id = ANY($1)`, [
      [paused.user.id, limited.user.id],
    ]);
    expect(rows).toHaveLength(0);
  });

  describe('reading a payment', () => {
    let paymentId: string;
    beforeAll(async () => {
      paymentId = (await create(buyer.token, valid).expect(200)).body.id as string;
    });

    it('shows the owner its payment', async () => {
      const res = await api(w.t.app).as(buyer.token).get(`/payments/${paymentId}`).expect(200);
      for (const field of SPEC_FIELDS) expect(res.body).toHaveProperty(field);
      expect(res.body).toMatchObject({ id: paymentId, user_id: buyer.user.id });
      expect(JSON.stringify(res.body)).not.toMatch(/gateway_response|spend_month|order_details/);
    });

    it('answers 404 to another user of the same site', async () => {
      const stranger = await makeUser(w.t, w.site);
      await api(w.t.app).as(stranger.token).get(`/payments/${paymentId}`).expect(404);
    });

    it('shows the site’s admin the payment, and answers 404 to another site’s admin', async () => {
      await api(w.t.app).as(w.admin.token).get(`/payments/${paymentId}`).expect(200);
      const elsewhere = await makeUser(w.t, await makeSite(w.t), { role: 'admin' });
      await api(w.t.app).as(elsewhere.token).get(`/payments/${paymentId}`).expect(404);
    });

    it('shows a superadmin any site’s payment', async () => {
      const root = await makeUser(w.t, await makeSite(w.t), { role: 'superadmin' });
      await api(w.t.app).as(root.token).get(`/payments/${paymentId}`).expect(200);
    });

    it('answers 404 to a malformed or unknown id, 401 without a token', async () => {
      await api(w.t.app).as(buyer.token).get('/payments/not-a-uuid').expect(404);
      await api(w.t.app).as(buyer.token).get('/payments/00000000-0000-4000-8000-000000000000').expect(404);
      await api(w.t.app).get(`/payments/${paymentId}`).expect(401);
    });
  });

  describe('the admin list', () => {
    it('lists the site’s payments by status, newest first, and nothing of other sites', async () => {
      const otherSite = await makeSite(w.t);
      const outsider = await makeUser(w.t, otherSite);
      const foreign = (await create(outsider.token, valid).expect(200)).body.id as string;
      const mine = (await create(buyer.token, valid).expect(200)).body.id as string;
      const res = await api(w.t.app)
        .as(w.admin.token)
        .get('/admin/payments?status=pending&limit=100')
        .expect(200);
      const ids = (res.body as Array<{ id: string; status: string; site_id: string }>).map((p) => p.id);
      expect(ids[0]).toBe(mine);
      expect(ids).not.toContain(foreign);
      for (const p of res.body as Array<{ status: string; site_id: string }>) {
        expect(p).toMatchObject({ status: 'pending', site_id: w.site });
      }
      const succeeded = await api(w.t.app)
        .as(w.admin.token)
        .get('/admin/payments?status=succeeded')
        .expect(200);
      expect((succeeded.body as Array<{ id: string }>).map((p) => p.id)).not.toContain(mine);
    });

    it('lists every status without a filter, and pages through the list with X-Next-Cursor', async () => {
      const site = await makeSite(w.t);
      const admin = await makeUser(w.t, site, { role: 'admin' });
      const payer = await makeUser(w.t, site);
      const made: string[] = [];
      for (let i = 0; i < 3; i++) made.push((await create(payer.token, valid).expect(200)).body.id as string);
      const page1 = await api(w.t.app).as(admin.token).get('/admin/payments?limit=2').expect(200);
      expect(page1.body).toHaveLength(2);
      const cursor = page1.headers['x-next-cursor'];
      expect(cursor).toBeTruthy();
      const page2 = await api(w.t.app)
        .as(admin.token)
        .get(`/admin/payments?limit=2&cursor=${cursor}`)
        .expect(200);
      const seen = [...(page1.body as Array<{ id: string }>), ...(page2.body as Array<{ id: string }>)].map(
        (p) => p.id,
      );
      expect(seen).toEqual([...made].reverse());
    });

    it('refuses a user (403), another site’s admin naming this site (403), and a bad status (400)', async () => {
      await api(w.t.app).as(buyer.token).get('/admin/payments').expect(403);
      const elsewhere = await makeUser(w.t, await makeSite(w.t), { role: 'admin' });
      await api(w.t.app).as(elsewhere.token).get(`/admin/payments?site_id=${w.site}`).expect(403);
      await api(w.t.app).as(w.admin.token).get('/admin/payments?status=paid').expect(400);
    });
  });
});
