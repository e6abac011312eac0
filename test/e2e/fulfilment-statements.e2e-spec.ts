import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { api } from '../support/api';
import { DEFAULT_PASSWORD, makeUser } from '../support/factories';
import {
  confirm,
  orderAsUser,
  paidOrderOf,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';
import {
  messagesOf,
  type Sent,
  statementsAfter,
  tapStatements,
  untapStatements,
} from '../support/statement-tap';

const COUNTER = /UPDATE raffles SET current_entries = current_entries \+/i;
const isCounterMessage = (m: Sent): boolean => m.statements.some((t) => COUNTER.test(t));

describe('The fulfilment of a paid raffle order (issue 9: the contended row last and alone)', () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    tapStatements();
    w = await startPaymentsWorld();
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
    untapStatements();
  });

  async function paidOrder(quantity = 2): Promise<string> {
    const raffle = await raffleOn(w, { points_enabled: true, points_multiplier: 2 });
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity });
    w.fakes.gatewayOne.complete(order.checkout_id);
    return order.order_id;
  }

  it('takes the raffle counter in one statement that also writes the entry, and nothing but COMMIT follows it', async () => {
    const orderId = await paidOrder();
    const sent = await messagesOf(() => confirm(w, orderId).expect(200));
    const at = sent.findIndex(isCounterMessage);
    expect(at).toBeGreaterThan(0);
    const last = sent[at].statements;
    // The counter's statement reads the entrant as a live account, checks the cap, takes the tickets and
    // hands the range to the entry it inserts; it travels with the COMMIT, so the row's lock never waits
    // for this process.
    const counter = last.findIndex((t) => COUNTER.test(t));
    expect(last[counter]).toMatch(
      /^WITH entrant AS MATERIALIZED \(SELECT id FROM users WHERE id = (\$5|'[^']+') AND deleted_at IS NULL FOR KEY SHARE\), cap AS \(SELECT \(SELECT max_entries FROM raffles WHERE id = (\$1|'[^']+')\).*capped AS \( ?INSERT INTO raffle_user_entries/i,
    );
    expect(last[counter]).toMatch(/INSERT INTO raffle_entries/i);
    expect(last.slice(counter + 1)).toEqual(['COMMIT']);
    expect(sent.slice(at + 1).filter((m) => m.client === sent[at].client)).toEqual([]);
  });

  it('runs every statement of a sale by plans PostgreSQL keeps per connection (literals on the embedded database)', async () => {
    const orderId = await paidOrder();
    const sent = await messagesOf(() => confirm(w, orderId).expect(200));
    const messages = sent.map((m) => m.raw.split(/;\n/));
    // The whole transaction is one message, from START to COMMIT.
    const transaction = messages.find((m) => m[0] === 'START TRANSACTION');
    expect(transaction?.[transaction.length - 1]).toBe('COMMIT');
    const reads = sent.filter((m) =>
      /^SELECT .* FROM (payment_transactions|raffles) /i.test(m.statements[0]),
    );
    expect(reads).toHaveLength(2); // the payment's head, the raffle's rules
    if (process.env.TEST_DATABASE_URL) {
      // A PREPARE goes only on a connection's first use of a statement: what runs is an EXECUTE.
      const executed = (m: string[] | undefined) => (m ?? []).filter((t) => !t.startsWith('PREPARE '));
      const runs = executed(transaction).slice(1, -1);
      expect(runs.length).toBeGreaterThanOrEqual(6); // claim, activity, job, points, referral, counter
      for (const statement of runs) expect(statement).toMatch(/^EXECUTE kept_\w+\(/);
      for (const read of reads) expect(read.name).toMatch(/^plan_\w+$/);
    } else {
      expect(messages.flat().filter((t) => /^(PREPARE|EXECUTE) /.test(t))).toEqual([]);
      expect(reads.map((m) => m.name)).toEqual([undefined, undefined]);
    }
  });

  it("sends a raffle's later sales as two messages: the payment's head, then the whole transaction", async () => {
    const raffle = await raffleOn(w, { points_enabled: true, points_multiplier: 2 });
    const orders = [await paidOrderOf(w, raffle.item_id, 1), await paidOrderOf(w, raffle.item_id, 1)];
    await confirm(w, orders[0]).expect(200);
    // The raffle's entry rules come from this instance's copy, made by the first sale.
    const sent = await messagesOf(() => confirm(w, orders[1]).expect(200));
    expect(sent).toHaveLength(2);
    expect(sent[0].statements[0]).toMatch(/^SELECT .* FROM payment_transactions p WHERE p\.id = \$1$/i);
    expect(sent[1].statements[0]).toBe('START TRANSACTION');
    expect(sent[1].statements[sent[1].statements.length - 1]).toBe('COMMIT');
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

  it('claims again the ordinary way, keeping nothing of the first message, when the payment moved since it was read', async () => {
    const orderId = await paidOrder(2);
    // The gateway is slow: the payment is read (pending), then moves to review while the gateway is
    // asked, so the claim sent with the whole fulfilment finds nothing to claim and raises.
    w.fakes.gatewayOne.setLatency(300);
    let sent: Sent[];
    try {
      sent = await messagesOf(async () => {
        const answered = confirm(w, orderId).then((r) => r); // sent now, not when awaited
        await new Promise((r) => setTimeout(r, 150));
        await w.t.db.query(`UPDATE payment_transactions SET status = 'review' WHERE id = $1`, [orderId]);
        expect((await answered).status).toBe(200);
      });
    } finally {
      w.fakes.gatewayOne.setLatency(0);
    }
    const transactions = sent.filter((m) => /^START TRANSACTION$/i.test(m.statements[0]));
    expect(transactions).toHaveLength(2);
    expect(transactions[0].statements[1]).toMatch(/payment_claim_lost/);
    expect(transactions[1].statements[1]).toMatch(/^UPDATE payment_transactions /i);
    const rows = await w.t.db.query<
      Array<{ status: string; fulfilment: string; entries: string; points: string; moves: string[] }>
    >(
      `SELECT p.status, p.fulfilment,
              (SELECT count(*) FROM raffle_entries WHERE payment_transaction_id = p.id) AS entries,
              (SELECT count(*) FROM point_transactions WHERE payment_transaction_id = p.id) AS points,
              (SELECT array_agg(description ORDER BY created_at) FROM activity_logs
                WHERE resource_id = p.id::text AND activity_type = 'payment_status') AS moves
         FROM payment_transactions p WHERE p.id = $1`,
      [orderId],
    );
    expect(rows).toEqual([
      {
        status: 'succeeded',
        fulfilment: 'entered',
        entries: '1',
        points: '1',
        moves: ['Payment review → succeeded (confirmation)'],
      },
    ]);
  });

  it('sends nothing, not even a ROLLBACK, for a held transaction whose work fails before its message goes', async () => {
    const tx = w.t.app.get(TransactionRunner);
    const sent = await messagesOf(async () => {
      const failing = tx.runHeldOpening({ sql: 'SELECT $1::int AS n', values: [1] }, () =>
        Promise.reject(new Error('refused before any statement went')),
      );
      await expect(failing).rejects.toThrow('refused before any statement went');
      // The connection it had is whole: a held transaction on the pool runs and answers.
      let rows: Promise<unknown[]> | undefined;
      await tx.runHeldOpening({ sql: 'SELECT $1::int AS n', values: [2] }, (r) => {
        rows = r;
        return Promise.resolve();
      });
      expect(await rows).toEqual([{ n: 2 }]);
    });
    expect(sent.map((m) => m.statements.filter((t) => !/^(SELECT|EXECUTE)/.test(t)))).toEqual([
      ['START TRANSACTION', 'COMMIT'],
    ]);
  });

  it('claims, records, queues and earns before the counter, the whole transaction in one message', async () => {
    const orderId = await paidOrder(1);
    const sent = await messagesOf(() => confirm(w, orderId).expect(200));
    const at = sent.findIndex(isCounterMessage);
    const opening = sent.findIndex((m) => /^START TRANSACTION$/i.test(m.statements[0]));
    // The transaction opens with the claim: the status, the gateway's report and the exactly-once mark in
    // one conditional UPDATE that raises when it claims nothing; every write nobody reads back, the
    // counter and COMMIT travel with it, in the same message as START TRANSACTION.
    expect(opening).toBeGreaterThan(0);
    expect(sent[opening].statements[1]).toMatch(
      /^WITH claimed AS \( UPDATE payment_transactions .*fulfilled_at = now\(\).* payment_claim_lost\(/i,
    );
    expect(at).toBe(opening);
    const last = sent[at].statements;
    const counter = last.findIndex((t) => COUNTER.test(t));
    const before = last.slice(0, counter);
    for (const step of [
      /^INSERT INTO activity_logs/i,
      /^INSERT INTO pgboss\.job/i,
      /^WITH earned AS \( INSERT INTO point_transactions/i,
      // A referral the buyer's first payment completes (issue 12): a no-op statement when there is none.
      /^WITH ref AS \( UPDATE referrals r SET status = 'completed'/i,
    ])
      expect(before.filter((t) => step.test(t))).toHaveLength(1);
    // No savepoints, no re-read of the payment or the site after the claim.
    const all = sent.flatMap((m) => m.statements);
    expect(all.filter((t) => /SAVEPOINT/i.test(t))).toEqual([]);
    expect(
      sent
        .slice(opening)
        .flatMap((m) => m.statements)
        .filter((t) => /^SELECT .* FROM "?payment_transactions/i.test(t)),
    ).toEqual([]);
    expect(all.filter((t) => /FROM "?site_configs/i.test(t))).toEqual([]);
    // The payment's head, the raffle's rules (beside the gateway call) and the transaction.
    expect(sent.length).toBeLessThanOrEqual(4);
  });

  describe("a void (a whole refund, an account's erasure) holds the raffle's row for its last statement only", () => {
    /** The statement that takes the raffle's row, FOR SHARE: the same row the counter statement updates. */
    const RAFFLE_LOCK = /FROM raffles WHERE .* FOR SHARE/i;

    async function enteredBuyer(): Promise<{ orderId: string; userId: string; token: string }> {
      const raffle = await raffleOn(w);
      const buyer = await makeUser(w.t, w.site);
      const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 2 });
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
      return { orderId: order.order_id, userId: buyer.user.id, token: buyer.token };
    }

    const standing = async (userId: string): Promise<Array<{ void_reason: string | null }>> =>
      w.t.db.query(`SELECT void_reason FROM raffle_entries WHERE user_id = $1`, [userId]);

    it('voids a refunded entry by one statement, followed by nothing but COMMIT', async () => {
      const { orderId, userId } = await enteredBuyer();
      const sent = await messagesOf(() =>
        api(w.t.app)
          .as(w.admin.token)
          .post(`/admin/payments/${orderId}/refund`, { reason: 'Changed their mind' })
          .expect(200),
      );
      expect(statementsAfter(sent, RAFFLE_LOCK)).toEqual(['COMMIT']);
      // The raffle's row is locked by the statement that voids the entry and gives the cap back.
      const lock = sent.flatMap((m) => m.statements).find((t) => RAFFLE_LOCK.test(t));
      expect(lock).toMatch(/UPDATE raffle_entries SET voided_at/i);
      expect(lock).toMatch(/UPDATE raffle_user_entries/i);
      expect(await standing(userId)).toEqual([{ void_reason: 'refunded' }]);
      const [logged] = await w.t.db.query<Array<{ n: string }>>(
        `SELECT count(*) AS n FROM activity_logs WHERE resource_id = $1 AND activity_type = 'payment_refunded'`,
        [orderId],
      );
      expect(logged.n).toBe('1');
    });

    it("voids an erased account's entries by one statement, followed by nothing but its activity row and COMMIT", async () => {
      const { userId, token } = await enteredBuyer();
      const sent = await messagesOf(() =>
        api(w.t.app).as(token).delete('/users/me').send({ password: DEFAULT_PASSWORD }).expect(204),
      );
      expect(statementsAfter(sent, RAFFLE_LOCK)).toEqual([
        expect.stringMatching(/^INSERT INTO activity_logs/i),
        'COMMIT',
      ]);
      expect(await standing(userId)).toEqual([{ void_reason: 'account_deleted' }]);
    });
  });
});
