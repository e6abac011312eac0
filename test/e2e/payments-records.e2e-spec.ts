import { api } from '../support/api';
import { RAFFLE_ENTRY_FIELDS } from '../support/raffles';
import { makeUser, uid } from '../support/factories';
import {
  confirm,
  orderAsUser,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

describe('orders with an Idempotency-Key, and what a purchase adds to the User record', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  const order = (token: string | undefined, key: string, body: Record<string, unknown>) =>
    api(w.t.app).as(token).post('/gatewayone/create-order', body).set('Idempotency-Key', key);

  it('replays the first answer to the same key and body: one order, one payment row', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const key = `order-${uid()}`;
    const body = { item_id: raffle.item_id, site_id: w.site, quantity: 2 };
    const first = await order(buyer.token, key, body).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await order(buyer.token, key, body).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await w.t.db.query(`SELECT id FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]);
    expect(rows).toEqual([{ id: first.body.order_id }]);
    expect(w.fakes.gatewayOne.checkoutFor(first.body.order_id as string)).toBeDefined();
  });

  it('refuses the same key with another body (422 IDEMPOTENCY_KEY_REUSED, order shape)', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const key = `order-${uid()}`;
    await order(buyer.token, key, { item_id: raffle.item_id, site_id: w.site, quantity: 1 }).expect(200);
    const res = await order(buyer.token, key, {
      item_id: raffle.item_id,
      site_id: w.site,
      quantity: 3,
    }).expect(422);
    expect(res.body).toMatchObject({
      success: false,
      error_code: 'IDEMPOTENCY_KEY_REUSED',
      error: expect.any(String),
      message: expect.any(String),
    });
    const rows = await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]);
    expect(rows).toHaveLength(1);
  });

  it('scopes a key to its caller: another buyer with the same key gets an order of their own', async () => {
    const raffle = await raffleOn(w);
    const [a, b] = [await makeUser(w.t, w.site), await makeUser(w.t, w.site)];
    const key = `order-${uid()}`;
    const body = { item_id: raffle.item_id, site_id: w.site };
    const first = await order(a.token, key, body).expect(200);
    const second = await order(b.token, key, body).expect(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.order_id).not.toBe(first.body.order_id);
  });

  it('replays a refusal too: the same AMOUNT_MISMATCH, still nothing stored', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const key = `order-${uid()}`;
    const body = { item_id: raffle.item_id, site_id: w.site, amount: 1 };
    const first = await order(buyer.token, key, body).expect(422);
    const again = await order(buyer.token, key, body).expect(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(
      await w.t.db.query(`SELECT 1 FROM payment_transactions WHERE raffle_id = $1`, [raffle.id]),
    ).toHaveLength(0);
  });

  it('nests the payment with its points, and the entry with its raffle, in GET /users/me', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const placed = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(placed.checkout_id);
    await confirm(w, placed.order_id).expect(200);

    const me = await api(w.t.app).as(buyer.token).get('/users/me').expect(200);
    const payments = me.body.payment_transactions as Array<Record<string, unknown>>;
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      id: placed.order_id,
      user_id: buyer.user.id,
      site_id: w.site,
      gateway: 'gatewayone',
      status: 'succeeded',
      amount_cents: 500,
      currency: 'GBP',
      subscription_id: null,
      subscription: null,
      points: [
        expect.objectContaining({
          amount: 5,
          transaction_type: 'earn',
          payment_transaction_id: placed.order_id,
          user_id: buyer.user.id,
        }),
      ],
    });
    for (const field of ['ip_address', 'user_agent', 'webhook_data', 'fraud_score', 'metadata'])
      expect(payments[0]).toHaveProperty(field);
    expect(JSON.stringify(payments[0])).not.toMatch(/gateway_response|order_details|spend_month/);

    const entries = me.body.raffle_entries as Array<Record<string, unknown>>;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      raffle_id: raffle.id,
      user_id: buyer.user.id,
      site_id: w.site,
      entries_count: 2,
      points_spent: 0,
      raffle: expect.objectContaining({ id: raffle.id, item_id: raffle.item_id, name: raffle.name }),
    });
    // Every field of the spec's Raffle entry (DESIGN §4: never omit one); `user` is the record it is nested in.
    expect(Object.keys(entries[0]).sort()).toEqual(RAFFLE_ENTRY_FIELDS);
    expect(entries[0].user).toBeNull();
    expect(me.body.points).toEqual([expect.objectContaining({ amount: 5, transaction_type: 'earn' })]);
  });

  it('shows a pending order in the User record without points or entries', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const placed = await orderAsUser(w, buyer.token, raffle.item_id);
    const me = await api(w.t.app).as(buyer.token).get('/users/me').expect(200);
    expect(me.body.payment_transactions).toEqual([
      expect.objectContaining({ id: placed.order_id, status: 'pending', points: [] }),
    ]);
    expect(me.body.raffle_entries).toEqual([]);
  });
});
