import { api } from '../support/api';
import { makeUser, pointsOf } from '../support/factories';
import {
  confirm,
  orderAsUser,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
  type PaymentsWorld,
} from '../support/payments';

/**
 * A price means the same everywhere in its currency's own minor unit (ISO 4217): the raffle shows it, the
 * quote adds it up, the gateway charges it, the e-mail states it and the points follow it. A yen has no
 * hundredths and a dinar has thousandths, so a ¥500 ticket is charged ¥500, not ¥50,000.
 */
describe('payments: a ticket priced in currencies with 0, 2 and 3 decimals', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(() => stopPaymentsWorld(w));

  /** Buys `quantity` tickets of `itemId` as a new member; answers what each side saw of the money. */
  async function buy(itemId: string, quantity: number) {
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, itemId, { quantity });
    const charged = w.fakes.gatewayOne.complete(order.checkout_id);
    await confirm(w, order.order_id).expect(200);
    await w.t.drain();
    const [payment] = await w.t.db.query<Array<{ amount_cents: number; status: string }>>(
      `SELECT amount_cents, status FROM payment_transactions WHERE id = $1`,
      [order.order_id],
    );
    const mail = w.t.smtp.to(buyer.email).find((m) => m.subject.startsWith(`Your ${quantity} ticket`));
    return {
      charged: { amount: charged.amount, currency: charged.currency },
      payment,
      points: await pointsOf(w.t, buyer.user.id),
      paidLine: mail?.text
        .split('\n')
        .find((line) => line.startsWith('Paid:'))
        ?.trim(),
    };
  }

  it.each([
    ['JPY', 500, 500, { amount: '1000', minor: 1000, paid: 'Paid: 1000 JPY', points: 1000 }],
    ['GBP', 2.5, 250, { amount: '5.00', minor: 500, paid: 'Paid: 5.00 GBP', points: 5 }],
    ['KWD', 1.25, 1250, { amount: '2.500', minor: 2500, paid: 'Paid: 2.500 KWD', points: 2 }],
  ])(
    'a %s %d ticket: shown, quoted, charged, recorded, mailed and rewarded in the same units',
    async (currency, display, unitMinor, two) => {
      const raffle = await raffleOn(w, { currency, price_display: display });
      expect(raffle.price_display).toBe(display);
      const quote = await api(w.t.app).get(`/raffles/${raffle.id}/quote?quantity=2`).expect(200);
      expect(quote.body).toMatchObject({ currency, unit_cents: unitMinor, amount_cents: two.minor });

      expect(await buy(raffle.item_id, 2)).toEqual({
        charged: { amount: two.amount, currency },
        payment: { amount_cents: two.minor, status: 'succeeded' },
        points: two.points,
        paidLine: two.paid,
      });
    },
  );

  // Intl shows these without decimals, but they are charged in hundredths: 10.00 is ten units, ten points.
  it.each(['HUF', 'IDR', 'COP', 'PKR'])(
    'a %s 10.00 ticket is charged 10.00 and earns 10 points',
    async (currency) => {
      const raffle = await raffleOn(w, { currency, price_display: 10 });
      expect(await buy(raffle.item_id, 1)).toMatchObject({
        charged: { amount: '10.00', currency },
        payment: { amount_cents: 1000, status: 'succeeded' },
        points: 10,
      });
    },
  );

  it('rounds a yen bundle’s saving to the yen', async () => {
    const raffle = await raffleOn(w, {
      currency: 'JPY',
      price_display: 333,
      upsells: [{ quantity: 10, percentage: 15 }],
    });
    // 3330 × 15 % = 499.5 → 500
    expect(raffle.upsells).toEqual([{ quantity: 10, qty: 10, percentage: 15, discount: 500 }]);
    const quote = await api(w.t.app).get(`/raffles/${raffle.id}/quote?quantity=0&upsell=10`).expect(200);
    expect(quote.body).toMatchObject({ amount_cents: 2831 }); // 3330 × 85 % = 2830.5 → ¥2,831
  });

  it('fulfils an order that earns more points than a balance holds, and the balance stops at its most', async () => {
    // ¥1,000,000 × 3 at a ×1000 multiplier is 3,000,000,000 points: past PostgreSQL's integer.
    const raffle = await raffleOn(w, {
      currency: 'JPY',
      price_display: 1_000_000,
      points_enabled: true,
      points_multiplier: 1000,
    });
    const bought = await buy(raffle.item_id, 3);
    expect(bought).toMatchObject({
      payment: { amount_cents: 3_000_000, status: 'succeeded' },
      points: 2_147_483_647,
    });
    const [tickets] = await w.t.db.query(`SELECT current_entries FROM raffles WHERE id = $1`, [raffle.id]);
    expect(tickets.current_entries).toBe(3);

    // A second order on a full balance is fulfilled too, and the balance stays at its most.
    const again = await raffleOn(w, {
      currency: 'JPY',
      price_display: 1_000_000,
      points_enabled: true,
      points_multiplier: 1000,
    });
    const buyer = await makeUser(w.t, w.site);
    for (const itemId of [raffle.item_id, again.item_id]) {
      const order = await orderAsUser(w, buyer.token, itemId, { quantity: 3 });
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
    }
    await w.t.drain();
    expect(await pointsOf(w.t, buyer.user.id)).toBe(2_147_483_647);
    const [entries] = await w.t.db.query(
      `SELECT count(*)::int AS orders, sum(entries_count)::int AS tickets FROM raffle_entries WHERE user_id = $1`,
      [buyer.user.id],
    );
    expect(entries).toEqual({ orders: 2, tickets: 6 });
  });
});
