import { randomUUID } from 'node:crypto';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { PaymentsRepository } from '#app/modules/payments/payments.repository.js';
import { RefundsService } from '#app/modules/payments/refunds.service.js';
import { api } from '../support/api';
import { sentTwice } from '../support/idempotency';
import { makeSite, makeUser, type MadeUser, pointsOf as balanceOf } from '../support/factories';
import {
  buyerWithLimit,
  confirm,
  orderAsUser,
  pauseFor,
  type PaymentsWorld,
  raffleOn,
  spentThisMonth,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

describe('refunds: admins refunding payments, and paid orders that sold out meanwhile', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  const pointsOf = (userId: string): Promise<number> => balanceOf(w.t, userId);
  const ledgerOf = (paymentId: string) =>
    w.t.db.query<Array<{ transaction_type: string; amount: number }>>(
      `SELECT transaction_type, amount FROM point_transactions WHERE payment_transaction_id = $1
        ORDER BY created_at, amount DESC`,
      [paymentId],
    );
  const refund = (token: string, id: string, body: Record<string, unknown>) =>
    api(w.t.app).as(token).post(`/admin/payments/${id}/refund`, body);

  /** A paid gatewayone order of `quantity` £2.50 tickets; answers the buyer and our order id. */
  const paidOrder = async (
    quantity: number,
  ): Promise<{ buyer: MadeUser; orderId: string; checkoutId: string }> => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity });
    w.fakes.gatewayOne.complete(order.checkout_id);
    await confirm(w, order.order_id).expect(200);
    return { buyer, orderId: order.order_id, checkoutId: order.checkout_id };
  };

  it('refunds part and then the rest at the gateway, reversing the points pro rata', async () => {
    const { buyer, orderId, checkoutId } = await paidOrder(4); // £10.00 → 10 points
    expect(await pointsOf(buyer.user.id)).toBe(10);

    const part = await refund(w.admin.token, orderId, { amount_cents: 250, reason: 'Goodwill' }).expect(200);
    expect(part.body).toMatchObject({ id: orderId, status: 'partially_refunded', refunded_cents: 250 });
    expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual(['2.50']);
    expect(await pointsOf(buyer.user.id)).toBe(8); // a quarter of 10, rounded down

    const rest = await refund(w.admin.token, orderId, { reason: 'Customer request' }).expect(200);
    expect(rest.body).toMatchObject({ status: 'refunded', refunded_cents: 1000, amount_cents: 1000 });
    expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual([
      '2.50',
      '7.50',
    ]);
    expect(await pointsOf(buyer.user.id)).toBe(0);
    expect(await ledgerOf(orderId)).toEqual([
      { transaction_type: 'earn', amount: 10 },
      { transaction_type: 'reversal', amount: -2 },
      { transaction_type: 'reversal', amount: -8 },
    ]);
    const [row] = await w.t.db.query(
      `SELECT status, refunded_cents, refund_pending_cents FROM payment_transactions WHERE id = $1`,
      [orderId],
    );
    expect(row).toEqual({ status: 'refunded', refunded_cents: 1000, refund_pending_cents: 0 });

    const again = await refund(w.admin.token, orderId, { reason: 'Twice' }).expect(409);
    expect(again.body.code).toBe('NOT_REFUNDABLE');
    // The buyer's activity states each refund as money is shown.
    const logged = await w.t.db.query<Array<{ description: string }>>(
      `SELECT description FROM activity_logs WHERE resource_id = $1 AND activity_type = 'payment_refunded'
        ORDER BY created_at`,
      [orderId],
    );
    expect(logged.map((l) => l.description)).toEqual([
      'Refunded 2.50 GBP: Goodwill',
      'Refunded 7.50 GBP: Customer request',
    ]);
  });

  it('tells the buyer of each refund staff make, with what went back; a refund the service queued only once', async () => {
    const { buyer, orderId } = await paidOrder(2); // £5.00
    await refund(w.admin.token, orderId, { amount_cents: 150, reason: 'Goodwill' }).expect(200);
    await refund(w.admin.token, orderId, { reason: 'Customer request' }).expect(200);
    await w.t.drain();
    const notices = w.t.smtp.to(buyer.email).filter((m) => m.headers['x-mail-kind'] === 'payment_refunded');
    expect(notices.map((m) => m.subject).sort()).toEqual([
      'We have refunded 1.50 GBP',
      'We have refunded 3.50 GBP',
    ]);
    for (const notice of notices) expect(notice.text).toContain(`Order: ${orderId}`);
    // The reason is staff's own note: not in the buyer's mail.
    expect(notices.map((m) => m.text).join('\n')).not.toContain('Goodwill');
  });

  it('refunds a gatewaytwo payment at gatewaytwo', async () => {
    const buyer = await makeUser(w.t, w.site);
    const created = await api(w.t.app)
      .as(buyer.token)
      .post('/payments/create', { amount_cents: 2000, currency: 'GBP', payment_method: 'revolut_pay' })
      .expect(200);
    const orderId = created.body.metadata.checkout_id as string;
    w.fakes.gatewayTwo.complete(orderId);
    await w.fakes.gatewayTwo.deliverWebhook(orderId);
    await w.t.drain();
    expect(await pointsOf(buyer.user.id)).toBe(20);
    const res = await refund(w.admin.token, created.body.id as string, {
      amount_cents: 500,
      reason: 'Partial',
    }).expect(200);
    expect(res.body).toMatchObject({ status: 'partially_refunded', refunded_cents: 500 });
    expect(w.fakes.gatewayTwo.orders.get(orderId)?.refunds.map((r) => r.amount)).toEqual([500]);
    expect(await pointsOf(buyer.user.id)).toBe(15);
  });

  it('refuses to refund a pending payment (409 NOT_REFUNDABLE)', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id);
    const res = await refund(w.admin.token, order.order_id, { reason: 'Too early' }).expect(409);
    expect(res.body.code).toBe('NOT_REFUNDABLE');
    expect(w.fakes.gatewayOne.payments.get(order.checkout_id)?.refunds).toEqual([]);
  });

  it('refuses more than is left (422 REFUND_TOO_LARGE) and bad bodies (400)', async () => {
    const { orderId, checkoutId } = await paidOrder(2); // £5.00
    const big = await refund(w.admin.token, orderId, { amount_cents: 501, reason: 'Too much' }).expect(422);
    expect(big.body.code).toBe('REFUND_TOO_LARGE');
    await refund(w.admin.token, orderId, { amount_cents: 500 }).expect(400); // no reason
    await refund(w.admin.token, orderId, { amount_cents: 0, reason: 'Zero' }).expect(400);
    await refund(w.admin.token, orderId, { amount_cents: '100', reason: 'Text' }).expect(400);
    await refund(w.admin.token, orderId, { reason: 'x', extra: true }).expect(400);
    expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds).toEqual([]);
    await refund(w.admin.token, orderId, { amount_cents: 500, reason: 'All of it, exactly' }).expect(200);
  });

  it('lets refunds that together pass the amount refund only what fits', async () => {
    const { buyer, orderId, checkoutId } = await paidOrder(4); // £10.00
    // Five admins at once, each refunding 6.00 of a 10.00 payment: one fits, four do not.
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => refund(w.admin.token, orderId, { amount_cents: 600, reason: `Try ${n}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) expect(r.body.code).toBe('REFUND_TOO_LARGE');
    expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual(['6.00']);
    const [row] = await w.t.db.query(
      `SELECT status, refunded_cents, refund_pending_cents FROM payment_transactions WHERE id = $1`,
      [orderId],
    );
    expect(row).toEqual({ status: 'partially_refunded', refunded_cents: 600, refund_pending_cents: 0 });
    expect(await pointsOf(buyer.user.id)).toBe(4);
  });

  it('refunds once when the same request is sent again with its Idempotency-Key, one after the other or at once', async () => {
    const { orderId, checkoutId } = await paidOrder(4); // £10.00
    const again = (key: string, amount_cents: number) =>
      refund(w.admin.token, orderId, { amount_cents, reason: 'Goodwill' }).set('Idempotency-Key', key);
    // The panel timed out and sent the very same request again: the first answer, replayed.
    await sentTwice(() => refund(w.admin.token, orderId, { amount_cents: 250, reason: 'Goodwill' }), 200);
    // A double click: three at once under one key, one refund; the others replay it or are told it is under way.
    const clicked = randomUUID();
    const results = await Promise.all([1, 2, 3].map(() => again(clicked, 300)));
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual([
      '2.50',
      '3.00',
    ]);
    const [row] = await w.t.db.query(`SELECT refunded_cents FROM payment_transactions WHERE id = $1`, [
      orderId,
    ]);
    expect(row.refunded_cents).toBe(550);
  });

  it('answers REFUND_TOO_LARGE, not a gateway fault, to a refund that lost the race for the last amount', async () => {
    const { orderId, checkoutId } = await paidOrder(4); // £10.00
    // Two admins read the payment at the same moment: both saw 10.00 left.
    const payments = w.t.app.get(PaymentsRepository);
    const refunds = w.t.app.get(RefundsService);
    const seenByBoth = (await payments.findById(orderId))!;
    await refunds.adminRefund(seenByBoth, 600, 'First', w.admin.user.id, NO_REQUEST);
    await expect(
      refunds.adminRefund(seenByBoth, 600, 'Second', w.admin.user.id, NO_REQUEST),
    ).rejects.toMatchObject({
      status: 422,
      code: 'REFUND_TOO_LARGE',
    });
    expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual(['6.00']);
  });

  it('keeps refunds to the site’s own admins: user 403, another site’s admin 404 or 403', async () => {
    const { buyer, orderId } = await paidOrder(1);
    await refund(buyer.token, orderId, { reason: 'Mine' }).expect(403);
    const elsewhere = await makeUser(w.t, await makeSite(w.t), { role: 'admin' });
    await refund(elsewhere.token, orderId, { reason: 'Not mine' }).expect(404);
    await refund(elsewhere.token, orderId, { reason: 'Not mine' }).set('X-Site-Id', w.site).expect(403);
    await refund(w.admin.token, 'not-a-uuid', { reason: 'x' }).expect(404);
    const [row] = await w.t.db.query(`SELECT status FROM payment_transactions WHERE id = $1`, [orderId]);
    expect(row.status).toBe('succeeded');
  });

  it('refunds whole a checkout opened before its buyer paused themselves and paid during the pause', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const open = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    const other = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 1 });
    const before = await makeUser(w.t, w.site); // another buyer's open checkout is not touched
    const theirs = await orderAsUser(w, before.token, raffle.item_id);
    await pauseFor(w, buyer.token);
    w.fakes.gatewayOne.complete(open.checkout_id);
    w.fakes.gatewayOne.complete(theirs.checkout_id);
    const refused = await confirm(w, open.order_id).expect(422);
    expect(refused.body).toMatchObject({ success: false, error_code: 'SELF_PAUSED' });
    expect(refused.body.message).toMatch(/refunded/);
    await confirm(w, theirs.order_id).expect(200);
    const entries = await w.t.db.query(
      `SELECT user_id, entries_count FROM raffle_entries WHERE raffle_id = $1`,
      [raffle.id],
    );
    expect(entries).toEqual([{ user_id: before.user.id, entries_count: 1 }]);
    await w.t.drain();
    const [after] = await w.t.db.query(
      `SELECT status, fulfilment, refunded_cents FROM payment_transactions WHERE id = $1`,
      [open.order_id],
    );
    expect(after).toEqual({ status: 'refunded', fulfilment: 'refunded_unfillable', refunded_cents: 500 });
    expect(await pointsOf(buyer.user.id)).toBe(0);
    // The buyer's other checkout, still open, is refused the same way when paid later in the pause.
    w.fakes.gatewayOne.complete(other.checkout_id);
    expect((await confirm(w, other.order_id).expect(422)).body.error_code).toBe('SELF_PAUSED');
  });

  it('refuses, in the pause, a checkout given up as abandoned before it and paid late', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const opened = await api(w.t.app)
      .as(buyer.token)
      .post('/gatewaytwo/create-order', {
        item_id: raffle.item_id,
        site_id: w.site,
        amount: 2.5,
        currency: 'GBP',
        description: 'One ticket',
      })
      .expect(200);
    const id = opened.body.order_id as string;
    await w.t.db.query(
      `UPDATE payment_transactions SET created_at = now() - interval '25 hours' WHERE id = $1`,
      [id],
    );
    const root = await makeUser(w.t, w.site, { role: 'superadmin' });
    await api(w.t.app).as(root.token).post('/admin/jobs/reconciliation/run').expect(200);
    await w.t.drain();
    const status = async () =>
      (
        await w.t.db.query<Array<{ status: string; fulfilment: string | null }>>(
          `SELECT status, fulfilment FROM payment_transactions WHERE id = $1`,
          [id],
        )
      )[0];
    expect((await status()).status).toBe('cancelled'); // abandoned; its checkout still payable at the gateway
    await pauseFor(w, buyer.token);
    const late = w.fakes.gatewayTwo.orderFor(id)!;
    w.fakes.gatewayTwo.complete(late.id);
    expect(await w.fakes.gatewayTwo.deliverWebhook(late.id)).toBe(200);
    await w.t.drain();
    expect(await status()).toEqual({ status: 'refunded', fulfilment: 'refunded_unfillable' });
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [id]),
    ).toEqual([]);
  });

  it('refuses a checkout whose buyer paused while the gateway was being asked about it', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const open = await orderAsUser(w, buyer.token, raffle.item_id);
    w.fakes.gatewayOne.complete(open.checkout_id);
    w.fakes.gatewayOne.setLatency(1_000); // the gateway's answer takes a second; the plan is made meanwhile
    try {
      const confirming = confirm(w, open.order_id).then((r) => r);
      await new Promise((r) => setTimeout(r, 250));
      await pauseFor(w, buyer.token);
      const res = await confirming;
      expect({ status: res.status, code: res.body.error_code }).toEqual({ status: 422, code: 'SELF_PAUSED' });
    } finally {
      w.fakes.gatewayOne.setLatency(0);
    }
    expect(
      await w.t.db.query(`SELECT 1 FROM raffle_entries WHERE payment_transaction_id = $1`, [open.order_id]),
    ).toEqual([]);
  });

  it('enters exactly one of two paid orders for the last ticket and refunds the other whole', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 1 });
    const first = await makeUser(w.t, w.site);
    const second = await makeUser(w.t, w.site);
    // Creation checks that a ticket is left but reserves nothing: both orders are taken.
    const a = await orderAsUser(w, first.token, raffle.item_id);
    const b = await orderAsUser(w, second.token, raffle.item_id);
    w.fakes.gatewayOne.complete(a.checkout_id);
    w.fakes.gatewayOne.complete(b.checkout_id);
    const won = await confirm(w, a.order_id).expect(200);
    expect(won.body).toMatchObject({ success: true, status: 'succeeded' });
    // The second buyer is told the truth: paid, but too late; the whole amount is coming back.
    const late = await confirm(w, b.order_id).expect(422);
    expect(late.body).toMatchObject({ success: false, error_code: 'SOLD_OUT' });
    expect(late.body.message).toMatch(/refund/i);

    const entries = await w.t.db.query(`SELECT user_id FROM raffle_entries WHERE raffle_id = $1`, [
      raffle.id,
    ]);
    expect(entries).toEqual([{ user_id: first.user.id }]);
    const [loser] = await w.t.db.query(`SELECT status, fulfilment FROM payment_transactions WHERE id = $1`, [
      b.order_id,
    ]);
    expect(loser).toEqual({ status: 'succeeded', fulfilment: 'refunded_unfillable' });
    const jobs = (await w.t.jobs.jobsOf('payments.refund')).filter(
      (job) => (job.data as { payment_transaction_id?: string }).payment_transaction_id === b.order_id,
    );
    expect(jobs).toHaveLength(1);
    const [closed] = await w.t.db.query(`SELECT closed, current_entries FROM raffles WHERE id = $1`, [
      raffle.id,
    ]);
    expect(closed).toEqual({ closed: true, current_entries: 1 });

    await w.t.drain();
    const [after] = await w.t.db.query(
      `SELECT status, refunded_cents FROM payment_transactions WHERE id = $1`,
      [b.order_id],
    );
    expect(after).toEqual({ status: 'refunded', refunded_cents: 250 });
    expect(w.fakes.gatewayOne.payments.get(b.checkout_id)?.refunds.map((r) => r.amount)).toEqual(['2.50']);
    expect(await pointsOf(second.user.id)).toBe(0);
    expect(await pointsOf(first.user.id)).toBe(2);
    const subjects = w.t.smtp.to(second.email).map((m) => m.subject);
    expect(subjects).toEqual([expect.stringContaining('has been refunded')]);
    expect(w.t.smtp.to(first.email).map((m) => m.subject)).not.toContainEqual(
      expect.stringContaining('refunded'),
    );
  });

  it('sends only the rest when an admin refunded part of an unfillable order before its refund job ran', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 2 });
    const first = await makeUser(w.t, w.site);
    const second = await makeUser(w.t, w.site);
    const a = await orderAsUser(w, first.token, raffle.item_id, { quantity: 2 });
    const b = await orderAsUser(w, second.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(a.checkout_id);
    w.fakes.gatewayOne.complete(b.checkout_id);
    await confirm(w, a.order_id).expect(200);
    await confirm(w, b.order_id).expect(422);
    await refund(w.admin.token, b.order_id, { amount_cents: 200, reason: 'goodwill, before the job' }).expect(
      200,
    );
    await w.t.drain();
    const [after] = await w.t.db.query(
      `SELECT status, refunded_cents FROM payment_transactions WHERE id = $1`,
      [b.order_id],
    );
    expect(after).toEqual({ status: 'refunded', refunded_cents: 500 });
    expect(w.fakes.gatewayOne.payments.get(b.checkout_id)?.refunds.map((r) => r.amount)).toEqual([
      '2.00',
      '3.00',
    ]);
    const jobs = (await w.t.jobs.jobsOf('payments.refund')).filter(
      (job) => (job.data as { payment_transaction_id?: string }).payment_transaction_id === b.order_id,
    );
    expect(jobs.map((job) => job.state)).toEqual(['completed']);
  });

  it('keeps nothing reserved when the gateway is down for a refund (502), and the retry works', async () => {
    const { orderId, checkoutId } = await paidOrder(1);
    w.fakes.gatewayOne.goDown('unavailable');
    try {
      const res = await refund(w.admin.token, orderId, { reason: 'Down' }).expect(502);
      expect(res.body.code).toBe('GATEWAY_UNAVAILABLE');
    } finally {
      w.fakes.gatewayOne.comeUp();
    }
    const [row] = await w.t.db.query(
      `SELECT status, refunded_cents, refund_pending_cents FROM payment_transactions WHERE id = $1`,
      [orderId],
    );
    expect(row).toEqual({ status: 'succeeded', refunded_cents: 0, refund_pending_cents: 0 });
    await refund(w.admin.token, orderId, { reason: 'Up again' }).expect(200);
    expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual(['2.50']);
  });

  it('gives a refunded amount back to the buyer’s monthly spend', async () => {
    const raffle = await raffleOn(w);
    const buyer = await buyerWithLimit(w, 500);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    await confirm(w, order.order_id).expect(200);
    await api(w.t.app)
      .as(buyer.token)
      .post('/gatewayone/create-order', { item_id: raffle.item_id, site_id: w.site })
      .expect(422);
    await refund(w.admin.token, order.order_id, { amount_cents: 250, reason: 'Half' }).expect(200);
    expect(await spentThisMonth(w, buyer.token)).toBe(250);
    await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 1 });
  });

  it('refunds a paid order whole when the buyer reached their cap meanwhile', async () => {
    const raffle = await raffleOn(w, { max_entries: 2 });
    const buyer = await makeUser(w.t, w.site);
    const a = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    const b = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 1 });
    w.fakes.gatewayOne.complete(a.checkout_id);
    w.fakes.gatewayOne.complete(b.checkout_id);
    await confirm(w, a.order_id).expect(200);
    const late = await confirm(w, b.order_id).expect(422);
    expect(late.body.error_code).toBe('MAX_ENTRIES_REACHED');
    await w.t.drain();
    const [row] = await w.t.db.query(
      `SELECT status, fulfilment, refunded_cents FROM payment_transactions WHERE id = $1`,
      [b.order_id],
    );
    expect(row).toEqual({ status: 'refunded', fulfilment: 'refunded_unfillable', refunded_cents: 250 });
    expect(await pointsOf(buyer.user.id)).toBe(5);
    const entries = await w.t.db.query(`SELECT entries_count FROM raffle_entries WHERE raffle_id = $1`, [
      raffle.id,
    ]);
    expect(entries).toEqual([{ entries_count: 2 }]);
  });

  it('never enters more than is left when many paid orders are confirmed at once', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 3 });
    const buyers = await Promise.all([1, 2, 3, 4, 5].map(() => makeUser(w.t, w.site)));
    const orders = [];
    for (const buyer of buyers) orders.push(await orderAsUser(w, buyer.token, raffle.item_id));
    for (const order of orders) w.fakes.gatewayOne.complete(order.checkout_id);
    const answers = await Promise.all(orders.map((order) => confirm(w, order.order_id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 422, 422]);
    await w.t.drain();
    const [counts] = await w.t.db.query(`SELECT current_entries, closed FROM raffles WHERE id = $1`, [
      raffle.id,
    ]);
    expect(counts).toEqual({ current_entries: 3, closed: true });
    const tickets = await w.t.db.query<Array<{ ticket_from: number }>>(
      `SELECT ticket_from FROM raffle_entries WHERE raffle_id = $1 ORDER BY ticket_from`,
      [raffle.id],
    );
    expect(tickets.map((t) => t.ticket_from)).toEqual([1, 2, 3]);
    const fates = await w.t.db.query<Array<{ fulfilment: string; status: string }>>(
      `SELECT fulfilment, status FROM payment_transactions WHERE raffle_id = $1 ORDER BY fulfilment`,
      [raffle.id],
    );
    expect(fates).toEqual([
      { fulfilment: 'entered', status: 'succeeded' },
      { fulfilment: 'entered', status: 'succeeded' },
      { fulfilment: 'entered', status: 'succeeded' },
      { fulfilment: 'refunded_unfillable', status: 'refunded' },
      { fulfilment: 'refunded_unfillable', status: 'refunded' },
    ]);
  });
});
