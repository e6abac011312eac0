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

/**
 * Issue 15, faults: a gateway that accepts the connection and never answers holds no request past the
 * client's timeout (1.5 s here; 10 s in service, `timeoutMs`): a call and its retries share that one
 * budget, and so do the look-ups and the creation of a checkout. The buyer gets 502 GATEWAY_UNAVAILABLE
 * and nothing is left half-done. payments-slow-gateway.e2e-spec.ts covers a gateway that answers late
 * (the work done, the answer lost); this one covers one that never answers, on every gateway call made
 * during a request, and times it.
 */
const TIMEOUT_MS = 1_500;
/**
 * Room for the request's own work on a slow shared machine, and less than a second timeout: an answer
 * inside it proves that nothing waited twice.
 */
const MARGIN_MS = 1_200;
/** Each hung request waited for the timeout, and not for a second one. */
const heldForOneTimeout = (ms: number) => {
  expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  expect(ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
};

describe('a gateway that never answers (issue 15, faults)', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld({ gatewayTimeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    w.fakes.gatewayOne.comeUp();
    w.fakes.gatewayTwo.comeUp();
    await stopPaymentsWorld(w);
  });

  /** Runs `send` with `gateway` hung; answers the response and how long it took. */
  async function hung<R>(gateway: 'gatewayOne' | 'gatewayTwo', send: () => Promise<R>) {
    w.fakes[gateway].goDown('hang');
    const started = Date.now();
    try {
      const res = await send();
      return { res, ms: Date.now() - started };
    } finally {
      w.fakes[gateway].comeUp();
    }
  }

  const paymentsOf = (raffleId: string) =>
    w.t.db.query<Array<{ status: string }>>(`SELECT status FROM payment_transactions WHERE raffle_id = $1`, [
      raffleId,
    ]);
  const spentBy = async (userId: string) =>
    (
      await w.t.db.query<Array<{ spent: number }>>(
        `SELECT coalesce(sum(spent_cents), 0)::int AS spent FROM user_monthly_spend WHERE user_id = $1`,
        [userId],
      )
    )[0].spent;

  it('gatewayone checkout (endpoint 3): 502 within one timeout for its look-ups and creation together; the order failed, no spend held', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const { res, ms } = await hung('gatewayOne', () =>
      api(w.t.app)
        .as(buyer.token)
        .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site }),
    );
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error_code: 'GATEWAY_UNAVAILABLE' });
    // createCheckoutOnce: look up by our reference (a read), create (once), look up again.
    heldForOneTimeout(ms);
    expect(await paymentsOf(raffle.id)).toEqual([{ status: 'failed' }]);
    expect(await spentBy(buyer.user.id)).toBe(0);
  });

  it('gatewayone confirmation (endpoint 3): 502 within one timeout, retries included; nothing entered, and a later confirmation enters once', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    const { res, ms } = await hung('gatewayOne', () => confirm(w, order.order_id));
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error_code: 'GATEWAY_UNAVAILABLE' });
    heldForOneTimeout(ms);
    expect(await paymentsOf(raffle.id)).toEqual([{ status: 'pending' }]);
    const entries = () =>
      w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [order.order_id]);
    expect(await entries()).toHaveLength(0);
    await confirm(w, order.order_id).expect(200);
    expect(await entries()).toHaveLength(1);
  });

  it('gatewaytwo order (endpoint 4): 502 within one timeout; the order failed, no spend held', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const { res, ms } = await hung('gatewayTwo', () =>
      api(w.t.app).as(buyer.token).post('/gatewaytwo/create-order', {
        item_id: raffle.item_id,
        site_id: w.site,
        quantity: 1,
        amount: 2.5,
        currency: 'GBP',
        description: '1 ticket',
      }),
    );
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error_code: 'GATEWAY_UNAVAILABLE' });
    heldForOneTimeout(ms);
    expect(await paymentsOf(raffle.id)).toEqual([{ status: 'failed' }]);
    expect(await spentBy(buyer.user.id)).toBe(0);
  });

  it('a payment at gatewaytwo (endpoint 6, revolut_pay): 502 problem+json in time; the payment failed', async () => {
    const buyer = await makeUser(w.t, w.site);
    const { res, ms } = await hung('gatewayTwo', () =>
      api(w.t.app)
        .as(buyer.token)
        .post('/payments/create', { amount_cents: 1250, currency: 'GBP', payment_method: 'revolut_pay' }),
    );
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'GATEWAY_UNAVAILABLE' });
    heldForOneTimeout(ms);
    const rows = await w.t.db.query<Array<{ status: string }>>(
      `SELECT status FROM payment_transactions WHERE user_id = $1`,
      [buyer.user.id],
    );
    expect(rows).toEqual([{ status: 'failed' }]);
  });

  it('an admin refund: 502 problem+json within one timeout; held until the gateway is asked, then it can be asked again', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    await confirm(w, order.order_id).expect(200);
    const refund = () =>
      api(w.t.app).as(w.admin.token).post(`/admin/payments/${order.order_id}/refund`, { reason: 'asked' });
    const { res, ms } = await hung('gatewayOne', refund);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'GATEWAY_UNAVAILABLE' });
    heldForOneTimeout(ms);
    const [row] = await w.t.db.query<Array<{ status: string }>>(
      `SELECT status FROM payment_transactions WHERE id = $1`,
      [order.order_id],
    );
    expect(row.status).toBe('succeeded');
    // A request the gateway read and never answered may have been acted on: the amount stays held, and
    // asking again at once is refused rather than sent a second time.
    expect((await refund()).status).toBe(422);
    // The reconciliation asks the gateway, which refunded nothing: the amount is free again.
    await w.t.db.query(
      `UPDATE payment_transactions SET refund_reserved_at = now() - interval '3 minutes' WHERE id = $1`,
      [order.order_id],
    );
    const root = await makeUser(w.t, w.site, { role: 'superadmin' });
    await api(w.t.app).as(root.token).post('/admin/jobs/reconciliation/run').expect(200);
    expect((await refund()).status).toBeLessThan(300);
  });
});
