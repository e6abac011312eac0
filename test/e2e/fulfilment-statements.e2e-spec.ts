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
const isCommit = (s: Sent): boolean => /^COMMIT$/i.test(s.text);

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
    // The same statement hands the range to the entry it inserts.
    expect(sent[counter].text).toMatch(/INSERT INTO raffle_entries/i);
    const onItsConnection = sent.slice(counter + 1).filter((s) => s.client === sent[counter].client);
    expect(onItsConnection[0] && isCommit(onItsConnection[0])).toBe(true);
  });

  it('claims, records, queues, earns and checks the cap before the counter, in ten statements or fewer', async () => {
    const orderId = await paidOrder(1);
    const sent = await statementsOf(() => confirm(w, orderId).expect(200));
    const counter = sent.findIndex(isCounter);
    const before = sent.slice(0, counter).map((s) => s.text);
    const at = (pattern: RegExp): number => before.findIndex((t) => pattern.test(t));
    const claim = at(/^UPDATE payment_transactions .*fulfilled_at = now\(\)/i);
    expect(claim).toBeGreaterThan(0);
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
    expect(sent.length).toBeLessThanOrEqual(10);
  });
});
