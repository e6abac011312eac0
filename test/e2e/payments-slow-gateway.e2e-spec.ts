import { api } from '../support/api';
import { makeUser } from '../support/factories';
import {
  confirm,
  orderAsUser,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

describe('a slow gateway (answers after the client gives up)', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld({ gatewayTimeoutMs: 300 });
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  it('answers 502 to the buyer when opening the checkout times out, and holds nothing open', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    w.fakes.gatewayOne.setLatency(1000);
    try {
      const res = await api(w.t.app)
        .as(buyer.token)
        .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site })
        .expect(502);
      expect(res.body).toMatchObject({ success: false, error_code: 'GATEWAY_UNAVAILABLE' });
    } finally {
      w.fakes.gatewayOne.setLatency(0);
    }
    const rows = await w.t.db.query(`SELECT status FROM payment_transactions WHERE raffle_id = $1`, [
      raffle.id,
    ]);
    expect(rows).toEqual([{ status: 'failed' }]);
    const [spend] = await w.t.db.query(
      `SELECT coalesce(sum(spent_cents), 0)::int AS spent FROM user_monthly_spend WHERE user_id = $1`,
      [buyer.user.id],
    );
    expect(spend.spent).toBe(0);
  });

  it('answers 502 to a confirmation the gateway is too slow to answer, and settles the payment once it answers', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    w.fakes.gatewayOne.setLatency(1000);
    try {
      const slow = await confirm(w, order.order_id).expect(502);
      expect(slow.body).toMatchObject({ success: false, error_code: 'GATEWAY_UNAVAILABLE' });
    } finally {
      w.fakes.gatewayOne.setLatency(0);
    }
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [order.order_id]),
    ).toHaveLength(0);
    const again = await confirm(w, order.order_id).expect(200);
    expect(again.body.status).toBe('succeeded');
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [order.order_id]),
    ).toHaveLength(1);
  });
});
