import { integrityReport, runIntegrityChecks } from '#app/infra/database/integrity/check-integrity.js';
import { api } from '../support/api';
import { makeUser } from '../support/factories';
import {
  confirm,
  orderAsUser,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

/**
 * The money-integrity checks (`npm run check:integrity`) over this suite's site: after sales,
 * a sold-out race, refunds and their jobs every promise holds; a corrupted counter is caught.
 */
describe('money integrity checks', () => {
  let w: PaymentsWorld;
  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(() => stopPaymentsWorld(w));

  // Scoped to this file's site: other suites set counters by hand to stage sold-out raffles.
  const check = (query = <R>(sql: string) => w.t.db.query<R[]>(sql)) => runIntegrityChecks(query, w.site);

  it('hold after sales, an unfillable order, partial and whole refunds', async () => {
    const raffle = await raffleOn(w, {
      total_entries_available: 5,
      points_enabled: true,
      points_multiplier: 2,
    });
    const paid: string[] = [];
    for (const quantity of [2, 2, 2]) {
      const buyer = await makeUser(w.t, w.site);
      const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity });
      w.fakes.gatewayOne.complete(order.checkout_id);
      paid.push(order.order_id);
    }
    await confirm(w, paid[0]).expect(200);
    await confirm(w, paid[1]).expect(200);
    await confirm(w, paid[2]).expect(422); // one ticket left: refunded whole by a job
    await w.t.drain();
    const refund = (id: string, body: Record<string, unknown>) =>
      api(w.t.app).as(w.admin.token).post(`/admin/payments/${id}/refund`, body).expect(200);
    await refund(paid[0], { amount_cents: 100, reason: 'Goodwill' });
    await refund(paid[1], { reason: 'Changed their mind' });
    const outcomes = await check();
    expect(integrityReport(outcomes)).not.toMatch(/^FAIL/m);
  });

  it('catches a counter that does not match its entries (in a transaction rolled back)', async () => {
    const raffle = await raffleOn(w);
    const buyer = await makeUser(w.t, w.site);
    const order = await orderAsUser(w, buyer.token, raffle.item_id, { quantity: 1 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    await confirm(w, order.order_id).expect(200);
    const runner = w.t.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query('UPDATE raffles SET current_entries = current_entries + 1 WHERE id = $1', [
        raffle.id,
      ]);
      const outcomes = await check(<R>(sql: string) => runner.query(sql) as Promise<R[]>);
      const failed = outcomes.filter((o) => o.violations).map((o) => o.check.name);
      expect(failed).toEqual(['raffle_counters']);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
