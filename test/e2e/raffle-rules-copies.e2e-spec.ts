import { api } from '../support/api';
import { makeUser } from '../support/factories';
import {
  confirm,
  paidOrderOf,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

/**
 * A paid order's plan reads the raffle's entry rules from this instance's copy (issue 9: the raffle's row
 * is not read once per sale). The copy may be behind a change made elsewhere (another instance, or here
 * straight in the database): no buyer may be refused on it, nor let past what the row says.
 */
describe("Paid orders planned from an instance's copy of the raffle's rules", () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(() => stopPaymentsWorld(w));

  const payment = async (id: string) => {
    const [row] = await w.t.db.query<Array<{ fulfilment: string; entries: string; points: number | null }>>(
      `SELECT p.fulfilment,
              (SELECT count(*) FROM raffle_entries WHERE payment_transaction_id = p.id) AS entries,
              (SELECT sum(amount)::int FROM point_transactions WHERE payment_transaction_id = p.id) AS points
         FROM payment_transactions p WHERE p.id = $1`,
      [id],
    );
    return row;
  };

  it('enters an order that a copy showing the raffle sold out would refuse, once the row has room again', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 2 });
    const [first, second, third] = [
      await paidOrderOf(w, raffle.item_id, 2),
      await paidOrderOf(w, raffle.item_id, 2),
      await paidOrderOf(w, raffle.item_id, 2),
    ];
    await confirm(w, first).expect(200);
    // Refused from the row (sold out), which leaves this instance a copy that says so.
    expect((await confirm(w, second).expect(422)).body.error_code).toBe('SOLD_OUT');
    // More tickets, decided elsewhere: this instance is not told.
    await w.t.db.query(`UPDATE raffles SET total_entries_available = 10, closed = false WHERE id = $1`, [
      raffle.id,
    ]);
    await confirm(w, third).expect(200);
    expect(await payment(third)).toMatchObject({ fulfilment: 'entered', entries: '1' });
  });

  it("holds a buyer to the per-user cap the raffle's row has, not the copy's", async () => {
    const raffle = await raffleOn(w, { max_entries: 10 });
    const buyer = await makeUser(w.t, w.site);
    const orders = [
      await paidOrderOf(w, raffle.item_id, 2, buyer.token),
      await paidOrderOf(w, raffle.item_id, 2, buyer.token),
    ];
    await confirm(w, orders[0]).expect(200); // the copy now says: at most 10 each
    await w.t.db.query(`UPDATE raffles SET max_entries = 3 WHERE id = $1`, [raffle.id]);
    const refused = await confirm(w, orders[1]).expect(422);
    expect(refused.body.error_code).toBe('MAX_ENTRIES_REACHED');
    expect(await payment(orders[1])).toEqual({
      fulfilment: 'refunded_unfillable',
      entries: '0',
      points: null,
    });
    const [held] = await w.t.db.query<Array<{ entries_count: number }>>(
      `SELECT entries_count FROM raffle_user_entries WHERE raffle_id = $1 AND user_id = $2`,
      [raffle.id, buyer.user.id],
    );
    expect(held.entries_count).toBe(2);
  });

  it('earns the points multiplier an administrator just set through the API, at once on this instance', async () => {
    const raffle = await raffleOn(w, { points_enabled: true, points_multiplier: 2 });
    const before = await paidOrderOf(w, raffle.item_id, 2);
    const after = await paidOrderOf(w, raffle.item_id, 2);
    await confirm(w, before).expect(200);
    await api(w.t.app)
      .as(w.admin.token)
      .put(`/admin/raffles/${raffle.id}`, { points_multiplier: 3 })
      .expect(200);
    await confirm(w, after).expect(200);
    const earned = [(await payment(before)).points, (await payment(after)).points];
    expect(earned[0]).toBeGreaterThan(0);
    expect(earned[1]).toBe((earned[0]! / 2) * 3);
  });

  it('earns no points on a raffle whose administrator set its multiplier to 0', async () => {
    const raffle = await raffleOn(w, { points_enabled: true, points_multiplier: 2 });
    await api(w.t.app)
      .as(w.admin.token)
      .put(`/admin/raffles/${raffle.id}`, { points_multiplier: 0 })
      .expect(200);
    const order = await paidOrderOf(w, raffle.item_id, 2);
    await confirm(w, order).expect(200);
    expect(await payment(order)).toMatchObject({ fulfilment: 'entered', entries: '1', points: null });
  });
});
