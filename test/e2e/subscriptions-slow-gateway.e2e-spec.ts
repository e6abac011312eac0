import {
  activeMember,
  makeDue,
  type MembershipWorld,
  registrationOf,
  runJob,
  tierOn,
  withRoot,
} from '../support/memberships';
import { startPaymentsWorld, stopPaymentsWorld } from '../support/payments';

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
    w.t.db.query(`UPDATE subscriptions SET updated_at = now() - interval '2 minutes' WHERE id = $1`, [id]);

  it('makes a membership past due, once, when a renewal’s decline is announced by webhook before a run settles it', async () => {
    const { member, id } = await activeMember(w, tier.id);
    const registration = await registrationOf(w, id);
    w.fakes.gatewayOne.declinedRegistrations.add(registration);
    await makeDue(w, id);
    // The charge is made (and declined) but its answer comes after the client gave up.
    w.fakes.gatewayOne.setLatency(1_000);
    try {
      await runJob(w, 'renewals');
    } finally {
      w.fakes.gatewayOne.setLatency(0);
    }
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
});
