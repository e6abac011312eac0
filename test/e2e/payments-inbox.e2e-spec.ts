import { randomBytes, randomUUID } from 'node:crypto';
import { DECLINE_CODE, SUCCESS_CODE } from '#app/infra/providers/gatewayone/fake/fake-gatewayone.js';
import { encryptWebhook } from '#app/infra/providers/gatewayone/gatewayone.rules.js';
import { api } from '../support/api';
import { makeSite, makeUser, type MadeUser } from '../support/factories';
import { makePublished } from '../support/raffles';
import {
  buyerWithLimit,
  orderAsUser,
  type PaymentsWorld,
  raffleOn,
  spentThisMonth,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

interface EventBody {
  id: string;
  provider: string;
  status: string;
  site_id: string | null;
  payment_transaction_id: string | null;
  payload: Record<string, unknown>;
}

describe('the webhook inbox, its admin view and replay, and events out of order', () => {
  let w: PaymentsWorld;
  let superadmin: MadeUser;
  let otherSite: string;
  let otherAdmin: MadeUser;
  beforeAll(async () => {
    w = await startPaymentsWorld();
    superadmin = await makeUser(w.t, w.site, { role: 'superadmin' });
    otherSite = await makeSite(w.t);
    otherAdmin = await makeUser(w.t, otherSite, { role: 'admin' });
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  /** A gatewayone purchase paid and announced by webhook, processed; answers its ids. */
  const paidByWebhook = async (site: string, adminToken: string) => {
    const raffle = await makePublished(w.t, adminToken);
    const buyer = await makeUser(w.t, site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { site_id: site, quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id)).toBe(200);
    await w.t.drain();
    const [event] = await w.t.db.query<Array<{ id: string }>>(
      `SELECT id FROM inbound_events WHERE payload->'payload'->>'ndc' = $1`,
      [order.checkout_id],
    );
    return { buyer, raffle, order, eventId: event.id };
  };
  const list = async (token: string, query = '') => {
    const res = await api(w.t.app).as(token).get(`/admin/inbound-events?limit=100${query}`).expect(200);
    return res.body as EventBody[];
  };
  /** Posts a gatewayone event we encrypt ourselves with the configured key. */
  const postEvent = (event: Record<string, unknown>) => {
    const sealed = encryptWebhook(event, w.fakes.config.gatewayOne.webhookKey);
    return api(w.t.app)
      .post('/gatewayone/webhook', { encryptedBody: sealed.encryptedBody })
      .set('X-Initialization-Vector', sealed.ivHex)
      .set('X-Authentication-Tag', sealed.tagHex);
  };

  it('shows an admin the processed events of their own site only; a superadmin sees every site’s', async () => {
    const mine = await paidByWebhook(w.site, w.admin.token);
    const theirs = await paidByWebhook(otherSite, otherAdmin.token);

    const adminView = await list(w.admin.token, '&provider=gatewayone');
    const adminIds = adminView.map((e) => e.id);
    expect(adminIds).toContain(mine.eventId);
    expect(adminIds).not.toContain(theirs.eventId);
    for (const e of adminView) expect(e).toMatchObject({ provider: 'gatewayone', site_id: w.site });
    expect(adminView.find((e) => e.id === mine.eventId)).toMatchObject({
      status: 'processed',
      payment_transaction_id: mine.order.order_id,
    });

    const rootView = (await list(superadmin.token, '&provider=gatewayone')).map((e) => e.id);
    expect(rootView).toEqual(expect.arrayContaining([mine.eventId, theirs.eventId]));
    expect((await list(w.admin.token, '&provider=gatewaytwo')).map((e) => e.id)).not.toContain(mine.eventId);

    // A superadmin naming a site, by the query or by X-Site-Id as every admin route takes it, sees that site's.
    const byQuery = (await list(superadmin.token, `&site_id=${otherSite}`)).map((e) => e.id);
    expect(byQuery).toContain(theirs.eventId);
    expect(byQuery).not.toContain(mine.eventId);
    const byHeader = await api(w.t.app)
      .as(superadmin.token)
      .get('/admin/inbound-events?limit=100')
      .set('X-Site-Id', w.site)
      .expect(200);
    const headerIds = (byHeader.body as EventBody[]).map((e) => e.id);
    expect(headerIds).toContain(mine.eventId);
    expect(headerIds).not.toContain(theirs.eventId);
    await api(w.t.app)
      .as(superadmin.token)
      .get(`/admin/inbound-events?site_id=${'x'.repeat(65)}`)
      .expect(400);
  });

  it('keeps events matching no payment of ours to superadmins', async () => {
    const paymentId = randomBytes(16).toString('hex');
    await postEvent({
      type: 'PAYMENT',
      payload: {
        id: paymentId,
        ndc: randomBytes(16).toString('hex'),
        merchantTransactionId: randomUUID(),
        result: { code: '000.100.110' },
        amount: '5.00',
        currency: 'GBP',
      },
    }).expect(200);
    await w.t.drain();
    const [stored] = await w.t.db.query<Array<{ id: string; status: string }>>(
      `SELECT id, status FROM inbound_events WHERE payload->'payload'->>'id' = $1`,
      [paymentId],
    );
    expect(stored.status).toBe('ignored');
    expect((await list(w.admin.token)).map((e) => e.id)).not.toContain(stored.id);
    expect((await list(superadmin.token, '&status=ignored')).map((e) => e.id)).toContain(stored.id);
  });

  it('refuses the inbox to users (403) and a bad filter (400)', async () => {
    const user = await makeUser(w.t, w.site);
    await api(w.t.app).as(user.token).get('/admin/inbound-events').expect(403);
    await api(w.t.app).as(w.admin.token).get('/admin/inbound-events?provider=paypal').expect(400);
    await api(w.t.app).as(w.admin.token).get('/admin/inbound-events?status=done').expect(400);
    await api(w.t.app).as(w.admin.token).get(`/admin/inbound-events?site_id=${otherSite}`).expect(403);
  });

  it('replays an event harmlessly: still one entry and one earn', async () => {
    const { buyer, order, eventId } = await paidByWebhook(w.site, w.admin.token);
    const res = await api(w.t.app)
      .as(w.admin.token)
      .post(`/admin/inbound-events/${eventId}/replay`)
      .expect(200);
    expect(res.body).toMatchObject({ id: eventId, provider: 'gatewayone' });
    await w.t.drain();
    const [event] = await w.t.db.query(`SELECT status FROM inbound_events WHERE id = $1`, [eventId]);
    expect(event.status).toBe('processed');
    expect(
      await w.t.db.query(`SELECT entries_count FROM raffle_entries WHERE payment_transaction_id = $1`, [
        order.order_id,
      ]),
    ).toEqual([{ entries_count: 2 }]);
    expect(
      await w.t.db.query(`SELECT amount FROM point_transactions WHERE payment_transaction_id = $1`, [
        order.order_id,
      ]),
    ).toEqual([{ amount: 5 }]);
    const purchaseMails = w.t.smtp.to(buyer.email).filter((m) => m.subject.startsWith('Your 2 tickets'));
    expect(purchaseMails).toHaveLength(1);
  });

  it('refuses replay to another site’s admin (404), a user (403), and a malformed id (404)', async () => {
    const { buyer, eventId } = await paidByWebhook(w.site, w.admin.token);
    await api(w.t.app).as(otherAdmin.token).post(`/admin/inbound-events/${eventId}/replay`).expect(404);
    await api(w.t.app).as(buyer.token).post(`/admin/inbound-events/${eventId}/replay`).expect(403);
    await api(w.t.app).as(w.admin.token).post('/admin/inbound-events/nope/replay').expect(404);
  });

  it('keeps a payment succeeded when a failure event arrives after the success', async () => {
    const { order } = await paidByWebhook(w.site, w.admin.token);
    const success = w.fakes.gatewayOne.webhookEvent(order.checkout_id) as {
      type: string;
      payload: Record<string, unknown>;
    };
    const failure = { ...success, payload: { ...success.payload, result: { code: DECLINE_CODE } } };
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id, { event: failure })).toBe(200);
    await w.t.drain();
    const [row] = await w.t.db.query(`SELECT status, fulfilment FROM payment_transactions WHERE id = $1`, [
      order.order_id,
    ]);
    expect(row).toEqual({ status: 'succeeded', fulfilment: 'entered' });
    const events = await w.t.db.query(
      `SELECT status FROM inbound_events WHERE payload->'payload'->>'ndc' = $1 ORDER BY created_at`,
      [order.checkout_id],
    );
    expect(events).toEqual([{ status: 'processed' }, { status: 'processed' }]);
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [order.order_id]),
    ).toHaveLength(1);
  });

  it('keeps the attempt that took the money when an earlier attempt’s decline is announced late', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 }); // £5.00
    // The first attempt on the hosted form is declined; its event waits in the gateway's queue.
    w.fakes.gatewayOne.complete(order.checkout_id, DECLINE_CODE);
    const lateDecline = w.fakes.gatewayOne.webhookEvent(order.checkout_id);
    // The shopper tries again and pays; that success is announced first.
    w.fakes.gatewayOne.complete(order.checkout_id);
    const paidAttempt = w.fakes.gatewayOne.payments.get(order.checkout_id)?.paymentId;
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id)).toBe(200);
    await w.t.drain();
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id, { event: lateDecline })).toBe(200);
    await w.t.drain();

    const [row] = await w.t.db.query(
      `SELECT status, gateway_transaction_id, webhook_data->'payload'->'result'->>'code' AS code
         FROM payment_transactions WHERE id = $1`,
      [order.order_id],
    );
    expect(row).toEqual({ status: 'succeeded', gateway_transaction_id: paidAttempt, code: SUCCESS_CODE });
    // So a refund reaches the payment that took the money.
    await api(w.t.app)
      .as(w.admin.token)
      .post(`/admin/payments/${order.order_id}/refund`, { reason: 'Asked' })
      .expect(200);
    expect(w.fakes.gatewayOne.payments.get(order.checkout_id)?.refunds.map((r) => r.amount)).toEqual([
      '5.00',
    ]);
  });

  it('accepts a success after a failure: the tickets are entered and the spend counts again', async () => {
    const raffle = await raffleOn(w);
    const buyer = await buyerWithLimit(w, 500);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 }); // £5.00, the whole limit
    w.fakes.gatewayOne.complete(order.checkout_id, DECLINE_CODE);
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id)).toBe(200);
    await w.t.drain();
    const [failed] = await w.t.db.query(`SELECT status FROM payment_transactions WHERE id = $1`, [
      order.order_id,
    ]);
    expect(failed.status).toBe('failed');
    // The shopper tries again on the same checkout and pays: the gateway took the money.
    w.fakes.gatewayOne.complete(order.checkout_id);
    expect(await w.fakes.gatewayOne.deliverWebhook(order.checkout_id)).toBe(200);
    await w.t.drain();
    const [paid] = await w.t.db.query(`SELECT status FROM payment_transactions WHERE id = $1`, [
      order.order_id,
    ]);
    expect(paid.status).toBe('succeeded');
    expect(
      await w.t.db.query(`SELECT entries_count FROM raffle_entries WHERE payment_transaction_id = $1`, [
        order.order_id,
      ]),
    ).toEqual([{ entries_count: 2 }]);
    expect(await spentThisMonth(w, buyer.token)).toBe(500);
    const more = await api(w.t.app)
      .as(buyer.token)
      .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site, quantity: 1 })
      .expect(422);
    expect(more.body.error_code).toBe('SPEND_LIMIT_REACHED');
  });

  it('keeps a gatewaytwo payment succeeded when a cancellation event arrives after the success', async () => {
    const buyer = await makeUser(w.t, w.site);
    const raffle = await raffleOn(w);
    const res = await api(w.t.app)
      .as(buyer.token)
      .post('/gatewaytwo/create-order', {
        item_id: raffle.item_id,
        site_id: w.site,
        amount: 2.5,
        currency: 'GBP',
        description: '1 ticket',
      })
      .expect(200);
    const orderId = w.fakes.gatewayTwo.orderFor(res.body.order_id)!.id;
    w.fakes.gatewayTwo.complete(orderId);
    await w.fakes.gatewayTwo.deliverWebhook(orderId);
    await w.t.drain();
    expect(await w.fakes.gatewayTwo.deliverWebhook(orderId, { event: 'ORDER_CANCELLED' })).toBe(200);
    await w.t.drain();
    const [row] = await w.t.db.query(`SELECT status FROM payment_transactions WHERE id = $1`, [
      res.body.order_id,
    ]);
    expect(row.status).toBe('succeeded');
  });

  it('shows an admin their site’s event that failed while the gateway was down, and replays it once back', async () => {
    const buyer = await makeUser(w.t, w.site);
    const raffle = await raffleOn(w);
    const res = await api(w.t.app)
      .as(buyer.token)
      .post('/gatewaytwo/create-order', {
        item_id: raffle.item_id,
        site_id: w.site,
        amount: 2.5,
        currency: 'GBP',
        description: '1 ticket',
      })
      .expect(200);
    const orderId = w.fakes.gatewayTwo.orderFor(res.body.order_id)!.id;
    w.fakes.gatewayTwo.complete(orderId);
    w.fakes.gatewayTwo.goDown('unavailable');
    try {
      expect(await w.fakes.gatewayTwo.deliverWebhook(orderId)).toBe(200);
      await w.t.drain();
    } finally {
      w.fakes.gatewayTwo.comeUp();
    }
    const failed = (await list(w.admin.token, '&provider=gatewaytwo&status=failed')).find(
      (e) => e.payload.order_id === orderId,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      payment_transaction_id: res.body.order_id,
      site_id: w.site,
    });
    expect((await list(otherAdmin.token, '&status=failed')).map((e) => e.id)).not.toContain(failed!.id);

    await api(w.t.app).as(w.admin.token).post(`/admin/inbound-events/${failed!.id}/replay`).expect(200);
    await w.t.drain();
    const [row] = await w.t.db.query(`SELECT status, fulfilment FROM payment_transactions WHERE id = $1`, [
      res.body.order_id,
    ]);
    expect(row).toEqual({ status: 'succeeded', fulfilment: 'entered' });
  });
});
