import { randomUUID } from 'node:crypto';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { PaymentPointsService } from '#app/modules/rewards/payment-points.service.js';
import { MAX_BALANCE } from '#app/modules/rewards/rewards.rules.js';
import { api } from '../support/api';
import { DEFAULT_PASSWORD, makeUser, type MadeUser, pointsOf, uid } from '../support/factories';
import {
  confirm,
  orderAsUser,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
  type PaymentsWorld,
} from '../support/payments';

/**
 * A points balance near the most its column holds (`MAX_BALANCE`): every way points are added stops there, as a
 * payment's earn always did, rather than fail with "integer out of range" (a 500, or a sale left unfulfilled).
 */
describe('points at the most a balance holds', () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    w = await startPaymentsWorld();
  });
  afterAll(() => stopPaymentsWorld(w));

  /** A payment's earn through the fulfilment's own path; `paymentPoints` caps one payment at MAX_BALANCE. */
  const earnPayment = (user: MadeUser, points: number) =>
    w.t.app.get(TransactionRunner).run(() =>
      w.t.app.get(PaymentPointsService).earnForPayment({
        userId: user.user.id,
        siteId: w.site,
        paymentTransactionId: randomUUID(),
        points,
        reason: 'Points for a payment',
      }),
    );
  const adjust = (user: MadeUser, amount: number) =>
    api(w.t.app)
      .as(w.admin.token)
      .post('/admin/rewards/adjust', { user_id: user.user.id, amount, reason: 'probe' });
  const balanceRow = async (userId: string) =>
    (
      await w.t.db.query<Array<{ current_points: number; lifetime_earned: number }>>(
        `SELECT current_points, lifetime_earned FROM rewards_balances WHERE user_id = $1`,
        [userId],
      )
    )[0];
  const register = (body: Record<string, unknown>, ip: string) =>
    api(w.t.app)
      .from(ip)
      .post('/auth/register', {
        email: `new-${uid()}@example.com`,
        password: DEFAULT_PASSWORD,
        site_id: w.site,
        data_processing_consent: true,
        age_confirmed: true,
        ...body,
      });
  const codeOf = async (user: MadeUser): Promise<string> =>
    (await api(w.t.app).as(user.token).get('/rewards/referral-code').expect(200)).body
      .referral_code as string;

  it('takes an admin credit to a balance at the limit (201), the balance staying at the limit', async () => {
    const user = await makeUser(w.t, w.site);
    await earnPayment(user, MAX_BALANCE); // a huge payment earns at most MAX_BALANCE
    await adjust(user, 1).expect(201);
    expect(await pointsOf(w.t, user.user.id)).toBe(MAX_BALANCE);
  });

  it('takes an admin credit to a small balance whose lifetime earnings are at the limit', async () => {
    const user = await makeUser(w.t, w.site);
    await earnPayment(user, MAX_BALANCE);
    await adjust(user, -1_000_000).expect(201);
    await adjust(user, 10).expect(201);
    expect(await balanceRow(user.user.id)).toEqual({
      current_points: MAX_BALANCE - 1_000_000 + 10,
      lifetime_earned: MAX_BALANCE,
    });
  });

  it('registers a friend with the code of a referrer at the limit', async () => {
    const referrer = await makeUser(w.t, w.site);
    const code = await codeOf(referrer);
    await earnPayment(referrer, MAX_BALANCE);
    await register({ referral_code: code }, '203.0.113.150').expect(201);
  });

  it('fulfils a referred friend’s first purchase when the referrer is at the limit: a bonus never blocks a sale', async () => {
    const referrer = await makeUser(w.t, w.site);
    const code = await codeOf(referrer);
    const friend = await register({ referral_code: code }, '203.0.113.151').expect(201);
    await earnPayment(referrer, MAX_BALANCE);
    const raffle = await raffleOn(w);
    const order = await orderAsUser(w, friend.body.access_token as string, raffle.item_id, { quantity: 1 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    await confirm(w, order.order_id).expect(200);
    const [entry] = await w.t.db.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM raffle_entries WHERE payment_transaction_id = $1`,
      [order.order_id],
    );
    expect(entry.n).toBe(1);
    expect(await pointsOf(w.t, referrer.user.id)).toBe(MAX_BALANCE);
  });
});
