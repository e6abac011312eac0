import { Client } from 'pg';
import { api } from '../support/api';
import { sentTwice } from '../support/idempotency';
import { makeSite, makeUser, type MadeUser } from '../support/factories';
import { makeDue } from '../support/mail';
import { payCheckout } from '../support/memberships';
import {
  ADDRESS,
  adminOrder,
  type MerchWorld,
  productOn,
  startMerchWorld,
  stopMerchWorld,
} from '../support/merch';
import { formatMoney } from '#app/common/money.js';
import { FulfilmentClient } from '#app/infra/providers/fulfilment/fulfilment.client.js';
import { MerchFulfilmentService } from '#app/modules/merch/merch-fulfilment.service.js';

/**
 * The SQL the app sends while `work` runs (as fulfilment-statements.e2e-spec.ts captures it). pg-boss polls
 * and maintains its queues on its own clients meanwhile; those statements name its schema and are left out,
 * or a poll landing inside one window and not the other makes the counts differ for no reason of ours.
 */
async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const original = Client.prototype.query;
  Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (!/\bpgboss\./i.test(text)) sent.push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    Client.prototype.query = original;
  }
  return sent;
}

describe('merchandise: sold, paid, fulfilled (issue 14)', () => {
  let w: MerchWorld;
  let tee: { id: string; amount_cents: number; sku: string };
  let mug: { id: string; amount_cents: number; sku: string };

  beforeAll(async () => {
    w = await startMerchWorld();
    tee = await productOn(w);
    mug = await productOn(w, { name: 'Mug', sku: 'H-MUG-W', amount_cents: 899, assets: {} });
  });
  afterAll(() => stopMerchWorld(w));
  beforeEach(() => {
    w.fulfilment.resetControls();
  });

  async function order(buyer: MadeUser, items = [{ merch_product_id: tee.id, copies: 2 }]) {
    const res = await api(w.t.app)
      .as(buyer.token)
      .post('/merch/orders', { items, ...ADDRESS })
      .expect(201);
    return res.body as { merch_order: Record<string, unknown> & { id: string }; checkout_id: string };
  }

  async function paidOrder(): Promise<{
    id: string;
    paymentId: string;
    fulfilmentId: string;
    buyer: MadeUser;
  }> {
    const buyer = await makeUser(w.t, w.site);
    const created = await order(buyer);
    await payCheckout(w, created.checkout_id);
    const o = await adminOrder(w, created.merch_order.id);
    expect(o.status_stage).toBe('submitted');
    return {
      id: o.id as string,
      paymentId: o.payment_id as string,
      fulfilmentId: o.fulfilment_order_id as string,
      buyer,
    };
  }

  const paymentStatus = async (id: string): Promise<string> =>
    (
      await w.t.db.query<Array<{ status: string }>>(`SELECT status FROM payment_transactions WHERE id = $1`, [
        id,
      ])
    )[0].status;

  const amountOf = async (id: string): Promise<number> =>
    (
      await w.t.db.query<Array<{ amount_cents: number }>>(
        `SELECT amount_cents FROM payment_transactions WHERE id = $1`,
        [id],
      )
    )[0].amount_cents;

  /** How many refund jobs a payment has: a refund is queued once, never again. */
  const refundJobsOf = async (paymentId: string): Promise<number> =>
    (
      await w.t.db.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'payments.refund' AND data->>'payment_transaction_id' = $1`,
        [paymentId],
      )
    )[0].n;

  async function callback(fulfilmentId: string, stage?: string): Promise<void> {
    expect(await w.fulfilment.sendCallback(fulfilmentId, stage)).toBe(200);
    await w.t.drain();
  }

  describe('products', () => {
    it('lists a site’s active products publicly, and admins change them', async () => {
      const hidden = await productOn(w, { name: 'Old tee', active: false });
      const list = await api(w.t.app).get(`/merch/products?site_id=${w.site}`).expect(200);
      const ids = (list.body as Array<{ id: string }>).map((p) => p.id);
      expect(ids).toEqual(expect.arrayContaining([tee.id, mug.id]));
      expect(ids).not.toContain(hidden.id);
      const changed = await api(w.t.app)
        .as(w.admin.token)
        .put(`/api/admin/merch/products/${mug.id}`, { amount_cents: 999 })
        .expect(200);
      expect(changed.body).toMatchObject({ id: mug.id, amount_cents: 999, sku: 'H-MUG-W' });
      mug.amount_cents = 999;
      const other = await makeSite(w.t);
      const otherAdmin = await makeUser(w.t, other, { role: 'admin' });
      await api(w.t.app)
        .as(otherAdmin.token)
        .put(`/api/admin/merch/products/${mug.id}`, { amount_cents: 1 })
        .expect(404);
      const buyer = await makeUser(w.t, w.site);
      await api(w.t.app).as(buyer.token).post('/api/admin/merch/products', { name: 'x' }).expect(403);
    });
  });

  describe('an order', () => {
    it('is priced by the server, paid at gatewayone, sent to the provider once, and followed to complete', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer, [
        { merch_product_id: tee.id, copies: 2 },
        { merch_product_id: mug.id, copies: 1 },
      ]);
      expect(created.merch_order).toMatchObject({
        status_stage: 'awaiting_payment',
        fulfilment_order_id: null,
      });
      expect(created.merch_order.items).toEqual([
        expect.objectContaining({
          merch_product_id: tee.id,
          copies: 2,
          recipient_cost_amount: 30,
          recipient_cost_currency: 'GBP',
        }),
        expect.objectContaining({ merch_product_id: mug.id, copies: 1, recipient_cost_amount: 9.99 }),
      ]);
      expect(w.fakes.gatewayOne.payments.get(created.checkout_id)).toMatchObject({ amount: '39.99' });
      expect(w.fulfilment.created).toHaveLength(0);

      await payCheckout(w, created.checkout_id);
      const sent = w.fulfilment.byReference(created.merch_order.id)!;
      expect(sent).toBeDefined();
      const body = sent.request as { items: unknown[]; callbackUrl: string };
      expect(body).toMatchObject({
        merchantReference: created.merch_order.id,
        shippingMethod: 'Standard',
        recipient: {
          name: 'Jane Doe',
          address: { line1: '1 High Street', countryCode: 'GB', postalOrZipCode: 'SW1A 1AA' },
        },
      });
      expect(body.items).toEqual([
        expect.objectContaining({
          sku: tee.sku,
          copies: 2,
          sizing: 'fillPrintArea',
          assets: [{ printArea: 'default', url: 'https://cdn.example.com/prints/tee-front.png' }],
        }),
        expect.objectContaining({ sku: 'H-MUG-W', copies: 1 }),
      ]);
      const token = /\/merch\/fulfilment\/callback\/([^/]+)$/.exec(body.callbackUrl)?.[1] ?? '';
      expect(body.callbackUrl.startsWith(`${w.base}/merch/fulfilment/callback/`)).toBe(true);
      expect(token.length).toBeGreaterThanOrEqual(16);

      let o = await adminOrder(w, created.merch_order.id);
      expect(o).toMatchObject({
        status_stage: 'submitted',
        fulfilment_order_id: sent.id,
        checkout_id: created.checkout_id,
      });

      // The provider starts it and calls back.
      await callback(sent.id);
      expect((await adminOrder(w, o.id as string)).status_stage).toBe('in_progress');

      // A callback that claims more than the provider's own record: the record wins.
      await callback(sent.id, 'Complete');
      expect((await adminOrder(w, o.id as string)).status_stage).toBe('in_progress');

      // Shipped: complete, with the shipment and charges recorded from the re-read.
      w.fulfilment.setStage(sent.id, 'Complete');
      await callback(sent.id);
      o = await adminOrder(w, o.id as string);
      expect(o.status_stage).toBe('complete');
      // Both are the contract's objects, keyed by the provider's ids.
      const shipments = Object.entries(o.shipments as Record<string, { id: string }>);
      expect(shipments).toEqual([
        [
          expect.stringMatching(/^shp_/),
          expect.objectContaining({ tracking: expect.objectContaining({ number: 'RM123456789GB' }) }),
        ],
      ]);
      expect(shipments[0][1].id).toBe(shipments[0][0]);
      expect(Object.values(o.charges as object)).toEqual([
        expect.objectContaining({ totalCost: { amount: '13.50', currency: 'GBP' } }),
      ]);

      // The same callback again changes nothing.
      const before = o.updated_at;
      await callback(sent.id);
      o = await adminOrder(w, o.id as string);
      expect(o).toMatchObject({ status_stage: 'complete', updated_at: before });

      // Exactly one order at the provider, one payment, no refund.
      expect(w.fulfilment.created.filter((c) => c.merchantReference === o.id)).toHaveLength(1);
      expect(await paymentStatus(o.payment_id as string)).toBe('succeeded');
    });

    it('refuses a forged callback: an unknown token is 404 and changes nothing', async () => {
      const { id } = await paidOrder();
      for (const token of ['not-a-token', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
        await api(w.t.app)
          .post(`/merch/fulfilment/callback/${token}`, {
            specversion: '1.0',
            type: 'com.prodigi.order.status.stage.changed#Complete',
            data: { order: { id: 'ord_forged', status: { stage: 'Complete' } } },
          })
          .expect(404);
      }
      await w.t.drain();
      expect((await adminOrder(w, id)).status_stage).toBe('submitted');
    });

    it('refunds the payment of an order the provider cancels, once, and tells the buyer', async () => {
      const { id, paymentId, fulfilmentId, buyer } = await paidOrder();
      w.fulfilment.setStage(fulfilmentId, 'Cancelled');
      await callback(fulfilmentId);
      await callback(fulfilmentId);
      expect((await adminOrder(w, id)).status_stage).toBe('cancelled');
      expect(await paymentStatus(paymentId)).toBe('refunded');
      expect(await refundJobsOf(paymentId)).toBe(1);
      // The money went back: the buyer hears so once, with the amount and the order.
      const notices = w.t.smtp.to(buyer.email).filter((m) => m.headers['x-mail-kind'] === 'payment_refunded');
      expect(notices.map((m) => m.subject)).toEqual([
        `We have refunded ${formatMoney(await amountOf(paymentId), 'GBP')}`,
      ]);
      expect(notices[0].text).toContain(`Order: ${paymentId}`);
    });

    it('keeps a cancellation read while an earlier re-read was still on its way: cancelled and refunded once', async () => {
      const { id, paymentId, fulfilmentId } = await paidOrder();
      w.fulfilment.setStage(fulfilmentId, 'InProgress');
      // The provider's answers are held on their way back (the real HTTP call, then a delay the test ends), so
      // two re-reads (two callbacks' jobs) read in one order and write in the other.
      const client = w.t.app.get(FulfilmentClient);
      const original = client.getOrder.bind(client);
      const held: Array<{ stage: string; release: () => void }> = [];
      client.getOrder = async (orderId: string) => {
        const remote = await original(orderId);
        if (held.length < 2)
          await new Promise<void>((release) => held.push({ stage: remote.stage, release }));
        return remote;
      };
      const reread = w.t.app.get(MerchFulfilmentService);
      const until = async (n: number) => {
        while (held.length < n) await new Promise((r) => setTimeout(r, 5));
      };
      try {
        const first = reread.sync(id);
        await until(1);
        w.fulfilment.setStage(fulfilmentId, 'Cancelled');
        const second = reread.sync(id);
        await until(2);
        expect(held.map((h) => h.stage)).toEqual(['InProgress', 'Cancelled']);
        held[0].release(); // the older news is written first (submitted → in_progress)…
        await first;
        held[1].release(); // …then the cancellation, read while the order was still submitted
        await second;
      } finally {
        client.getOrder = original;
      }
      await w.t.drain();
      expect((await adminOrder(w, id)).status_stage).toBe('cancelled');
      expect(await paymentStatus(paymentId)).toBe('refunded');
      expect(await refundJobsOf(paymentId)).toBe(1);
    });

    it.each([
      ['is down (503)', () => w.fulfilment.goDown(), () => w.fulfilment.comeUp()],
      ['asks it to slow down (429)', () => w.fulfilment.failNext(1, 429), () => undefined],
      // Our key or URL at fault, not the order (a key rotated at the provider first): waited out, not refunded.
      ['refuses our key (401)', () => w.fulfilment.failNext(1, 401), () => undefined],
      ['answers 404 for its orders’ address', () => w.fulfilment.failNext(1, 404), () => undefined],
    ])(
      'waits out a provider that %s at submission, then delivers the order once',
      async (_how, turnAway, recover) => {
        const buyer = await makeUser(w.t, w.site);
        const created = await order(buyer);
        turnAway();
        await payCheckout(w, created.checkout_id);
        const waiting = await adminOrder(w, created.merch_order.id);
        expect({
          stage: waiting.status_stage,
          payment: await paymentStatus(waiting.payment_id as string),
        }).toEqual({ stage: 'awaiting_payment', payment: 'succeeded' });
        const [job] = await submitJobs(created.merch_order.id);
        expect(job.state).toBe('retry');
        recover();
        await makeDue(w.t, job.id);
        await w.t.drain();
        expect((await adminOrder(w, created.merch_order.id)).status_stage).toBe('submitted');
        expect(
          w.fulfilment.created.filter((c) => c.merchantReference === created.merch_order.id),
        ).toHaveLength(1);
      },
    );

    it('never sends an order whose payment an admin refunded whole before the provider took it', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer);
      w.fulfilment.goDown();
      await payCheckout(w, created.checkout_id);
      const [job] = await w.t.db.query<Array<{ id: string }>>(
        `SELECT id FROM pgboss.job WHERE name = 'merch.submit' AND data->>'merch_order_id' = $1`,
        [created.merch_order.id],
      );
      const paymentId = (await adminOrder(w, created.merch_order.id)).payment_id as string;
      await api(w.t.app)
        .as(w.admin.token)
        .post(`/admin/payments/${paymentId}/refund`, { reason: 'Changed their mind' })
        .expect(200);
      w.fulfilment.comeUp();
      await makeDue(w.t, job.id);
      await w.t.drain();
      expect((await adminOrder(w, created.merch_order.id)).status_stage).toBe('cancelled');
      expect(w.fulfilment.created.filter((c) => c.merchantReference === created.merch_order.id)).toHaveLength(
        0,
      );
      expect(await paymentStatus(paymentId)).toBe('refunded');
      expect(await refundJobsOf(paymentId)).toBe(0); // cancelling it refunds nothing twice
    });

    /** The admin's whole refund of a merch order's payment. */
    async function refundWhole(paymentId: string): Promise<void> {
      await api(w.t.app)
        .as(w.admin.token)
        .post(`/admin/payments/${paymentId}/refund`, { reason: 'Changed their mind' })
        .expect(200);
    }

    /** What a refunded order ends as here and at the provider, and how many refund jobs its payment has. */
    async function afterRefund(orderId: string, paymentId: string) {
      const o = await adminOrder(w, orderId);
      const made = w.fulfilment.created.filter((c) => c.merchantReference === orderId);
      return {
        stage: o.status_stage,
        tracked: o.fulfilment_order_id === (made[0]?.id ?? 'none'),
        refundNoted: typeof (o.metadata as Record<string, unknown>).refunded_whole_at === 'string',
        made: made.length,
        payment: await paymentStatus(paymentId),
        refundJobs: await refundJobsOf(paymentId),
      };
    }

    it('follows an order refunded whole while the provider was making it, rather than call it cancelled', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer);
      w.fulfilment.goDown(); // the first attempt is turned away: the job waits for its retry
      await payCheckout(w, created.checkout_id);
      const [job] = await submitJobs(created.merch_order.id);
      const paymentId = (await adminOrder(w, created.merch_order.id)).payment_id as string;
      w.fulfilment.comeUp();
      w.fulfilment.setLatency(600); // the order is made at once; its answer takes 0.6 s (within the timeout)
      await makeDue(w.t, job.id);
      const draining = w.t.drain();
      while (!w.fulfilment.byReference(created.merch_order.id)) await new Promise((r) => setTimeout(r, 5));
      await refundWhole(paymentId); // lands while the answer is on its way
      await draining;
      expect(await afterRefund(created.merch_order.id, paymentId)).toEqual({
        stage: 'submitted',
        tracked: true,
        refundNoted: true,
        made: 1,
        payment: 'refunded',
        refundJobs: 0,
      });
      // An admin cancels it at the provider: followed to cancelled, and nothing is refunded a second time.
      const made = w.fulfilment.byReference(created.merch_order.id)!;
      w.fulfilment.setStage(made.id, 'Cancelled');
      await callback(made.id);
      expect(await afterRefund(created.merch_order.id, paymentId)).toMatchObject({
        stage: 'cancelled',
        refundJobs: 0,
      });
    });

    it('learns the order of a lost answer before a whole refund can cancel it: followed, never refunded twice', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer);
      w.fulfilment.setLatency(1_500); // the order is made, the answer comes after the client gave up
      await payCheckout(w, created.checkout_id);
      const paymentId = (await adminOrder(w, created.merch_order.id)).payment_id as string;
      w.fulfilment.setLatency(0);
      await refundWhole(paymentId);
      const [job] = await submitJobs(created.merch_order.id);
      await makeDue(w.t, job.id);
      await w.t.drain();
      expect(await afterRefund(created.merch_order.id, paymentId)).toEqual({
        stage: 'submitted',
        tracked: true,
        refundNoted: true,
        made: 1,
        payment: 'refunded',
        refundJobs: 0,
      });
    });

    it('sends the same idempotencyKey again after a lost answer, and the provider makes it once', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer);
      w.fulfilment.setLatency(1_500); // the order is made, the answer comes after the client gave up
      await payCheckout(w, created.checkout_id);
      expect((await adminOrder(w, created.merch_order.id)).status_stage).toBe('awaiting_payment');
      w.fulfilment.setLatency(0);
      const [job] = await w.t.db.query<Array<{ id: string }>>(
        `SELECT id FROM pgboss.job WHERE name = 'merch.submit' AND data->>'merch_order_id' = $1`,
        [created.merch_order.id],
      );
      await makeDue(w.t, job.id);
      await w.t.drain();
      const o = await adminOrder(w, created.merch_order.id);
      expect(o.status_stage).toBe('submitted');
      const posts = w.fulfilment.requests.filter((r) => r.method === 'POST');
      expect(posts).toHaveLength(2);
      expect((posts[0].body as { idempotencyKey: string }).idempotencyKey).toBe(
        (posts[1].body as { idempotencyKey: string }).idempotencyKey,
      );
      expect(w.fulfilment.created.filter((c) => c.merchantReference === o.id)).toHaveLength(1);
      expect(o.fulfilment_order_id).toBe(w.fulfilment.byReference(o.id as string)!.id);
    });

    async function submitJobs(orderId: string) {
      return w.t.db.query<Array<{ id: string; state: string; later: boolean }>>(
        `SELECT id, state, start_after > now() + interval '10 minutes' AS later FROM pgboss.job
          WHERE name = 'merch.submit' AND data->>'merch_order_id' = $1 ORDER BY created_on`,
        [orderId],
      );
    }

    it('keeps an order the provider may have made when the last attempt’s answer is lost, and learns it later: no refund', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer);
      w.fulfilment.setLatency(1_500); // made at the provider; every answer comes after our 1 s timeout
      await payCheckout(w, created.checkout_id);
      const [first] = await submitJobs(created.merch_order.id);
      await makeDue(w.t, first.id, true); // the last attempt: its answer is lost too
      await w.t.drain();
      const made = w.fulfilment.byReference(created.merch_order.id)!;
      expect(w.fulfilment.created.filter((c) => c.merchantReference === created.merch_order.id)).toHaveLength(
        1,
      );
      const kept = await adminOrder(w, created.merch_order.id);
      expect({ stage: kept.status_stage, payment: await paymentStatus(kept.payment_id as string) }).toEqual({
        stage: 'awaiting_payment',
        payment: 'succeeded',
      });
      // Sent again later (not at once), with the same idempotencyKey: the provider answers with its order.
      const [, again] = await submitJobs(created.merch_order.id);
      expect(again).toMatchObject({ state: 'created', later: true });
      w.fulfilment.setLatency(0);
      await makeDue(w.t, again.id);
      await w.t.drain();
      const o = await adminOrder(w, created.merch_order.id);
      expect({ stage: o.status_stage, fulfilment: o.fulfilment_order_id }).toEqual({
        stage: 'submitted',
        fulfilment: made.id,
      });
      expect(await paymentStatus(o.payment_id as string)).toBe('succeeded');
      expect(w.fulfilment.created.filter((c) => c.merchantReference === o.id)).toHaveLength(1);
      const keys = new Set(
        w.fulfilment.requests
          .filter((r) => r.method === 'POST')
          .map((r) => (r.body as { idempotencyKey: string }).idempotencyKey),
      );
      expect(keys).toEqual(new Set([made.idempotencyKey]));
    });

    it.each([
      ['finds the provider down (503)', (w_: MerchWorld) => w_.fulfilment.goDown()],
      ['is asked to slow down (429)', (w_: MerchWorld) => w_.fulfilment.failNext(1, 429)],
      // Turned away before the provider looks at the order or its key, so it says nothing of the first attempt.
      ['is refused our key (401)', (w_: MerchWorld) => w_.fulfilment.failNext(1, 401)],
      ['is refused as forbidden (403)', (w_: MerchWorld) => w_.fulfilment.failNext(1, 403)],
    ])(
      'keeps an order whose answer was lost when the last attempt %s: no refund, sent again later',
      async (_case, turnAway) => {
        const buyer = await makeUser(w.t, w.site);
        const created = await order(buyer);
        w.fulfilment.setLatency(1_500); // the first attempt makes the order and loses the answer
        await payCheckout(w, created.checkout_id);
        w.fulfilment.setLatency(0);
        turnAway(w); // the last attempt is turned away: it did nothing, but the first did
        const [first] = await submitJobs(created.merch_order.id);
        await makeDue(w.t, first.id, true);
        await w.t.drain();
        const o = await adminOrder(w, created.merch_order.id);
        expect({ stage: o.status_stage, payment: await paymentStatus(o.payment_id as string) }).toEqual({
          stage: 'awaiting_payment',
          payment: 'succeeded',
        });
        expect(w.fulfilment.byReference(created.merch_order.id)).toBeDefined();
        expect((await submitJobs(created.merch_order.id))[1]).toMatchObject({
          state: 'created',
          later: true,
        });
      },
    );

    it('fails and refunds an order the provider never received through the last attempt (an outage)', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer);
      w.fulfilment.goDown(); // 503: turned away before any work, every time
      await payCheckout(w, created.checkout_id);
      const [first] = await submitJobs(created.merch_order.id);
      await makeDue(w.t, first.id, true);
      await w.t.drain();
      await w.t.drain();
      const o = await adminOrder(w, created.merch_order.id);
      expect({ stage: o.status_stage, payment: await paymentStatus(o.payment_id as string) }).toEqual({
        stage: 'failed',
        payment: 'refunded',
      });
      expect(await submitJobs(created.merch_order.id)).toHaveLength(1);
      expect(w.fulfilment.byReference(created.merch_order.id)).toBeUndefined();
    });

    it('refunds an order the provider cancelled while our submission’s answer was lost, its callback come before we knew it', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer);
      w.fulfilment.setLatency(1_500); // made at the provider; the answer comes after our 1 s timeout
      await payCheckout(w, created.checkout_id);
      w.fulfilment.setLatency(0);
      const made = w.fulfilment.byReference(created.merch_order.id)!;
      // The provider cancels it (an asset it cannot print) and calls back at once.
      w.fulfilment.setStage(made.id, 'Cancelled');
      await callback(made.id);
      expect((await adminOrder(w, created.merch_order.id)).status_stage).toBe('awaiting_payment');
      // Our retry learns the order (AlreadyExists), and the provider's record says Cancelled.
      const [job] = await submitJobs(created.merch_order.id);
      await makeDue(w.t, job.id);
      await w.t.drain();
      await w.t.drain();
      const o = await adminOrder(w, created.merch_order.id);
      expect({
        stage: o.status_stage,
        fulfilment: o.fulfilment_order_id,
        payment: await paymentStatus(o.payment_id as string),
      }).toEqual({ stage: 'cancelled', fulfilment: made.id, payment: 'refunded' });
      expect(await refundJobsOf(o.payment_id as string)).toBe(1);
    });

    it('re-reads a callback that came before the order was known, once its id is', async () => {
      const buyer = await makeUser(w.t, w.site);
      const created = await order(buyer);
      w.fulfilment.setLatency(1_500);
      await payCheckout(w, created.checkout_id);
      w.fulfilment.setLatency(0);
      const made = w.fulfilment.byReference(created.merch_order.id)!;
      await callback(made.id); // still InProgress: nothing to apply, and nothing known to re-read yet
      const [sync] = await w.t.db.query<Array<{ id: string; state: string }>>(
        `SELECT id, state FROM pgboss.job WHERE name = 'merch.sync' AND data->>'merch_order_id' = $1`,
        [created.merch_order.id],
      );
      expect(sync.state).toBe('retry');
      const [job] = await submitJobs(created.merch_order.id);
      await makeDue(w.t, job.id);
      await w.t.drain();
      expect((await adminOrder(w, created.merch_order.id)).status_stage).toBe('submitted');
      // Cancelled after our retry's answer, its callback's re-read having been the early one: still refunded.
      w.fulfilment.setStage(made.id, 'Cancelled');
      await makeDue(w.t, sync.id);
      await w.t.drain();
      await w.t.drain();
      const o = await adminOrder(w, created.merch_order.id);
      expect({ stage: o.status_stage, payment: await paymentStatus(o.payment_id as string) }).toEqual({
        stage: 'cancelled',
        payment: 'refunded',
      });
    });

    it('makes one order of a request retried with its Idempotency-Key: the first answer, replayed', async () => {
      const buyer = await makeUser(w.t, w.site);
      await sentTwice(
        () =>
          api(w.t.app)
            .as(buyer.token)
            .post('/merch/orders', { items: [{ merch_product_id: tee.id, copies: 1 }], ...ADDRESS }),
        201,
      );
      const orders = await w.t.db.query(`SELECT id FROM merch_orders WHERE user_id = $1`, [buyer.user.id]);
      expect(orders).toHaveLength(1);
    });

    it('states a line’s cost in its currency’s own digits, as the gateway is asked for it', async () => {
      const yen = await productOn(w, { currency: 'JPY', amount_cents: 1500, sku: 'JP-TEE' }); // ¥1,500
      const buyer = await makeUser(w.t, w.site);
      const res = await api(w.t.app)
        .as(buyer.token)
        .post('/merch/orders', { items: [{ merch_product_id: yen.id, copies: 2 }], ...ADDRESS })
        .expect(201);
      expect(w.fakes.gatewayOne.payments.get(res.body.checkout_id as string)?.amount).toBe('3000');
      expect(res.body.merch_order.items[0]).toMatchObject({
        recipient_cost_currency: 'JPY',
        recipient_cost_amount: 3000,
      });
    });

    it('refuses (422 AMOUNT_TOO_LARGE) an order adding up to more than one payment may be, writing nothing', async () => {
      const dear = await productOn(w, { amount_cents: 100_000_000, sku: 'GOLD-TEE' });
      const buyer = await makeUser(w.t, w.site);
      const res = await api(w.t.app)
        .as(buyer.token)
        .post('/merch/orders', { items: [{ merch_product_id: dear.id, copies: 22 }], ...ADDRESS })
        .expect(422);
      expect(res.body.code).toBe('AMOUNT_TOO_LARGE');
      const [orders] = await w.t.db.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM merch_orders WHERE user_id = $1`,
        [buyer.user.id],
      );
      expect(orders.n).toBe(0);
    });

    it('refuses (400) an address the provider could not ship to: blank or broken over lines, writing nothing', async () => {
      const buyer = await makeUser(w.t, w.site);
      const items = [{ merch_product_id: tee.id, copies: 1 }];
      const blank = {
        recipient_name: '   ',
        address_line1: ' ',
        town_or_city: '\t',
        postal_or_zip_code: ' ',
      };
      const res = await api(w.t.app)
        .as(buyer.token)
        .post('/merch/orders', { items, ...ADDRESS, ...blank })
        .expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      const fields = (res.body.errors as Array<{ field: string }>).map((e) => e.field).sort();
      expect(fields).toEqual(['address_line1', 'postal_or_zip_code', 'recipient_name', 'town_or_city']);
      await api(w.t.app)
        .as(buyer.token)
        .post('/merch/orders', { items, ...ADDRESS, address_line2: 'Flat 2\r\nSomewhere else' })
        .expect(400);
      const [orders] = await w.t.db.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM merch_orders WHERE user_id = $1`,
        [buyer.user.id],
      );
      expect(orders.n).toBe(0);
    });

    it('refuses (400) a product priced 0: no gateway takes a payment of nothing, so it could never be bought', async () => {
      const body = {
        name: 'Free tee',
        sku: 'FREE-TEE',
        amount_cents: 0,
        currency: 'GBP',
        sizing: 'fillPrintArea',
      };
      const made = await api(w.t.app).as(w.admin.token).post('/api/admin/merch/products', body).expect(400);
      expect(made.body.errors).toEqual([expect.objectContaining({ field: 'amount_cents' })]);
      await api(w.t.app)
        .as(w.admin.token)
        .put(`/api/admin/merch/products/${mug.id}`, { amount_cents: 0 })
        .expect(400);
      const [row] = await w.t.db.query<Array<{ amount_cents: number }>>(
        `SELECT amount_cents FROM merch_products WHERE id = $1`,
        [mug.id],
      );
      expect(row.amount_cents).toBe(mug.amount_cents);
    });

    it('refuses products of another site or withdrawn, and prices nothing the client says', async () => {
      const buyer = await makeUser(w.t, w.site);
      const other = await makeSite(w.t);
      const otherAdmin = await makeUser(w.t, other, { role: 'admin' });
      const foreign = await api(w.t.app)
        .as(otherAdmin.token)
        .post('/api/admin/merch/products', { name: 'x', sku: 'S', amount_cents: 100, currency: 'GBP' })
        .expect(201);
      const res = await api(w.t.app)
        .as(buyer.token)
        .post('/merch/orders', { items: [{ merch_product_id: foreign.body.id, copies: 1 }], ...ADDRESS })
        .expect(422);
      expect(res.body.code).toBe('PRODUCT_NOT_AVAILABLE');
      await api(w.t.app)
        .as(buyer.token)
        .post('/merch/orders', {
          items: [{ merch_product_id: tee.id, copies: 1, amount_cents: 1 }],
          ...ADDRESS,
        })
        .expect(400);
    });
  });

  describe('endpoint 10', () => {
    let site: string;
    let admin: MadeUser;

    beforeAll(async () => {
      site = await makeSite(w.t);
      admin = await makeUser(w.t, site, { role: 'admin' });
      const buyer = await makeUser(w.t, site);
      // 120 orders, several sharing a creation time (the page order breaks ties by id), two items each.
      await w.t.db.query(
        `INSERT INTO merch_orders (site_id, user_id, callback_token, callback_url, idempotency_key,
                                   amount_cents, currency, shipping_method, recipient_name, address_line1,
                                   town_or_city, postal_or_zip_code, country_code, status_stage, created_at)
         SELECT $1, $2, md5(random()::text || g), 'http://127.0.0.1/cb/' || g, gen_random_uuid(), 1500, 'GBP',
                'Standard', 'Buyer ' || g, '1 High Street', 'London', 'SW1A 1AA', 'GB',
                CASE WHEN g % 3 = 0 THEN 'complete' ELSE 'submitted' END,
                now() - (g % 7) * interval '1 minute'
           FROM generate_series(1, 120) g`,
        [site, buyer.user.id],
      );
      await w.t.db.query(
        `INSERT INTO merch_order_items (merch_order_id, merch_product_id, sku, sizing, copies,
                                        recipient_cost_amount, recipient_cost_currency)
         SELECT o.id, gen_random_uuid(), 'SKU-' || n, 'fillPrintArea', n, 7.5 * n, 'GBP'
           FROM merch_orders o CROSS JOIN generate_series(1, 2) n WHERE o.site_id = $1`,
        [site],
      );
    });

    interface Listed {
      id: string;
      site_id: string;
      status_stage: string;
      created_at: string;
      items: Array<{ merch_order_id: string }>;
    }

    async function allPages(limit: number, extra = ''): Promise<Listed[]> {
      const seen: Listed[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 50; page++) {
        const res: { body: unknown; headers: Record<string, string | undefined> } = await api(w.t.app)
          .as(admin.token)
          .get(
            `/api/admin/merch/orders?site_id=${site}&limit=${limit}${extra}${cursor ? `&cursor=${cursor}` : ''}`,
          )
          .expect(200);
        seen.push(...(res.body as Listed[]));
        cursor = res.headers['x-next-cursor'] ?? null;
        if (!cursor) break;
        expect(res.headers.link).toMatch(/rel="next"/);
      }
      return seen;
    }

    it('pages across 120 orders with no repeats or gaps, newest first, each with its items', async () => {
      const seen = await allPages(10);
      expect(seen).toHaveLength(120);
      expect(new Set(seen.map((o) => o.id)).size).toBe(120);
      for (let i = 1; i < seen.length; i++)
        expect(Date.parse(seen[i - 1].created_at)).toBeGreaterThanOrEqual(Date.parse(seen[i].created_at));
      for (const o of seen) {
        expect(o.site_id).toBe(site);
        expect(o.items).toHaveLength(2);
        expect(o.items.map((i) => i.merch_order_id)).toEqual([o.id, o.id]);
      }
      const big = await allPages(100);
      expect(big.map((o) => o.id)).toEqual(seen.map((o) => o.id));
    });

    it('filters by status_stage, and keeps each admin to their own site', async () => {
      const complete = await allPages(100, '&status_stage=complete');
      expect(complete).toHaveLength(40);
      expect(complete.every((o) => o.status_stage === 'complete')).toBe(true);
      const mine = await api(w.t.app).as(w.admin.token).get('/api/admin/merch/orders?limit=100').expect(200);
      expect((mine.body as Array<{ site_id: string }>).every((o) => o.site_id === w.site)).toBe(true);
      await api(w.t.app).as(w.admin.token).get(`/api/admin/merch/orders?site_id=${site}`).expect(403);
      await api(w.t.app).as(w.admin.token).get(`/api/admin/merch/orders?status_stage=shipped`).expect(400);
    });

    it('reads a page in the same number of statements for 10 orders as for 100', async () => {
      const page = (limit: number) =>
        api(w.t.app)
          .as(admin.token)
          .get(`/api/admin/merch/orders?site_id=${site}&limit=${limit}`)
          .expect(200);
      await page(10); // warm: the token's user is then read the same way both times
      const ten = await statementsDuring(() => page(10));
      const hundred = await statementsDuring(() => page(100));
      expect(hundred).toHaveLength(ten.length);
      expect(ten.length).toBeLessThanOrEqual(4);
    });
  });
});
