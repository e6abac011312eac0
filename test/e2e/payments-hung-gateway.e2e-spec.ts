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
 * Issue 15, faults: a gateway that accepts the connection and never answers. Each call a request makes to
 * it ends at the client's per-attempt timeout (300 ms here; 10 s in service, `timeoutMs`), so the buyer
 * gets 502 GATEWAY_UNAVAILABLE within the attempts the retry policy allows — reads three (pauses 100 and
 * 300 ms), creations and refunds one — and nothing is left half-done. payments-slow-gateway.e2e-spec.ts
 * covers a gateway that answers late (the work done, the answer lost); this one covers one that never
 * answers, on every gateway call made during a request, and times it.
 */
const TIMEOUT_MS = 300;
const BACKOFF_MS = 100 + 300;
/** Room for the request's own work and a slow shared machine. */
const MARGIN_MS = 1_500;
/** A read: three attempts and two pauses. */
const READ_MS = 3 * TIMEOUT_MS + BACKOFF_MS;

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

  it('gatewayone checkout (endpoint 3): 502 within its look-up, creation and second look-up; the order failed, no spend held', async () => {
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
    expect(ms).toBeLessThan(2 * READ_MS + TIMEOUT_MS + MARGIN_MS);
    expect(await paymentsOf(raffle.id)).toEqual([{ status: 'failed' }]);
    expect(await spentBy(buyer.user.id)).toBe(0);
  });

  it('gatewayone confirmation (endpoint 3): 502 within one read; nothing entered, and a later confirmation enters once', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    const { res, ms } = await hung('gatewayOne', () => confirm(w, order.order_id));
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error_code: 'GATEWAY_UNAVAILABLE' });
    expect(ms).toBeLessThan(READ_MS + MARGIN_MS);
    expect(await paymentsOf(raffle.id)).toEqual([{ status: 'pending' }]);
    const entries = () =>
      w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [order.order_id]);
    expect(await entries()).toHaveLength(0);
    await confirm(w, order.order_id).expect(200);
    expect(await entries()).toHaveLength(1);
  });

  it('gatewaytwo order (endpoint 4): 502 within one creation; the order failed, no spend held', async () => {
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
    expect(ms).toBeLessThan(READ_MS + TIMEOUT_MS + MARGIN_MS);
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
    expect(ms).toBeLessThan(READ_MS + TIMEOUT_MS + MARGIN_MS);
    const rows = await w.t.db.query<Array<{ status: string }>>(
      `SELECT status FROM payment_transactions WHERE user_id = $1`,
      [buyer.user.id],
    );
    expect(rows).toEqual([{ status: 'failed' }]);
  });

  it('an admin refund: 502 problem+json within one attempt; nothing refunded, and the refund can be asked again', async () => {
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
    expect(ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    const [row] = await w.t.db.query<Array<{ status: string }>>(
      `SELECT status FROM payment_transactions WHERE id = $1`,
      [order.order_id],
    );
    expect(row.status).toBe('succeeded');
    expect((await refund()).status).toBeLessThan(300);
  });
});
