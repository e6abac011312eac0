import { majorToMinor } from '#app/common/money.js';
import { RefundAmountsRepository } from '#app/modules/payments/refund-amounts.repository.js';
import { api } from '../support/api';
import { makeUser, pointsOf } from '../support/factories';
import { type MembershipWorld, withRoot } from '../support/memberships';
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

  describe('a refund whose answer is lost', () => {
    let root: MembershipWorld['root'];
    beforeAll(async () => {
      ({ root } = await withRoot(w));
    });
    const refund = (orderId: string, body: Record<string, unknown>) =>
      api(w.t.app).as(w.admin.token).post(`/admin/payments/${orderId}/refund`, body);
    const refundedAtGateway = (checkoutId: string): number => {
      const checkout = w.fakes.gatewayOne.payments.get(checkoutId)!;
      return checkout.refunds.reduce((sum, r) => sum + majorToMinor(r.amount, checkout.currency), 0);
    };
    const amountsOf = async (orderId: string) => {
      const [row] = await w.t.db.query(
        `SELECT status, refunded_cents, refund_pending_cents FROM payment_transactions WHERE id = $1`,
        [orderId],
      );
      return row as { status: string; refunded_cents: number; refund_pending_cents: number };
    };
    /** The reconciliation job, once the held refund is old enough to be asked about. */
    const reconcileLater = async (orderId: string): Promise<void> => {
      await w.t.db.query(
        `UPDATE payment_transactions SET refund_reserved_at = now() - interval '3 minutes' WHERE id = $1`,
        [orderId],
      );
      await api(w.t.app).as(root.token).post('/admin/jobs/reconciliation/run').expect(200);
    };
    const paid = async () => {
      const raffle = await raffleOn(w);
      const buyer = await makeUser(w.t, w.site);
      const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 4 }); // £10.00, 10 points
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
      return { buyer, order };
    };

    it('holds the amount instead of sending it again, and records it once the gateway says it was made', async () => {
      const { buyer, order } = await paid();
      // The gateway makes the refund; its answer comes after the client gave up.
      w.fakes.gatewayOne.setLatency(1000);
      try {
        const lost = await refund(order.order_id, { amount_cents: 300, reason: 'Goodwill' }).expect(502);
        expect(lost.body).toMatchObject({ code: 'GATEWAY_UNAVAILABLE' });
        expect(lost.body.detail).toContain('outcome is unknown');
      } finally {
        w.fakes.gatewayOne.setLatency(0);
      }
      expect(refundedAtGateway(order.checkout_id)).toBe(300);
      const [held] = await w.t.db.query<Array<{ description: string }>>(
        `SELECT description FROM activity_logs WHERE resource_id = $1 AND activity_type = 'payment_refund_held'`,
        [order.order_id],
      );
      expect(held.description).toMatch(/^Refund of 3\.00 GBP unanswered by the gateway/);
      // Held: counted against what is left, so no refund can pass what was paid meanwhile.
      expect(await amountsOf(order.order_id)).toEqual({
        status: 'succeeded',
        refunded_cents: 0,
        refund_pending_cents: 300,
      });
      await refund(order.order_id, { amount_cents: 800, reason: 'More' }).expect(422);

      await reconcileLater(order.order_id);
      expect(await amountsOf(order.order_id)).toEqual({
        status: 'partially_refunded',
        refunded_cents: 300,
        refund_pending_cents: 0,
      });
      expect(await pointsOf(w.t, buyer.user.id)).toBe(7); // 10 less 3 for the 30 % given back
      // A second run finds nothing held; the rest is refunded once, and the gateway agrees with us.
      await reconcileLater(order.order_id);
      await refund(order.order_id, { reason: 'The rest' }).expect(200);
      expect(refundedAtGateway(order.checkout_id)).toBe(1000);
      expect(await amountsOf(order.order_id)).toEqual({
        status: 'refunded',
        refunded_cents: 1000,
        refund_pending_cents: 0,
      });
    });

    it('settles a held refund two minutes on, whatever was said about the payment since', async () => {
      const { order } = await paid();
      w.fakes.gatewayOne.setLatency(1000);
      try {
        await refund(order.order_id, { amount_cents: 300, reason: 'Goodwill' }).expect(502);
      } finally {
        w.fakes.gatewayOne.setLatency(0);
      }
      // Reserved three minutes ago; the buyer's order page (endpoint 3 needs no token) confirms it again now.
      await w.t.db.query(
        `UPDATE payment_transactions SET refund_reserved_at = now() - interval '3 minutes',
                                         updated_at = now() - interval '3 minutes' WHERE id = $1`,
        [order.order_id],
      );
      await confirm(w, order.order_id).expect(200);
      await api(w.t.app).as(root.token).post('/admin/jobs/reconciliation/run').expect(200);
      expect(await amountsOf(order.order_id)).toEqual({
        status: 'partially_refunded',
        refunded_cents: 300,
        refund_pending_cents: 0,
      });
    });

    it('gives the held amount back when the gateway says the refund was never made', async () => {
      const { order } = await paid();
      // The gateway reads the request and never answers: nothing is refunded.
      w.fakes.gatewayOne.goDown('hang');
      try {
        await refund(order.order_id, { reason: 'Asked' }).expect(502);
      } finally {
        w.fakes.gatewayOne.comeUp();
      }
      expect(await amountsOf(order.order_id)).toMatchObject({ refund_pending_cents: 1000 });
      await reconcileLater(order.order_id);
      expect(await amountsOf(order.order_id)).toEqual({
        status: 'succeeded',
        refunded_cents: 0,
        refund_pending_cents: 0,
      });
      await refund(order.order_id, { reason: 'Asked again' }).expect(200);
      expect(refundedAtGateway(order.checkout_id)).toBe(1000);
    });

    it('settles a held gatewaytwo refund from what the order says it refunded', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await api(w.t.app)
        .as(buyer.token)
        .post('/payments/create', { amount_cents: 2000, currency: 'GBP', payment_method: 'revolut_pay' })
        .expect(200);
      const paymentId = created.body.id as string;
      const orderId = created.body.metadata.checkout_id as string;
      w.fakes.gatewayTwo.complete(orderId);
      await w.fakes.gatewayTwo.deliverWebhook(orderId);
      await w.t.drain();
      w.fakes.gatewayTwo.setLatency(1000);
      try {
        await refund(paymentId, { amount_cents: 500, reason: 'Partial' }).expect(502);
      } finally {
        w.fakes.gatewayTwo.setLatency(0);
      }
      expect(await amountsOf(paymentId)).toMatchObject({ refunded_cents: 0, refund_pending_cents: 500 });
      await reconcileLater(paymentId);
      expect(await amountsOf(paymentId)).toEqual({
        status: 'partially_refunded',
        refunded_cents: 500,
        refund_pending_cents: 0,
      });
      expect(w.fakes.gatewayTwo.orders.get(orderId)?.refunds.map((r) => r.amount)).toEqual([500]);
    });

    it('announces to the buyer only what staff refunded, when a held refund the service queued is settled with it', async () => {
      const { buyer, order } = await paid();
      await w.t.jobs.enqueue('payments.refund', {
        payment_transaction_id: order.order_id,
        amount_cents: 400,
        reason: 'Merch order cancelled',
      });
      w.fakes.gatewayOne.setLatency(1000);
      try {
        await w.t.drain(); // the queued £4.00: made, its answer lost, held
        await api(w.t.app)
          .as(w.admin.token)
          .post(`/admin/payments/${order.order_id}/refund`, { amount_cents: 300, reason: 'Goodwill' })
          .expect(502); // staff's £3.00: made, its answer lost, held
      } finally {
        w.fakes.gatewayOne.setLatency(0);
      }
      expect(await amountsOf(order.order_id)).toMatchObject({ refunded_cents: 0, refund_pending_cents: 700 });
      await reconcileLater(order.order_id);
      await w.t.drain();
      expect(await amountsOf(order.order_id)).toMatchObject({ refunded_cents: 700, refund_pending_cents: 0 });
      const notices = w.t.smtp.to(buyer.email).filter((m) => m.headers['x-mail-kind'] === 'payment_refunded');
      expect(notices.map((m) => m.subject)).toEqual(['We have refunded 3.00 GBP']);
    });

    it('keeps a queued refund that lost its reservation to an admin’s refund, until that one is settled', async () => {
      const { order } = await paid();
      const amounts = w.t.app.get(RefundAmountsRepository);
      await w.t.jobs.enqueue('payments.refund', {
        payment_transaction_id: order.order_id,
        amount_cents: 1000,
        reason: 'Could not be entered',
      });
      // An admin's whole refund reserves the amount between the job's read of the payment and its own reservation.
      const reserve = amounts.reserveRefund.bind(amounts);
      let raced = false;
      const spy = jest
        .spyOn(amounts, 'reserveRefund')
        .mockImplementation(async (id, amount, manager, queued) => {
          // This payment's job only: the drain also runs other files' jobs that have come due (one database).
          if (!raced && id === order.order_id) {
            raced = true;
            expect(await reserve(id, 1000, manager)).toBe(true);
          }
          return reserve(id, amount, manager, queued);
        });
      try {
        await w.t.drain();
      } finally {
        spy.mockRestore();
      }
      // The gateway refuses the admin's refund: its reservation goes back, and the queued refund is still owed.
      await w.t.db.transaction((m) => amounts.settleRefund(order.order_id, 1000, false, m));
      const [job] = await w.t.db.query<Array<{ id: string; state: string }>>(
        `SELECT id, state FROM pgboss.job WHERE name = 'payments.refund' AND data->>'payment_transaction_id' = $1`,
        [order.order_id],
      );
      expect(job.state).toBe('retry');
      await w.t.db.query(`UPDATE pgboss.job SET start_after = now() WHERE id = $1`, [job.id]);
      await w.t.drain();
      expect(await amountsOf(order.order_id)).toMatchObject({ status: 'refunded', refunded_cents: 1000 });
    });

    it('leaves a held refund alone while the gateway cannot be asked', async () => {
      const { order } = await paid();
      w.fakes.gatewayOne.setLatency(1000);
      try {
        await refund(order.order_id, { amount_cents: 500, reason: 'Half' }).expect(502);
        await reconcileLater(order.order_id); // the look-up times out too
      } finally {
        w.fakes.gatewayOne.setLatency(0);
      }
      expect(await amountsOf(order.order_id)).toMatchObject({ refunded_cents: 0, refund_pending_cents: 500 });
      await reconcileLater(order.order_id);
      expect(await amountsOf(order.order_id)).toMatchObject({ refunded_cents: 500, refund_pending_cents: 0 });
      expect(refundedAtGateway(order.checkout_id)).toBe(500);
    });
  });
});
