import { Client } from 'pg';
import { makeUser } from '../support/factories';
import {
  confirm,
  orderAsUser,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

interface Sent {
  client: unknown;
  text: string;
}

/**
 * Every SQL statement the app sends while `work` runs, with the connection it went on: the pg client's
 * `query` sees TypeORM's statements and raw ones alike, on PostgreSQL and on the embedded database.
 */
async function statementsOf(work: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const original = Client.prototype.query;
  Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    sent.push({
      client: this,
      text: (typeof q === 'string' ? q : (q.text ?? '')).replace(/\s+/g, ' ').trim(),
    });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    Client.prototype.query = original;
  }
  return sent;
}

const isCounter = (s: Sent): boolean => /^WITH taken AS \( ?UPDATE raffles SET current_entries/i.test(s.text);

describe('The fulfilment of a paid raffle order (issue 9: the contended row last and alone)', () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(() => stopPaymentsWorld(w));

  async function paidOrder(quantity = 2): Promise<string> {
    const raffle = await raffleOn(w, { points_enabled: true, points_multiplier: 2 });
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity });
    w.fakes.gatewayOne.complete(order.checkout_id);
    return order.order_id;
  }

  it('takes the raffle counter in one statement that also writes the entry, and nothing but COMMIT follows it', async () => {
    const orderId = await paidOrder();
    const sent = await statementsOf(() => confirm(w, orderId).expect(200));
    const counter = sent.findIndex(isCounter);
    expect(counter).toBeGreaterThan(0);
    // The same statement hands the range to the entry it inserts, and travels with the COMMIT: the row's
    // lock is never held while a reply waits for this process.
    expect(sent[counter].text).toMatch(/INSERT INTO raffle_entries/i);
    expect(sent[counter].text).toMatch(/;\s*COMMIT$/i);
    expect(sent.slice(counter + 1).filter((s) => s.client === sent[counter].client)).toEqual([]);
  });

  it('commits nothing of a paid order whose tickets went between its plan and its counter', async () => {
    const raffle = await raffleOn(w, { total_entries_available: 3, points_enabled: true });
    const orders = [];
    for (let i = 0; i < 2; i++) {
      const buyer = await makeUser(w.t, w.site);
      const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
      w.fakes.gatewayOne.complete(order.checkout_id);
      orders.push(order.order_id);
    }
    // A slow gateway: both confirmations plan (read the raffle: 3 tickets left) before either claims, so
    // the loser is refused by the counter itself, after its claim, points and cap were written.
    w.fakes.gatewayOne.setLatency(300);
    try {
      const answers = await Promise.all(orders.map((id) => confirm(w, id)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
      expect(answers.find((a) => a.status === 422)?.body.error_code).toBe('SOLD_OUT');
    } finally {
      w.fakes.gatewayOne.setLatency(0);
    }
    const rows = await w.t.db.query<
      Array<{ fulfilment: string; entries: string; points: string; held: number | null }>
    >(
      `SELECT p.fulfilment,
              (SELECT count(*) FROM raffle_entries WHERE payment_transaction_id = p.id) AS entries,
              (SELECT count(*) FROM point_transactions WHERE payment_transaction_id = p.id) AS points,
              (SELECT entries_count FROM raffle_user_entries WHERE raffle_id = p.raffle_id AND user_id = p.user_id) AS held
         FROM payment_transactions p WHERE p.id = ANY($1) ORDER BY p.fulfilment`,
      [orders],
    );
    expect(rows).toEqual([
      { fulfilment: 'entered', entries: '1', points: '1', held: 2 },
      { fulfilment: 'refunded_unfillable', entries: '0', points: '0', held: null },
    ]);
  });

  it('claims, records, queues, earns and checks the cap before the counter, in nine round trips or fewer', async () => {
    const orderId = await paidOrder(1);
    const sent = await statementsOf(() => confirm(w, orderId).expect(200));
    const counter = sent.findIndex(isCounter);
    const before = sent.slice(0, counter).map((s) => s.text);
    const at = (pattern: RegExp): number => before.findIndex((t) => pattern.test(t));
    const claim = at(/UPDATE payment_transactions .*fulfilled_at = now\(\)/i);
    expect(claim).toBeGreaterThan(0);
    // The claim opens the transaction in the same round trip.
    expect(before[claim]).toMatch(/^START TRANSACTION;\s*UPDATE payment_transactions/i);
    for (const step of [
      /^INSERT INTO activity_logs/i,
      /^INSERT INTO pgboss\.job/i,
      /INSERT INTO point_transactions/i,
      /^INSERT INTO raffle_user_entries/i,
    ])
      expect(at(step)).toBeGreaterThan(claim);
    // No savepoints, no re-reads of the payment or the site after the claim.
    expect(before.filter((t) => /SAVEPOINT/i.test(t))).toEqual([]);
    expect(before.slice(claim + 1).filter((t) => /^SELECT .* FROM "?payment_transactions/i.test(t))).toEqual(
      [],
    );
    expect(before.filter((t) => /FROM "?site_configs/i.test(t))).toEqual([]);
    expect(sent.length).toBeLessThanOrEqual(9);
  });
});
