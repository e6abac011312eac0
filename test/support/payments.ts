import {
  RECONCILE_AFTER_MS,
  ReconcilePaymentsJob,
} from '#app/modules/payments/jobs/reconcile-payments.job.js';
import type { AppConfig } from '#app/config/app-config.js';
import { api } from './api';
import { createTestApp, type TestApp } from './app';
import { makeSite, makeUser, type MadeUser } from './factories';
import { type FakeGateways, listenOnLoopback, startFakeGateways } from './fake-gateways';
import { makePublished } from './raffles';

export interface PaymentsWorld {
  t: TestApp;
  fakes: FakeGateways;
  site: string;
  admin: MadeUser;
}

/**
 * The app listening on loopback, with both gateways faked over real HTTP and their webhooks pointed at
 * the app: a world in which money moves.
 */
export async function startPaymentsWorld(
  options: { gatewayTimeoutMs?: number; config?: Partial<AppConfig>; port?: number } = {},
): Promise<PaymentsWorld> {
  const fakes = await startFakeGateways({ timeoutMs: options.gatewayTimeoutMs });
  const t = await createTestApp({ ...fakes.config, providers: 'live', ...options.config });
  fakes.setWebhookBaseUrl(await listenOnLoopback(t.app, options.port));
  const site = await makeSite(t);
  const admin = await makeUser(t, site, { role: 'admin' });
  return { t, fakes, site, admin };
}

export async function stopPaymentsWorld(w: PaymentsWorld): Promise<void> {
  await w.t.close();
  await w.fakes.close();
}

/** A published raffle at £2.50 a ticket (override anything). */
export function raffleOn(w: PaymentsWorld, over: Record<string, unknown> = {}) {
  return makePublished(w.t, w.admin.token, over);
}

/** Creates a gatewayone order as `token`'s user; answers the order answer body. */
export async function orderAsUser(
  w: PaymentsWorld,
  token: string,
  itemId: string,
  body: Record<string, unknown> = {},
): Promise<{ order_id: string; checkout_id: string; success: boolean }> {
  const res = await api(w.t.app)
    .as(token)
    .post('/gatewayone/create-order', { item_id: itemId, site_id: w.site, quantity: 1, ...body })
    .expect(200);
  return res.body as { order_id: string; checkout_id: string; success: boolean };
}

/**
 * A paid order of `quantity` tickets of `itemId`, not yet confirmed: made by `token`'s user (a new member
 * when none is given) and completed at the fake gateway. Answers its order id.
 */
export async function paidOrderOf(
  w: PaymentsWorld,
  itemId: string,
  quantity: number,
  token?: string,
): Promise<string> {
  const buyer = token ?? (await makeUser(w.t, w.site)).token;
  const order = await orderAsUser(w, buyer, itemId, { quantity });
  w.fakes.gatewayOne.complete(order.checkout_id);
  return order.order_id;
}

export function confirm(w: PaymentsWorld, orderId: string, extra: Record<string, unknown> = {}) {
  return api(w.t.app).post('/gatewayone/create-order', {
    confirmation_only: true,
    order_id: orderId,
    ...extra,
  });
}

/** A member of the world's site with a monthly spend limit (responsible play), set as the member would. */
export async function buyerWithLimit(w: PaymentsWorld, limitCents: number): Promise<MadeUser> {
  const buyer = await makeUser(w.t, w.site);
  await api(w.t.app)
    .as(buyer.token)
    .put('/users/me/limits', { monthly_spend_limit_cents: limitCents })
    .expect(200);
  return buyer;
}

/** The member pauses themselves for `days` (responsible play), as the member would. */
export async function pauseFor(w: PaymentsWorld, token: string, days = 30): Promise<void> {
  await api(w.t.app)
    .as(token)
    .put('/users/me/limits', { paused_until: new Date(Date.now() + days * 86_400_000).toISOString() })
    .expect(200);
}

/** What the member's month counts against their spend limit, as `GET /users/me/limits` shows it. */
export async function spentThisMonth(w: PaymentsWorld, token: string): Promise<number> {
  const limits = await api(w.t.app).as(token).get('/users/me/limits').expect(200);
  return (limits.body as { spent_this_month_cents: number }).spent_this_month_cents;
}

/**
 * The scheduled reconciliation run (`ReconcilePaymentsJob`), with `watched` the only payments given up here that
 * are due in its watched queue: the run's database is shared by every test file, whose declined payments would
 * otherwise take the queue's one batch. Marks the others asked now (their schedule only); `watched` due now.
 */
export async function scheduledRunWatching(w: PaymentsWorld, watched: string[]): Promise<void> {
  await w.t.db.query(
    `UPDATE payment_transactions
        SET reconciled_at = CASE WHEN id = ANY($1::uuid[]) THEN now() - interval '7 hours' ELSE now() END
      WHERE status IN ('failed', 'cancelled') AND fulfilled_at IS NULL`,
    [watched],
  );
  await w.t.app.get(ReconcilePaymentsJob).run(new Date(Date.now() - RECONCILE_AFTER_MS));
  await w.t.drain();
}
