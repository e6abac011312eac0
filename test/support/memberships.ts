import { api } from './api';
import { makeUser, type MadeUser } from './factories';
import type { PaymentsWorld } from './payments';

/** A world for memberships: the payments world plus a superadmin to run scheduled jobs. */
export interface MembershipWorld extends PaymentsWorld {
  root: MadeUser;
}

export async function withRoot(w: PaymentsWorld): Promise<MembershipWorld> {
  return { ...w, root: await makeUser(w.t, w.site, { role: 'superadmin' }) };
}

/** A tier of the world's site (any field overridable). */
export async function tierOn(
  w: PaymentsWorld,
  over: Record<string, unknown> = {},
): Promise<{ id: string; name: string; amount_cents: number }> {
  const res = await api(w.t.app)
    .as(w.admin.token)
    .post('/admin/subscription-tiers', {
      name: `tier-${Math.random().toString(36).slice(2, 8)}`,
      amount_cents: 1000,
      currency: 'GBP',
      entry_credits_per_period: 10,
      ...over,
    })
    .expect(201);
  return res.body as { id: string; name: string; amount_cents: number };
}

/** Subscribes `user` to a tier: the 201 answer (incomplete subscription and its checkout). */
export async function subscribe(
  w: PaymentsWorld,
  user: MadeUser,
  tierId: string,
): Promise<{ subscription: Record<string, unknown> & { id: string; status: string }; checkout_id: string }> {
  const res = await api(w.t.app).as(user.token).post('/subscriptions', { tier_id: tierId }).expect(201);
  return res.body as {
    subscription: Record<string, unknown> & { id: string; status: string };
    checkout_id: string;
  };
}

/** The member pays on the hosted form; the gateway's webhook arrives and the inbox job runs. */
export async function payCheckout(w: PaymentsWorld, checkoutId: string, resultCode?: string): Promise<void> {
  w.fakes.gatewayOne.complete(checkoutId, resultCode);
  const status = await w.fakes.gatewayOne.deliverWebhook(checkoutId);
  if (status !== 200) throw new Error(`webhook answered ${status}`);
  await w.t.drain();
}

/** A member with an active membership (paid first period): the subscription id. */
export async function activeMember(
  w: PaymentsWorld,
  tierId: string,
): Promise<{ member: MadeUser; id: string; checkoutId: string }> {
  const member = await makeUser(w.t, w.site);
  const started = await subscribe(w, member, tierId);
  await payCheckout(w, started.checkout_id);
  return { member, id: started.subscription.id, checkoutId: started.checkout_id };
}

export function getSubscription(w: PaymentsWorld, token: string, id: string) {
  return api(w.t.app).as(token).get(`/subscriptions/${id}`);
}

/** Runs a scheduled job now, as a superadmin would, then the jobs it queued. */
export async function runJob(w: MembershipWorld, name: string): Promise<number> {
  const res = await api(w.t.app).as(w.root.token).post(`/admin/jobs/${name}/run`).expect(200);
  await w.t.drain();
  return (res.body as { affected: number }).affected;
}

/** Moves a subscription's clock: its renewal (and period end) is now due. */
export async function makeDue(w: PaymentsWorld, id: string, agoMinutes = 1): Promise<void> {
  await w.t.db.query(
    `UPDATE subscriptions SET next_billing_date = now() - make_interval(mins => $2),
            current_period_end = now() - make_interval(mins => $2) WHERE id = $1`,
    [id, agoMinutes],
  );
}

/** The stored card of a subscription (as the gateway registered it). */
export async function registrationOf(w: PaymentsWorld, id: string): Promise<string> {
  const [row] = await w.t.db.query<Array<{ gatewayone_registration_id: string }>>(
    `SELECT gatewayone_registration_id FROM subscriptions WHERE id = $1`,
    [id],
  );
  return row.gatewayone_registration_id;
}

/** Where a membership stands in its renewal: whether it is due, and whether it waits on a charge. */
export async function renewalStateOf(w: PaymentsWorld, id: string): Promise<Record<string, unknown>> {
  const [row] = await w.t.db.query<Array<Record<string, unknown>>>(
    `SELECT status, pending_payment_id, failed_charges, past_due_since, next_billing_date <= now() AS due
       FROM subscriptions WHERE id = $1`,
    [id],
  );
  return row;
}

/** A membership's stored-card charges (its renewals), oldest first: status and what was answered. */
export function renewalPaymentsOf(
  w: PaymentsWorld,
  id: string,
): Promise<Array<{ status: string; gateway_response: unknown }>> {
  return w.t.db.query(
    `SELECT status, gateway_response FROM payment_transactions
      WHERE subscription_id = $1 AND metadata->>'stored_card' = 'true' ORDER BY created_at`,
    [id],
  );
}
