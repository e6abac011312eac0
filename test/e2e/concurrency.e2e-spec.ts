import { api } from '../support/api';
import { makeUser, type MadeUser, pointsOf, givePoints } from '../support/factories';
import {
  confirm,
  orderAsUser,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

/**
 * The headline rules under parallel load (DESIGN §6): tickets never oversold, a user's cap never passed,
 * balances never negative, each payment fulfilled once. They prove something on PostgreSQL, where the
 * transactions really overlap; on PGlite they run one at a time and must still give the same answers.
 */
describe('the headline rules hold under concurrency', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  const give = (u: MadeUser, amount: number) => givePoints(w.t, w.admin.token, u, amount);
  const enterWithPoints = (u: MadeUser, raffleId: string, quantity: number) =>
    api(w.t.app).as(u.token).post(`/raffles/${raffleId}/entries`, { method: 'points', quantity });
  const balance = (u: MadeUser): Promise<number> => pointsOf(w.t, u.user.id);
  const tally = (statuses: number[]): Record<number, number> =>
    statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  it('sells exactly the last 20 tickets to 100 parallel buyers and refunds the other 80 whole', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 20 });
    const buyers: MadeUser[] = [];
    for (let i = 0; i < 100; i += 10) {
      buyers.push(...(await Promise.all(Array.from({ length: 10 }, () => makeUser(w.t, w.site)))));
    }
    const orders: Array<{ order_id: string; checkout_id: string }> = [];
    for (let i = 0; i < buyers.length; i += 10) {
      orders.push(
        ...(await Promise.all(buyers.slice(i, i + 10).map((b) => orderAsUser(w, b.token, raffle.item_id)))),
      );
    }
    for (const o of orders) w.fakes.gatewayOne.complete(o.checkout_id);

    const answers = await Promise.all(orders.map((o) => confirm(w, o.order_id)));
    // The 20 who got tickets are told so; the 80 who paid too late learn it was sold out (and refunded).
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 20, 422: 80 });
    expect(new Set(answers.filter((a) => a.status === 422).map((a): unknown => a.body.error_code))).toEqual(
      new Set(['SOLD_OUT']),
    );

    const entries = await w.t.db.query<
      Array<{ entries_count: number; ticket_from: number; ticket_to: number }>
    >(
      `SELECT entries_count, ticket_from, ticket_to FROM raffle_entries WHERE raffle_id = $1 ORDER BY ticket_from`,
      [raffle.id],
    );
    expect(entries.reduce((sum, e) => sum + e.entries_count, 0)).toBe(20);
    const tickets = entries.flatMap((e) =>
      Array.from({ length: e.ticket_to - e.ticket_from + 1 }, (_, k) => e.ticket_from + k),
    );
    expect(tickets).toEqual(Array.from({ length: 20 }, (_, k) => k + 1));

    const [counters] = await w.t.db.query(
      `SELECT current_entries, entries_purchased, closed FROM raffles WHERE id = $1`,
      [raffle.id],
    );
    expect(counters).toEqual({ current_entries: 20, entries_purchased: 20, closed: true });

    const outcomes = await w.t.db.query<Array<{ id: string; status: string; fulfilment: string }>>(
      `SELECT id, status, fulfilment FROM payment_transactions WHERE raffle_id = $1`,
      [raffle.id],
    );
    expect(outcomes).toHaveLength(100);
    expect(outcomes.every((o) => o.status === 'succeeded')).toBe(true);
    expect(
      tally(
        outcomes.map((o) =>
          o.fulfilment === 'entered' ? 1 : o.fulfilment === 'refunded_unfillable' ? 2 : 0,
        ),
      ),
    ).toEqual({ 1: 20, 2: 80 });
    const refunded = outcomes.filter((o) => o.fulfilment === 'refunded_unfillable').map((o) => o.id);
    const refundJobs = await w.t.db.query<Array<{ id: string }>>(
      `SELECT DISTINCT data->>'payment_transaction_id' AS id FROM pgboss.job
        WHERE name = 'payments.refund' AND data->>'payment_transaction_id' = ANY($1)`,
      [refunded],
    );
    expect(refundJobs.map((j) => j.id).sort()).toEqual([...refunded].sort());
    // Nobody who was refunded earned points for it.
    const earners = await w.t.db.query(
      `SELECT 1 FROM point_transactions WHERE payment_transaction_id = ANY($1)`,
      [refunded],
    );
    expect(earners).toHaveLength(0);

    // The queued refunds go out: each of the 80 gets back the whole payment, once.
    await w.t.drain();
    const settled = await w.t.db.query<
      Array<{ status: string; refunded_cents: number; amount_cents: number }>
    >(`SELECT status, refunded_cents, amount_cents FROM payment_transactions WHERE id = ANY($1)`, [refunded]);
    expect(settled).toHaveLength(80);
    for (const p of settled)
      expect(p).toEqual({ status: 'refunded', refunded_cents: 250, amount_cents: 250 });
  }, 180_000); // 100 buyers and 80 refunds through the fakes, and their mails: a long test, not a timed one

  it('holds one user to max_entries 3 when they fire 10 entries at once', async () => {
    const raffle = await raffleOn(w, { points_required: 1, max_entries: 3 });
    const u = await makeUser(w.t, w.site);
    await give(u, 100);
    const answers = await Promise.all(Array.from({ length: 10 }, () => enterWithPoints(u, raffle.id, 1)));
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 3, 422: 7 });
    for (const a of answers.filter((x) => x.status === 422)) expect(a.body.code).toBe('MAX_ENTRIES_REACHED');
    const [held] = await w.t.db.query(
      `SELECT entries_count FROM raffle_user_entries WHERE raffle_id = $1 AND user_id = $2`,
      [raffle.id, u.user.id],
    );
    expect(held.entries_count).toBe(3);
    const [counters] = await w.t.db.query(`SELECT current_entries FROM raffles WHERE id = $1`, [raffle.id]);
    expect(counters.current_entries).toBe(3);
    expect(await balance(u)).toBe(97);
  });

  it('holds max_entries by the cap alone: 10 parallel postal entries for one user, cap 3 → exactly 3', async () => {
    const raffle = await raffleOn(w, { max_entries: 3 });
    const u = await makeUser(w.t, w.site);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api(w.t.app)
          .as(w.admin.token)
          .post(`/admin/raffles/${raffle.id}/entries`, { user_id: u.user.id, quantity: 1, method: 'postal' }),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 3, 422: 7 });
    const tickets = answers
      .filter((a) => a.status === 201)
      .map((a) => a.body.ticket_from as number)
      .sort((a, b) => a - b);
    expect(tickets).toEqual([1, 2, 3]);
    const [counters] = await w.t.db.query(`SELECT current_entries FROM raffles WHERE id = $1`, [raffle.id]);
    expect(counters.current_entries).toBe(3);
  });

  it('never oversells to parallel points entries: 40 users, 10 tickets → 10 entered, numbered 1..10', async () => {
    const raffle = await raffleOn(w, { points_required: 1, total_entries_available: 10 });
    const users = await Promise.all(Array.from({ length: 40 }, () => makeUser(w.t, w.site)));
    for (const u of users) await give(u, 5);
    const answers = await Promise.all(users.map((u) => enterWithPoints(u, raffle.id, 1)));
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 10, 422: 30 });
    for (const a of answers.filter((x) => x.status === 422)) expect(a.body.code).toBe('SOLD_OUT');
    const tickets = answers
      .filter((a) => a.status === 201)
      .map((a) => a.body.ticket_from as number)
      .sort((a, b) => a - b);
    expect(tickets).toEqual(Array.from({ length: 10 }, (_, k) => k + 1));
    const balances = await Promise.all(users.map(balance));
    expect(balances.filter((b) => b === 4)).toHaveLength(10);
    expect(balances.filter((b) => b === 5)).toHaveLength(30);
  });

  it('enters whole orders only when buyers of 1 to 3 tickets race for the last 20', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 20 });
    const buyers = await Promise.all(Array.from({ length: 30 }, () => makeUser(w.t, w.site)));
    const orders: Array<{ order_id: string; checkout_id: string; quantity: number }> = [];
    for (let i = 0; i < buyers.length; i += 10) {
      orders.push(
        ...(await Promise.all(
          buyers.slice(i, i + 10).map(async (b, k) => {
            const quantity = ((i + k) % 3) + 1;
            return { ...(await orderAsUser(w, b.token, raffle.item_id, { quantity })), quantity };
          }),
        )),
      );
    }
    for (const o of orders) w.fakes.gatewayOne.complete(o.checkout_id);
    const answers = await Promise.all(orders.map((o) => confirm(w, o.order_id)));
    // Entered orders are 200; the rest no longer fit and are told SOLD_OUT (their payment is refunded whole).
    expect(
      answers.every((a) => a.status === 200 || (a.status === 422 && a.body.error_code === 'SOLD_OUT')),
    ).toBe(true);
    const entries = await w.t.db.query<
      Array<{ payment_transaction_id: string; entries_count: number; ticket_from: number; ticket_to: number }>
    >(
      `SELECT payment_transaction_id, entries_count, ticket_from, ticket_to FROM raffle_entries
        WHERE raffle_id = $1 ORDER BY ticket_from`,
      [raffle.id],
    );
    const wanted = new Map(orders.map((o) => [o.order_id, o.quantity]));
    let next = 1;
    for (const e of entries) {
      expect(e.entries_count).toBe(wanted.get(e.payment_transaction_id));
      expect(e.ticket_from).toBe(next);
      expect(e.ticket_to).toBe(next + e.entries_count - 1);
      next = e.ticket_to + 1;
    }
    const sold = next - 1;
    expect(sold).toBeLessThanOrEqual(20);
    expect(sold).toBeGreaterThanOrEqual(18); // refused orders were of more tickets than were left
    const [counters] = await w.t.db.query(`SELECT current_entries, closed FROM raffles WHERE id = $1`, [
      raffle.id,
    ]);
    expect(counters.current_entries).toBe(sold);
    const refused = await w.t.db.query<Array<{ id: string }>>(
      `SELECT id FROM payment_transactions WHERE raffle_id = $1 AND fulfilment = 'refunded_unfillable'`,
      [raffle.id],
    );
    expect(refused.length + entries.length).toBe(30);
    for (const r of refused) expect(wanted.get(r.id)).toBeGreaterThan(20 - sold);
  });

  it('runs a repeated Idempotency-Key once when the repeats arrive together', async () => {
    const raffle = await raffleOn(w, { points_required: 10 });
    const u = await makeUser(w.t, w.site);
    await give(u, 100);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        enterWithPoints(u, raffle.id, 2).set('Idempotency-Key', `k-${raffle.id}`),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses).toContain(201);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id as string)).size).toBe(1);
    expect(await balance(u)).toBe(80);
  });

  it('holds the cap when a user’s paid order and points entries race: 3 held, a refused order refunded', async () => {
    const raffle = await raffleOn(w, { points_required: 1, max_entries: 3 });
    const u = await makeUser(w.t, w.site);
    await give(u, 10);
    const order = await orderAsUser(w, u.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    const [confirmation] = await Promise.all([
      confirm(w, order.order_id),
      ...Array.from({ length: 3 }, () => enterWithPoints(u, raffle.id, 1)),
    ]);
    // The paid order either got in, or lost the race to the cap and is told so (and refunded).
    expect(
      confirmation.status === 200 ||
        (confirmation.status === 422 && confirmation.body.error_code === 'MAX_ENTRIES_REACHED'),
    ).toBe(true);
    const [held] = await w.t.db.query(
      `SELECT entries_count FROM raffle_user_entries WHERE raffle_id = $1 AND user_id = $2`,
      [raffle.id, u.user.id],
    );
    const entries = await w.t.db.query<Array<{ method: string; entries_count: number }>>(
      `SELECT method, entries_count FROM raffle_entries WHERE raffle_id = $1`,
      [raffle.id],
    );
    expect(held.entries_count).toBe(3);
    expect(entries.reduce((sum, e) => sum + e.entries_count, 0)).toBe(3);
    const [payment] = await w.t.db.query(`SELECT fulfilment FROM payment_transactions WHERE id = $1`, [
      order.order_id,
    ]);
    const paid = entries.filter((e) => e.method === 'paid');
    expect(payment.fulfilment).toBe(paid.length ? 'entered' : 'refunded_unfillable');
    expect(await balance(u)).toBe(
      10 - entries.filter((e) => e.method === 'points').length + (paid.length ? 5 : 0),
    );
  });

  it('never takes a balance below zero: 100 points, 10 parallel entries at 30 → 3 entered, 10 left', async () => {
    const raffle = await raffleOn(w, { points_required: 30 });
    const u = await makeUser(w.t, w.site);
    await give(u, 100);
    const answers = await Promise.all(Array.from({ length: 10 }, () => enterWithPoints(u, raffle.id, 1)));
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 3, 422: 7 });
    for (const a of answers.filter((x) => x.status === 422)) expect(a.body.code).toBe('INSUFFICIENT_POINTS');
    expect(await balance(u)).toBe(10);
    const spends = await w.t.db.query(
      `SELECT amount FROM point_transactions WHERE user_id = $1 AND transaction_type = 'spend'`,
      [u.user.id],
    );
    expect(spends).toEqual([{ amount: -30 }, { amount: -30 }, { amount: -30 }]);
    const [counters] = await w.t.db.query(`SELECT current_entries FROM raffles WHERE id = $1`, [raffle.id]);
    expect(counters.current_entries).toBe(3);
  });

  it('fulfils a payment once when its confirmation arrives 10 times at once', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    const answers = await Promise.all(Array.from({ length: 10 }, () => confirm(w, order.order_id)));
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 10 });
    for (const a of answers) expect(a.body).toMatchObject({ success: true, status: 'succeeded' });
    const entries = await w.t.db.query(
      `SELECT entries_count, ticket_from, ticket_to FROM raffle_entries WHERE payment_transaction_id = $1`,
      [order.order_id],
    );
    expect(entries).toEqual([{ entries_count: 2, ticket_from: 1, ticket_to: 2 }]);
    const earns = await w.t.db.query(
      `SELECT amount FROM point_transactions WHERE payment_transaction_id = $1`,
      [order.order_id],
    );
    expect(earns).toEqual([{ amount: 5 }]);
    expect(await balance(buyer)).toBe(5);
    const [counters] = await w.t.db.query(`SELECT current_entries FROM raffles WHERE id = $1`, [raffle.id]);
    expect(counters.current_entries).toBe(2);
  });
});
