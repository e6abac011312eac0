import { PROMISE_RETRY_AFTER_S } from '#app/infra/jobs/queue-policy.js';
import type { JobName } from '#app/infra/jobs/job.types.js';
import { api } from '../support/api';
import { makeUser } from '../support/factories';
import { activeMember, payCheckout, tierOn } from '../support/memberships';
import {
  ADDRESS,
  adminOrder,
  type MerchWorld,
  productOn,
  startMerchWorld,
  stopMerchWorld,
} from '../support/merch';
import { confirm, orderAsUser, raffleOn } from '../support/payments';

/**
 * Jobs that stand for a promise (a refund owed, a gateway schedule to delete, a provider's news to read) are
 * not dropped when an outage outlasts their attempts (about 16 minutes of back-off): the spent job is sent
 * again an hour later, for as long as it fails, and the promise is kept once the provider is back.
 */
describe('jobs that keep a promise through an outage longer than their attempts', () => {
  let w: MerchWorld;

  beforeAll(async () => {
    w = await startMerchWorld();
  });
  afterAll(() => stopMerchWorld(w));
  beforeEach(() => {
    w.fakes.gatewayOne.resetControls();
    w.fulfilment.resetControls();
  });

  type JobRow = { id: string; state: string; retry_count: number; due_in_s: number };

  const jobsOf = (name: JobName, key: string, value: string) =>
    w.t.db.query<JobRow[]>(
      `SELECT id, state, retry_count, extract(epoch FROM start_after - now())::int AS due_in_s FROM pgboss.job
        WHERE name = $1 AND data->>$2 = $3 ORDER BY created_on`,
      [name, key, value],
    );

  /** Runs every attempt of the job now (its back-off skipped, not shortened), until it has failed for good. */
  async function spend(name: JobName, key: string, value: string): Promise<void> {
    const [first] = await jobsOf(name, key, value);
    for (let attempt = 0; attempt < 12; attempt++) {
      await w.t.db.query(
        `UPDATE pgboss.job SET start_after = now() WHERE id = $1 AND state IN ('created', 'retry')`,
        [first.id],
      );
      await w.t.drain();
      const [now] = await w.t.db.query<JobRow[]>(`SELECT state FROM pgboss.job WHERE id = $1`, [first.id]);
      if (now.state === 'failed') return;
    }
    throw new Error(`${name} ${first.id} did not fail`);
  }

  /** The spent job and the one sent again an hour later; then that one run, the provider back. */
  async function sentAgainAndRun(name: JobName, key: string, value: string): Promise<void> {
    const rows = await jobsOf(name, key, value);
    expect(rows.map((r) => [r.state, r.retry_count])).toEqual([
      ['failed', 5],
      ['created', 0],
    ]);
    expect(rows[1].due_in_s).toBeGreaterThan(PROMISE_RETRY_AFTER_S - 120);
    await w.t.db.query(`UPDATE pgboss.job SET start_after = now() WHERE id = $1`, [rows[1].id]);
    await w.t.drain();
    expect((await jobsOf(name, key, value)).map((r) => r.state)).toEqual(['failed', 'completed']);
  }

  const payment = async (id: string) =>
    (
      await w.t.db.query<Array<{ status: string; refunded_cents: number; amount_cents: number }>>(
        `SELECT status, refunded_cents, amount_cents FROM payment_transactions WHERE id = $1`,
        [id],
      )
    )[0];

  it('refunds a sold-out order whose refund job met the gateway down through every attempt', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 1 });
    const first = await makeUser(w.t, w.site);
    const second = await makeUser(w.t, w.site);
    const a = await orderAsUser(w, first.token, raffle.item_id);
    const b = await orderAsUser(w, second.token, raffle.item_id);
    w.fakes.gatewayOne.complete(a.checkout_id);
    w.fakes.gatewayOne.complete(b.checkout_id);
    await confirm(w, a.order_id).expect(200);
    expect((await confirm(w, b.order_id).expect(422)).body.error_code).toBe('SOLD_OUT');
    w.fakes.gatewayOne.goDown('unavailable');
    await spend('payments.refund', 'payment_transaction_id', b.order_id);
    expect(await payment(b.order_id)).toMatchObject({ status: 'succeeded', refunded_cents: 0 });
    w.fakes.gatewayOne.comeUp();
    await sentAgainAndRun('payments.refund', 'payment_transaction_id', b.order_id);
    expect(await payment(b.order_id)).toMatchObject({ status: 'refunded', refunded_cents: 250 });
    expect(w.fakes.gatewayOne.payments.get(b.checkout_id)?.refunds.map((r) => r.amount)).toEqual(['2.50']);
  });

  it('refunds a cooling-off cancellation whose refund job met the gateway down through every attempt', async () => {
    const tier = await tierOn(w);
    const { member, id, checkoutId } = await activeMember(w, tier.id);
    const [sub] = await w.t.db.query<Array<{ current_payment_id: string }>>(
      `SELECT current_payment_id FROM subscriptions WHERE id = $1`,
      [id],
    );
    w.fakes.gatewayOne.goDown('unavailable');
    await api(w.t.app)
      .as(member.token)
      .post(`/subscriptions/${id}/cancel`, { reason: 'Changed my mind' })
      .expect(200);
    await spend('payments.refund', 'payment_transaction_id', sub.current_payment_id);
    w.fakes.gatewayOne.comeUp();
    await sentAgainAndRun('payments.refund', 'payment_transaction_id', sub.current_payment_id);
    const paid = await payment(sub.current_payment_id);
    expect(paid).toMatchObject({ status: 'refunded', refunded_cents: paid.amount_cents });
    expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds).toHaveLength(1);
  });

  it('deletes a cancelled imported membership’s schedule at the gateway after an outage through every attempt', async () => {
    const tier = await tierOn(w);
    const { id } = await activeMember(w, tier.id);
    const schedule = `sched-kept-${id}`;
    w.fakes.gatewayOne.schedules.add(schedule);
    await w.t.db.query(
      `UPDATE subscriptions SET cooling_off_expiry = now() - interval '1 day', gatewayone_schedule_id = $2
        WHERE id = $1`,
      [id, schedule],
    );
    w.fakes.gatewayOne.goDown('unavailable');
    await api(w.t.app)
      .as(w.admin.token)
      .post('/admin/subscriptions/cancel', { subscription_id: id, reason: 'Member asked', immediate: true })
      .expect(200);
    await spend('subscriptions.delete-schedule', 'subscription_id', id);
    expect(w.fakes.gatewayOne.schedules.has(schedule)).toBe(true);
    w.fakes.gatewayOne.comeUp();
    await sentAgainAndRun('subscriptions.delete-schedule', 'subscription_id', id);
    expect(w.fakes.gatewayOne.schedules.has(schedule)).toBe(false);
  });

  it('reads a provider’s cancellation whose re-read met the provider down through every attempt: refunded', async () => {
    const tee = await productOn(w);
    const buyer = await makeUser(w.t, w.site);
    const created = await api(w.t.app)
      .as(buyer.token)
      .post('/merch/orders', { items: [{ merch_product_id: tee.id, copies: 1 }], ...ADDRESS })
      .expect(201);
    await payCheckout(w, created.body.checkout_id as string);
    const o = await adminOrder(w, created.body.merch_order.id as string);
    expect(o.status_stage).toBe('submitted');
    w.fulfilment.setStage(o.fulfilment_order_id as string, 'Cancelled');
    w.fulfilment.goDown('unavailable');
    expect(await w.fulfilment.sendCallback(o.fulfilment_order_id as string)).toBe(200);
    await spend('merch.sync', 'merch_order_id', o.id as string);
    expect((await adminOrder(w, o.id as string)).status_stage).toBe('submitted');
    w.fulfilment.comeUp();
    await sentAgainAndRun('merch.sync', 'merch_order_id', o.id as string);
    expect((await adminOrder(w, o.id as string)).status_stage).toBe('cancelled');
    await w.t.drain(); // the refund the cancellation queued
    expect(await payment(o.payment_id as string)).toMatchObject({ status: 'refunded' });
  });

  it('sends a queued refund once when two copies of its job run side by side (as one worker’s batch runs them)', async () => {
    const queue = w.t.jobs as unknown as {
      runBatch(name: JobName, jobs: Array<{ id: string; data: unknown }>): Promise<void>;
    };
    for (let round = 0; round < 3; round++) {
      const raffle = await raffleOn(w);
      const buyer = await makeUser(w.t, w.site);
      const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 4 }); // £10.00
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
      await w.t.drain();
      // Two copies of one part refund (pg-boss keeps no singleton on this queue), fetched together.
      for (let copy = 0; copy < 2; copy++)
        await w.t.jobs.enqueue('payments.refund', {
          payment_transaction_id: order.order_id,
          amount_cents: 400,
          reason: 'Cooling-off cancellation',
        });
      const copies = await w.t.db.query<Array<{ id: string; data: unknown }>>(
        `SELECT id, data FROM pgboss.job WHERE name = 'payments.refund' AND data->>'payment_transaction_id' = $1`,
        [order.order_id],
      );
      await w.t.db.query(
        `UPDATE pgboss.job SET state = 'active', started_on = now() WHERE id = ANY($1::uuid[])`,
        [copies.map((c) => c.id)],
      );
      expect(copies).toHaveLength(2);
      await queue.runBatch('payments.refund', copies);
      await w.t.db.query(
        `UPDATE pgboss.job SET start_after = now() WHERE name = 'payments.refund' AND data->>'payment_transaction_id' = $1 AND state = 'retry'`,
        [order.order_id],
      );
      await w.t.drain(); // the copy that found the other in flight, again: nothing of it is left to send
      expect(w.fakes.gatewayOne.payments.get(order.checkout_id)?.refunds.map((r) => r.amount)).toEqual([
        '4.00',
      ]);
      expect(await payment(order.order_id)).toMatchObject({ refunded_cents: 400 });
    }
  });

  it('ends a queued refund that nothing can be refunded of, rather than send it again for ever', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id);
    w.fakes.gatewayOne.complete(order.checkout_id, '800.100.151'); // declined
    await confirm(w, order.order_id).expect(422);
    await w.t.jobs.enqueue('payments.refund', {
      payment_transaction_id: order.order_id,
      amount_cents: 250,
      reason: 'Queued for a payment that failed',
    });
    await w.t.drain();
    expect(
      (await jobsOf('payments.refund', 'payment_transaction_id', order.order_id)).map((r) => r.state),
    ).toEqual(['completed']);
    expect(await payment(order.order_id)).toMatchObject({ status: 'failed', refunded_cents: 0 });
  });
});
