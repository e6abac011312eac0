import { Client } from 'pg';
import { RAFFLE_SALES_AT_ONCE } from '#app/modules/payments/payment-outcome.service.js';
import { DB_POOL_SIZE } from '#app/infra/database/data-source-options.js';
import { api } from '../support/api';
import { sessionsWaitingOnLocks } from '../support/held-rows';
import {
  confirm,
  paidOrderOf,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

const onPostgres = !!process.env.TEST_DATABASE_URL;

/**
 * Every sale of a raffle queues on its counter row. A rush on one raffle must not park the whole pool on that
 * row: an instance runs RAFFLE_SALES_AT_ONCE of a raffle's sales at a time, and the others wait in the app,
 * holding no connection, so the instance goes on serving everything else. PostgreSQL only: the row is held
 * from another session, which embedded PGlite (one session, transactions one after another) cannot have.
 */
(onPostgres ? describe : describe.skip)("A rush on one raffle and the rest of the instance's work", () => {
  let w: PaymentsWorld;
  let holder: Client;

  beforeAll(async () => {
    w = await startPaymentsWorld();
    holder = new Client({ connectionString: process.env.E2E_DATABASE_URL });
    await holder.connect();
  });
  afterAll(async () => {
    await holder.end();
    await stopPaymentsWorld(w);
  });

  /** The app's sessions waiting on a lock, as PostgreSQL sees them. */
  const waitingOnLocks = (): Promise<number> => sessionsWaitingOnLocks(holder);

  /** `raffle_sales_running` and `raffle_sales_waiting` as the instance's `/metrics` has them. */
  const turnsScraped = async (): Promise<{ running: number; waiting: number }> => {
    const { text } = await api(w.t.app).get('/metrics').expect(200);
    const value = (name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    return { running: value('raffle_sales_running'), waiting: value('raffle_sales_waiting') };
  };

  const settledWithin = async <T>(p: Promise<T>, ms: number): Promise<boolean> =>
    Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  it('keeps its sales of one raffle to a few connections while the counter row is held, and serves another raffle meanwhile', async () => {
    const rush = await raffleOn(w, { total_entries_available: 1000 });
    const other = await raffleOn(w);
    const buyers = DB_POOL_SIZE + 2; // more than the pool: before the turns, the last ones could not even start
    const orders = await Promise.all(Array.from({ length: buyers }, () => paidOrderOf(w, rush.item_id, 2)));
    const elsewhere = await paidOrderOf(w, other.item_id, 1);

    // The counter row held, as by a long sale: every sale of this raffle waits at its last statement.
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM raffles WHERE id = $1 FOR UPDATE', [rush.id]);
    let answers: Promise<Array<{ status: number }>> | undefined;
    try {
      answers = Promise.all(orders.map((id) => confirm(w, id).then((res) => res)));
      const deadline = Date.now() + 10_000;
      while ((await waitingOnLocks()) < RAFFLE_SALES_AT_ONCE && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 500)); // room for any more to reach the row, were they let through
      expect(await waitingOnLocks()).toBe(RAFFLE_SALES_AT_ONCE);
      // What an operator sees meanwhile: three sales running, the rest waiting for the raffle's turn.
      expect(await turnsScraped()).toEqual({
        running: RAFFLE_SALES_AT_ONCE,
        waiting: buyers - RAFFLE_SALES_AT_ONCE,
      });

      // Another raffle's buyer is confirmed while the rush waits (its reads and its sale each need a connection).
      const served = await confirm(w, elsewhere).expect(200);
      expect(served.body).toMatchObject({ order_id: elsewhere, status: 'succeeded' });
      expect(await settledWithin(answers, 0)).toBe(false);
    } finally {
      await holder.query('COMMIT');
    }

    const statuses = (await answers).map((res) => res.status);
    expect(statuses).toEqual(Array(buyers).fill(200));
    const [state] = await w.t.db.query<Array<{ current_entries: number; entries: string; orders: string }>>(
      `SELECT r.current_entries,
              (SELECT count(*) FROM raffle_entries e WHERE e.raffle_id = r.id) AS entries,
              (SELECT count(DISTINCT e.payment_transaction_id) FROM raffle_entries e WHERE e.raffle_id = r.id) AS orders
         FROM raffles r WHERE r.id = $1`,
      [rush.id],
    );
    expect(state).toEqual({ current_entries: 2 * buyers, entries: String(buyers), orders: String(buyers) });
    expect(await waitingOnLocks()).toBe(0);
    expect(await turnsScraped()).toEqual({ running: 0, waiting: 0 });
  });
});
