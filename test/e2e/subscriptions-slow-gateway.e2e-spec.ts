import {
  activeMember,
  getSubscription,
  makeDue,
  type MembershipWorld,
  registrationOf,
  renewalPaymentsOf,
  renewalStateOf,
  runJob,
  tierOn,
  withRoot,
} from '../support/memberships';
import { majorToMinor } from '#app/common/money.js';
import { ProviderHttp } from '#app/infra/providers/provider-http.js';
import { api } from '../support/api';
import { raffleOn, startPaymentsWorld, stopPaymentsWorld } from '../support/payments';

/** Memberships when the gateway answers after the client gave up, and its webhooks overtake the answer. */
describe('memberships and a slow gateway (answers after the client gives up)', () => {
  let w: MembershipWorld;
  let tier: { id: string; name: string; amount_cents: number };

  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld({ gatewayTimeoutMs: 400 }));
    tier = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
  });
  afterAll(() => stopPaymentsWorld(w));

  const mailsTo = (email: string, subject: RegExp) =>
    w.t.smtp.to(email).filter((m) => subject.test(m.subject));

  /** Lets the next renewal run look again at charges whose answer was lost (they look lost after a minute). */
  const ageClaim = (id: string) =>
    w.t.db.query(
      `UPDATE subscriptions SET pending_payment_claimed_at = now() - interval '2 minutes' WHERE id = $1`,
      [id],
    );
  /** The renewal run charges the card; the gateway acts (takes or declines) and answers after the client gave up. */
  const renewalInFlight = async (id: string): Promise<void> => {
    await makeDue(w, id);
    w.fakes.gatewayOne.setLatency(1_000);
    try {
      await runJob(w, 'renewals');
    } finally {
      w.fakes.gatewayOne.setLatency(0);
    }
  };

  it('makes a membership past due, once, when a renewal’s decline is announced by webhook before a run settles it', async () => {
    const { member, id } = await activeMember(w, tier.id);
    const registration = await registrationOf(w, id);
    w.fakes.gatewayOne.declinedRegistrations.add(registration);
    await renewalInFlight(id); // declined
    const charge = w.fakes.gatewayOne.registrationCharges().find((c) => c.registrationId === registration);
    // The gateway's notification of the decline arrives first and is processed.
    expect(await w.fakes.gatewayOne.deliverWebhook(charge!.id)).toBe(200);
    await w.t.drain();
    const [failed] = await w.t.db.query(
      `SELECT p.status FROM payment_transactions p JOIN subscriptions s ON s.pending_payment_id = p.id
        WHERE s.id = $1`,
      [id],
    );
    expect(failed).toEqual({ status: 'failed' });

    // The next runs look the lost charge up: the membership goes past due and dunning starts, once.
    for (let run = 0; run < 2; run++) {
      await ageClaim(id);
      await runJob(w, 'renewals');
    }
    const [row] = await w.t.db.query(
      `SELECT status, pending_payment_id, failed_charges, next_billing_date > now() AS retry_set
         FROM subscriptions WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ status: 'past_due', pending_payment_id: null, failed_charges: 1, retry_set: true });
    await w.t.drain();
    expect(mailsTo(member.email, /could not take your .* membership payment/)).toHaveLength(1);
    const spend = await w.t.db.query(
      `SELECT coalesce(sum(spent_cents), 0)::int AS spent FROM user_monthly_spend WHERE user_id = $1`,
      [member.user.id],
    );
    expect(spend).toEqual([{ spent: 1000 }]); // the first period's payment only: the decline gave its spend back once
  });

  it('pays a cooling-off refund whose answer was lost once: the job’s retries wait for the look-up', async () => {
    const { member, id, checkoutId } = await activeMember(w, tier.id);
    const refundedAtGateway = (): number => {
      const checkout = w.fakes.gatewayOne.payments.get(checkoutId)!;
      return checkout.refunds.reduce((sum, r) => sum + majorToMinor(r.amount, checkout.currency), 0);
    };
    const raffle = await raffleOn(w);
    for (let i = 0; i < 6; i++)
      await api(w.t.app)
        .as(member.token)
        .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 })
        .expect(201);
    await api(w.t.app)
      .as(member.token)
      .post(`/subscriptions/${id}/cancel`, { reason: 'Changed my mind' })
      .expect(200);
    // Due back: 1000 less the 6 of 10 credits used = 400. The gateway refunds; its answer comes too late.
    w.fakes.gatewayOne.setLatency(1_000);
    try {
      await w.t.drain();
    } finally {
      w.fakes.gatewayOne.setLatency(0);
    }
    expect(refundedAtGateway()).toBe(400);
    const retryJobs = () =>
      w.t.db.query(
        `UPDATE pgboss.job SET start_after = now() WHERE name = 'payments.refund' AND state = 'retry'`,
      );
    // The queue retries the job: the amount is held, so it sends nothing.
    await retryJobs();
    await w.t.drain();
    expect(refundedAtGateway()).toBe(400);
    // The reconciliation asks the gateway and records the refund; the job's next try finds nothing left.
    await w.t.db.query(
      `UPDATE payment_transactions SET refund_reserved_at = now() - interval '3 minutes'
        WHERE subscription_id = $1 AND refund_pending_cents > 0`,
      [id],
    );
    await runJob(w, 'reconciliation');
    await retryJobs();
    await w.t.drain();
    expect(refundedAtGateway()).toBe(400);
    const payments = await w.t.db.query(
      `SELECT refunded_cents, refund_pending_cents FROM payment_transactions WHERE subscription_id = $1 AND refunded_cents > 0`,
      [id],
    );
    expect(payments).toEqual([{ refunded_cents: 400, refund_pending_cents: 0 }]);
    const jobs = await w.t.db.query(
      `SELECT state FROM pgboss.job WHERE name = 'payments.refund' AND data->>'payment_transaction_id' IN (SELECT id::text FROM payment_transactions WHERE subscription_id = $1)`,
      [id],
    );
    expect(jobs).toEqual([{ state: 'completed' }]);
  });

  describe('a renewal charge still in flight when the member changes course', () => {
    /** A later run looks the lost charge up (paid) and settles it. */
    const laterRun = async (id: string): Promise<void> => {
      await ageClaim(id);
      await runJob(w, 'renewals');
    };
    /** An admin pauses the membership for `days`. */
    const pauseFor = (id: string, days: number) =>
      api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/pause', {
          subscription_id: id,
          paused_until: new Date(Date.now() + days * 86_400_000).toISOString(),
          reason: 'Holiday',
        })
        .expect(200);
    const renewalCharge = async (id: string) => {
      const [row] = await w.t.db.query<
        Array<{ status: string; amount_cents: number; refunded_cents: number }>
      >(
        `SELECT status, amount_cents, refunded_cents FROM payment_transactions
          WHERE subscription_id = $1 AND metadata->>'stored_card' = 'true'`,
        [id],
      );
      return row;
    };

    it('gives the charge back to a member who cancelled at once meanwhile', async () => {
      const { member, id } = await activeMember(w, tier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET cooling_off_expiry = now() - interval '1 day' WHERE id = $1`,
        [id],
      );
      await renewalInFlight(id);
      await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${id}/cancel`, { reason: 'Stop now', immediate: true })
        .expect(200);
      await laterRun(id);
      await w.t.drain();
      expect((await getSubscription(w, member.token, id).expect(200)).body.status).toBe('cancelled');
      expect(await renewalCharge(id)).toEqual({
        status: 'refunded',
        amount_cents: 1000,
        refunded_cents: 1000,
      });
      const [row] = await w.t.db.query(`SELECT pending_payment_id FROM subscriptions WHERE id = $1`, [id]);
      expect(row.pending_payment_id).toBeNull();
      // Nothing else told the member of this charge or its return: the refund's notice does, once.
      const notices = w.t.smtp
        .to(member.email)
        .filter((m) => m.headers['x-mail-kind'] === 'payment_refunded');
      expect(notices.map((m) => m.subject)).toEqual(['We have refunded 10.00 GBP']);
    });

    it('gives the charge back to a membership paused meanwhile, which renews normally after the pause', async () => {
      const { id } = await activeMember(w, tier.id);
      const registration = await registrationOf(w, id);
      await renewalInFlight(id);
      await pauseFor(id, 10);
      await laterRun(id);
      await w.t.drain();
      expect(await renewalCharge(id)).toEqual({
        status: 'refunded',
        amount_cents: 1000,
        refunded_cents: 1000,
      });
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/resume', { subscription_id: id, reason: 'Back' })
        .expect(200);
      const [row] = await w.t.db.query(`SELECT status, pending_payment_id FROM subscriptions WHERE id = $1`, [
        id,
      ]);
      expect(row).toEqual({ status: 'active', pending_payment_id: null });
      // Its clock runs again: the next renewal charges the card.
      await makeDue(w, id);
      await runJob(w, 'renewals');
      const charges = w.fakes.gatewayOne
        .registrationCharges()
        .filter((c) => c.registrationId === registration);
      expect(charges).toHaveLength(2);
      const [after] = await w.t.db.query(
        `SELECT status, pending_payment_id FROM subscriptions WHERE id = $1`,
        [id],
      );
      expect(after).toEqual({ status: 'active', pending_payment_id: null });
    });

    it('leaves a member who cancelled at once meanwhile cancelled when the charge was declined: no dunning', async () => {
      const { member, id } = await activeMember(w, tier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET cooling_off_expiry = now() - interval '1 day' WHERE id = $1`,
        [id],
      );
      w.fakes.gatewayOne.declinedRegistrations.add(await registrationOf(w, id));
      await renewalInFlight(id); // declined
      await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${id}/cancel`, { reason: 'Stop now', immediate: true })
        .expect(200);
      await laterRun(id); // looks the lost charge up: declined
      await w.t.drain();
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect({ status: s.status, is_active: s.is_active }).toEqual({ status: 'cancelled', is_active: false });
      expect(mailsTo(member.email, /could not take your/)).toEqual([]);
      const [row] = await w.t.db.query(`SELECT pending_payment_id FROM subscriptions WHERE id = $1`, [id]);
      expect(row.pending_payment_id).toBeNull();
    });

    it('keeps a membership paused meanwhile paused when the charge was declined, and charges nothing during the pause', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const card = await registrationOf(w, id);
      w.fakes.gatewayOne.declinedRegistrations.add(card);
      await renewalInFlight(id); // declined
      await pauseFor(id, 30);
      await laterRun(id); // looks the lost charge up: declined
      await w.t.drain();
      w.fakes.gatewayOne.declinedRegistrations.delete(card);
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect({ status: s.status, is_paused: s.is_paused, auto_renew: s.auto_renew }).toEqual({
        status: 'paused',
        is_paused: true,
        auto_renew: true,
      });
      expect(mailsTo(member.email, /could not take your/)).toEqual([]);
      // A day on (when a dunning retry would fall due), still inside the pause: the card is not charged.
      await w.t.db.query(
        `UPDATE subscriptions SET next_billing_date = now() - interval '1 minute' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'renewals');
      expect(w.fakes.gatewayOne.registrationCharges().filter((c) => c.registrationId === card)).toHaveLength(
        1,
      );
      const [row] = await w.t.db.query(`SELECT status FROM subscriptions WHERE id = $1`, [id]);
      expect(row.status).toBe('paused');
    });
  });
  it('leaves a membership due when its renewal charge timed out waiting for a connection: it never left', async () => {
    const { member, id } = await activeMember(w, tier.id);
    const registration = await registrationOf(w, id);
    await makeDue(w, id);
    // Every connection the service keeps to the gateway (64) is held by a request the gateway never answers.
    w.fakes.gatewayOne.goDown('hang');
    const before = w.fakes.gatewayOne.requests.length;
    const holder = new ProviderHttp({
      provider: 'holder',
      baseUrl: w.fakes.config.gatewayOne.baseUrl,
      timeoutMs: 1_500,
      headers: {},
      secrets: [],
    });
    const holding = Array.from({ length: 64 }, () =>
      holder.send({ method: 'GET', path: '/v1/query' }).catch(() => undefined),
    );
    while (w.fakes.gatewayOne.requests.length < before + 64) await new Promise((r) => setTimeout(r, 10));
    try {
      await runJob(w, 'renewals'); // the charge waits its 400 ms for a connection, and gives up
      expect(w.fakes.gatewayOne.requests.slice(before + 64)).toEqual([]);
    } finally {
      w.fakes.gatewayOne.comeUp();
      await Promise.all(holding);
    }
    expect(await renewalStateOf(w, id)).toEqual({
      status: 'active',
      pending_payment_id: null,
      failed_charges: 0,
      past_due_since: null,
      due: true,
    });
    expect(await renewalPaymentsOf(w, id)).toEqual([
      { status: 'cancelled', gateway_response: { not_sent: true, http_status: null } },
    ]);
    expect(mailsTo(member.email, /could not take your .* membership payment/)).toEqual([]);

    // Connections free again: the next run charges the card once and renews.
    await runJob(w, 'renewals');
    expect(await renewalStateOf(w, id)).toMatchObject({
      status: 'active',
      pending_payment_id: null,
      due: false,
    });
    expect((await renewalPaymentsOf(w, id)).map((p) => p.status)).toEqual(['cancelled', 'succeeded']);
    expect(
      w.fakes.gatewayOne.registrationCharges().filter((c) => c.registrationId === registration),
    ).toHaveLength(1);
  });
});
