import { EndedMembershipsBillNoMore1795760000000 } from '#app/infra/database/migrations/1795760000000-EndedMembershipsBillNoMore.js';
import { Client } from 'pg';
import { api } from '../support/api';
import { sentTwice } from '../support/idempotency';
import { makeSite, makeUser, pointsOf, registerOn, referralCodeOf } from '../support/factories';
import { untilSomeoneWaits, untilWaiting } from '../support/held-rows';
import {
  activeMember,
  getSubscription,
  makeDue,
  type MembershipWorld,
  payCheckout,
  registrationOf,
  renewalPaymentsOf,
  renewalStateOf,
  runJob,
  subscribe,
  tierOn,
  withRoot,
} from '../support/memberships';
import { RENEWAL_BATCH, RenewalsJob } from '#app/modules/subscriptions/jobs/renewals.job.js';
import { pauseFor, raffleOn, startPaymentsWorld, stopPaymentsWorld } from '../support/payments';

const DAY = 86_400_000;
const onPostgres = !!process.env.TEST_DATABASE_URL;
const FLAGS = [
  'is_active',
  'is_cancelled',
  'is_in_trial',
  'is_trial_active',
  'is_paused',
  'can_be_cancelled',
];

describe('memberships: the whole lifecycle (issue 11)', () => {
  let w: MembershipWorld;
  let tier: { id: string; name: string; amount_cents: number };

  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld());
    tier = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
  });
  afterAll(() => stopPaymentsWorld(w));

  const flags = (s: Record<string, unknown>) => Object.fromEntries(FLAGS.map((f) => [f, s[f]]));
  const mailsTo = (email: string, subject: RegExp) =>
    w.t.smtp.to(email).filter((m) => subject.test(m.subject));

  describe('starting', () => {
    it('opens a registering checkout and waits incomplete; the first payment makes it active with every date set', async () => {
      const member = await makeUser(w.t, w.site);
      const started = await subscribe(w, member, tier.id);
      expect(started.subscription).toMatchObject({
        status: 'incomplete',
        tier: tier.name,
        amount_cents: 1000,
        currency: 'GBP',
        billing_interval: 'month',
        available_credits: 0,
        current_period_start: null,
        cooling_off_expiry: null,
      });
      expect(flags(started.subscription)).toEqual({
        is_active: false,
        is_cancelled: false,
        is_in_trial: false,
        is_trial_active: false,
        is_paused: false,
        can_be_cancelled: false,
      });
      const checkout = w.fakes.gatewayOne.payments.get(started.checkout_id);
      expect(checkout).toMatchObject({ createRegistration: true, amount: '10.00', paymentType: 'DB' });
      const [ordered] = await w.t.db.query<Array<{ description: string }>>(
        `SELECT description FROM activity_logs WHERE user_id = $1 AND activity_type = 'order_created'`,
        [member.user.id],
      );
      expect(ordered.description).toBe('Order of 10.00 GBP at gatewayone (subscription)');

      const before = Date.now();
      await payCheckout(w, started.checkout_id);
      const s = (await getSubscription(w, member.token, started.subscription.id).expect(200)).body;
      expect(s).toMatchObject({ status: 'active', available_credits: 10, credits_used_this_period: 0 });
      expect(flags(s)).toEqual({
        is_active: true,
        is_cancelled: false,
        is_in_trial: false,
        is_trial_active: false,
        is_paused: false,
        can_be_cancelled: true,
      });
      const start = Date.parse(s.current_period_start);
      expect(start).toBeGreaterThanOrEqual(before - 1000);
      expect(s.subscription_start_date).toBe(s.current_period_start);
      expect(Date.parse(s.cooling_off_expiry) - start).toBe(14 * DAY);
      expect(s.next_billing_date).toBe(s.current_period_end);
      expect(Date.parse(s.current_period_end) - start).toBeGreaterThanOrEqual(28 * DAY);
      expect(await registrationOf(w, s.id)).toBe(
        w.fakes.gatewayOne.payments.get(started.checkout_id)?.registrationId,
      );
      // Points for the payment (1 per pound by default), and the e-mails.
      expect(await pointsOf(w.t, member.user.id)).toBe(10);
      expect(mailsTo(member.email, /membership has started/)).toHaveLength(1);
      expect(mailsTo(member.email, /Your payment for/)).toHaveLength(1);
    });

    it('starts a trial by checking the card alone, then the first charge converts it', async () => {
      const trial = await tierOn(w, { amount_cents: 500, trial_days: 7, entry_credits_per_period: 3 });
      const member = await makeUser(w.t, w.site);
      const started = await subscribe(w, member, trial.id);
      expect(w.fakes.gatewayOne.payments.get(started.checkout_id)).toMatchObject({
        amount: '0.00',
        paymentType: 'PA',
      });
      await payCheckout(w, started.checkout_id);
      const s = (await getSubscription(w, member.token, started.subscription.id).expect(200)).body;
      expect(s).toMatchObject({ status: 'trialing', available_credits: 3 });
      expect(flags(s)).toMatchObject({
        is_active: true,
        is_in_trial: true,
        is_trial_active: true,
        can_be_cancelled: true,
      });
      expect(Date.parse(s.trial_end_date) - Date.parse(s.trial_start_date)).toBe(7 * DAY);
      expect(s.next_billing_date).toBe(s.trial_end_date);
      expect(await pointsOf(w.t, member.user.id)).toBe(0);
      // The trial ends: the renewal run charges the stored card; it is active for a paid month.
      await makeDue(w, s.id);
      await runJob(w, 'renewals');
      const after = (await getSubscription(w, member.token, s.id).expect(200)).body;
      expect(after).toMatchObject({ status: 'active', is_in_trial: false, available_credits: 3 });
      // One charge of the tier's amount on the card the trial registered, and its points.
      const registration = await registrationOf(w, s.id);
      const charges = w.fakes.gatewayOne
        .registrationCharges()
        .filter((c) => c.registrationId === registration);
      expect(charges.map((c) => c.amount)).toEqual(['5.00']);
      expect(await pointsOf(w.t, member.user.id)).toBe(5);
    });

    it('gives a trial once: a member whose trial was cancelled pays from the first day of the next membership', async () => {
      const trial = await tierOn(w, { amount_cents: 500, trial_days: 7, entry_credits_per_period: 3 });
      const member = await makeUser(w.t, w.site);
      const first = await subscribe(w, member, trial.id);
      await payCheckout(w, first.checkout_id);
      await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${first.subscription.id}/cancel`, { reason: 'Only wanted the trial' })
        .expect(200);

      const again = await subscribe(w, member, trial.id);
      expect(w.fakes.gatewayOne.payments.get(again.checkout_id)).toMatchObject({
        amount: '5.00',
        paymentType: 'DB',
      });
      await payCheckout(w, again.checkout_id);
      const s = (await getSubscription(w, member.token, again.subscription.id).expect(200)).body;
      expect(s).toMatchObject({ status: 'active', is_in_trial: false, trial_start_date: null });
      // Another tier with a trial, after a paid membership: no trial either.
      const other = await tierOn(w, { amount_cents: 700, trial_days: 14 });
      const third = await subscribe(w, member, other.id);
      expect(w.fakes.gatewayOne.payments.get(third.checkout_id)).toMatchObject({ amount: '7.00' });
    });

    it('makes one of two trial checkouts opened together a trial, the other nothing', async () => {
      const trial = await tierOn(w, { amount_cents: 500, trial_days: 7, entry_credits_per_period: 3 });
      const member = await makeUser(w.t, w.site);
      const both = [await subscribe(w, member, trial.id), await subscribe(w, member, trial.id)];
      for (const b of both)
        expect(w.fakes.gatewayOne.payments.get(b.checkout_id)).toMatchObject({ amount: '0.00' });
      // Both forms are filled in; the gateway's two webhooks arrive at once. On PostgreSQL both memberships'
      // rows are held until both fulfilments wait on them, so the two starts are let go together.
      for (const b of both) w.fakes.gatewayOne.complete(b.checkout_id);
      const holder = onPostgres ? new Client({ connectionString: process.env.E2E_DATABASE_URL }) : null;
      let answers: Promise<number[]>;
      try {
        if (holder) {
          await holder.connect();
          await holder.query('BEGIN');
          await holder.query(`SELECT id FROM subscriptions WHERE user_id = $1 FOR UPDATE`, [member.user.id]);
        }
        // One by the gateway's webhook, the other by the member's page confirming its order.
        const [payment] = await w.t.db.query<Array<{ id: string }>>(
          `SELECT id FROM payment_transactions WHERE subscription_id = $1`,
          [both[1].subscription.id],
        );
        answers = Promise.all([
          w.fakes.gatewayOne.deliverWebhook(both[0].checkout_id).then(async (status) => {
            await w.t.drain();
            return status;
          }),
          api(w.t.app)
            .as(member.token)
            .post('/gatewayone/create-order', { confirmation_only: true, order_id: payment.id })
            .then((r) => r.status),
        ]);
        if (holder) {
          await untilWaiting(holder, 2);
          await holder.query('COMMIT');
        }
      } finally {
        await holder?.end();
      }
      expect(await answers).toEqual([200, 200]);
      await w.t.drain();
      const rows = await w.t.db.query<Array<{ status: string }>>(
        `SELECT status FROM subscriptions WHERE user_id = $1 ORDER BY status`,
        [member.user.id],
      );
      expect(rows.map((r) => r.status)).toEqual(['incomplete_expired', 'trialing']);
    });

    it('does not start a membership whose checkout, opened before the member paused themselves, is paid during the pause', async () => {
      const member = await makeUser(w.t, w.site);
      const started = await subscribe(w, member, tier.id);
      await pauseFor(w, member.token);
      await payCheckout(w, started.checkout_id);
      const s = (await getSubscription(w, member.token, started.subscription.id).expect(200)).body;
      expect(s.is_active).toBe(false);
      const [payment] = await w.t.db.query<
        Array<{ status: string; fulfilment: string; refunded_cents: number }>
      >(`SELECT status, fulfilment, refunded_cents FROM payment_transactions WHERE subscription_id = $1`, [
        started.subscription.id,
      ]);
      expect(payment).toEqual({
        status: 'refunded',
        fulfilment: 'refunded_unfillable',
        refunded_cents: tier.amount_cents,
      });
      expect(s.status).toBe('incomplete');
    });

    it('expires an unpaid start after 24 hours', async () => {
      const member = await makeUser(w.t, w.site);
      const started = await subscribe(w, member, tier.id);
      await w.t.db.query(`UPDATE subscriptions SET created_at = now() - interval '25 hours' WHERE id = $1`, [
        started.subscription.id,
      ]);
      await runJob(w, 'expiries');
      const s = (await getSubscription(w, member.token, started.subscription.id).expect(200)).body;
      expect(s).toMatchObject({ status: 'incomplete_expired', is_active: false, can_be_cancelled: false });
    });

    it('refuses another site’s tier (404), an inactive one (422), and a member paused by their own limits (422)', async () => {
      const member = await makeUser(w.t, w.site);
      const other = await tierOn(w, { active: false });
      await api(w.t.app).as(member.token).post('/subscriptions', { tier_id: other.id }).expect(422);
      await api(w.t.app)
        .as(member.token)
        .post('/subscriptions', { tier_id: '00000000-0000-4000-8000-000000000000' })
        .expect(404);
      await pauseFor(w, member.token);
      const res = await api(w.t.app)
        .as(member.token)
        .post('/subscriptions', { tier_id: tier.id })
        .expect(422);
      expect(res.body.code).toBe('SELF_PAUSED');
    });

    it('starts one membership of a request retried with its Idempotency-Key: the first answer, replayed', async () => {
      const member = await makeUser(w.t, w.site);
      await sentTwice(() => api(w.t.app).as(member.token).post('/subscriptions', { tier_id: tier.id }), 201);
      const rows = await w.t.db.query(`SELECT id FROM subscriptions WHERE user_id = $1`, [member.user.id]);
      expect(rows).toHaveLength(1);
    });

    it('gives the first payment back when the membership was cancelled before it, from a checkout left open', async () => {
      const member = await makeUser(w.t, w.site);
      const started = await subscribe(w, member, tier.id);
      await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${started.subscription.id}/cancel`, { reason: 'Changed my mind' })
        .expect(200);
      // The hosted form was still open in another tab, and the member pays it.
      await payCheckout(w, started.checkout_id);
      await w.t.drain();
      const s = (await getSubscription(w, member.token, started.subscription.id).expect(200)).body;
      expect(s.status).toBe('cancelled');
      const [p] = await w.t.db.query(
        `SELECT status, refunded_cents FROM payment_transactions WHERE subscription_id = $1`,
        [started.subscription.id],
      );
      expect(p).toEqual({ status: 'refunded', refunded_cents: 1000 });
      expect(w.fakes.gatewayOne.payments.get(started.checkout_id)?.refunds.map((r) => r.amount)).toEqual([
        '10.00',
      ]);
    });
    (onPostgres ? it : it.skip)(
      'gives the first payment back when the member cancels while it is being fulfilled (PostgreSQL)',
      async () => {
        const member = await makeUser(w.t, w.site);
        const started = await subscribe(w, member, tier.id);
        const id = started.subscription.id;
        w.fakes.gatewayOne.complete(started.checkout_id);
        // The membership's row is held, so the cancellation waits on it; the payment's webhook then claims the
        // payment, planned on the membership as it was (incomplete), and waits on the row too.
        const holder = new Client({ connectionString: process.env.E2E_DATABASE_URL });
        await holder.connect();
        let cancelled: Promise<{ status: number; body: { status?: string } }>;
        let paid: Promise<number>;
        try {
          await holder.query('BEGIN');
          await holder.query(`SELECT id FROM subscriptions WHERE id = $1 FOR UPDATE`, [id]);
          cancelled = api(w.t.app)
            .as(member.token)
            .post(`/subscriptions/${id}/cancel`, { reason: 'Changed my mind' })
            .then((r) => ({ status: r.status, body: r.body as { status?: string } }));
          await untilSomeoneWaits(holder);
          paid = w.fakes.gatewayOne.deliverWebhook(started.checkout_id).then(async (status) => {
            await w.t.drain();
            return status;
          });
          await untilWaiting(holder, 2);
          await holder.query('COMMIT');
        } finally {
          await holder.end();
        }
        expect(await cancelled!).toMatchObject({ status: 200, body: { status: 'cancelled' } });
        expect(await paid!).toBe(200);
        await w.t.drain();
        // Whichever went first, the member who was told "cancelled" has a cancelled membership and the money back.
        expect((await getSubscription(w, member.token, id).expect(200)).body.status).toBe('cancelled');
        const [p] = await w.t.db.query(
          `SELECT status, refunded_cents FROM payment_transactions WHERE subscription_id = $1`,
          [id],
        );
        expect(p).toEqual({ status: 'refunded', refunded_cents: 1000 });
      },
    );
  });

  describe('reading', () => {
    it('shows a membership to its owner and its site’s admins; anyone else gets 404', async () => {
      const { member, id } = await activeMember(w, tier.id);
      await getSubscription(w, member.token, id).expect(200);
      await getSubscription(w, w.admin.token, id).expect(200);
      const stranger = await makeUser(w.t, w.site);
      await getSubscription(w, stranger.token, id).expect(404);
      await getSubscription(w, member.token, 'not-a-uuid').expect(404);
      const mine = await api(w.t.app).as(member.token).get('/subscriptions').expect(200);
      expect(mine.body.map((s: { id: string }) => s.id)).toEqual([id]);
      const listed = await api(w.t.app)
        .as(w.admin.token)
        .get(`/admin/subscriptions?user_id=${member.user.id}`)
        .expect(200);
      expect(listed.body).toHaveLength(1);
    });

    it('nests the subscription in the member’s payments with its gateway ids and without the derived flags', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const me = await api(w.t.app).as(member.token).get('/users/me').expect(200);
      const payment = (me.body.payment_transactions as Array<Record<string, unknown>>).find(
        (p) => p.subscription_id === id,
      );
      const nested = payment?.subscription as Record<string, unknown>;
      expect(nested).toMatchObject({
        id,
        status: 'active',
        gatewayone_registration_id: await registrationOf(w, id),
      });
      expect(nested).toHaveProperty('gatewayone_schedule_id', null);
      expect(nested).toHaveProperty('is_trial_active', false);
      for (const flag of [
        'available_credits',
        'can_be_cancelled',
        'is_active',
        'is_cancelled',
        'is_in_trial',
        'is_paused',
      ])
        expect(nested).not.toHaveProperty(flag);
    });
  });

  describe('credits', () => {
    /**
     * 20 entries of one ticket each with credits, in parallel, into a new raffle: answers how many went in,
     * after checking that every other one was refused for want of credits (never any other failure).
     */
    const parallelCreditEntries = async (token: string) => {
      const raffle = await raffleOn(w, { total_entries_available: 1000 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          api(w.t.app).as(token).post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 }),
        ),
      );
      expect(
        answers
          .filter((a) => a.status !== 201)
          .every((a) => a.status === 422 && a.body.code === 'CREDITS_UNAVAILABLE'),
      ).toBe(true);
      return { raffle, entered: answers.filter((a) => a.status === 201).length };
    };

    it('lets 20 parallel entries with credits for 5 succeed 5 times, counting as no purchase', async () => {
      const small = await tierOn(w, { entry_credits_per_period: 5 });
      const { member, id } = await activeMember(w, small.id);
      const { raffle, entered } = await parallelCreditEntries(member.token);
      expect(entered).toBe(5);
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({ credits_used_this_period: 5, available_credits: 0 });
      const [r] = await w.t.db.query(`SELECT current_entries, entries_purchased FROM raffles WHERE id = $1`, [
        raffle.id,
      ]);
      expect(r).toEqual({ current_entries: 5, entries_purchased: 0 });
    });

    /** A member with two paid memberships of 3 credits each: the older one first, the newer one second. */
    const twoMemberships = async () => {
      const older = await tierOn(w, { amount_cents: 500, entry_credits_per_period: 3 });
      const newer = await tierOn(w, { amount_cents: 800, entry_credits_per_period: 3 });
      const { member, id: olderId } = await activeMember(w, older.id);
      const second = await subscribe(w, member, newer.id);
      await payCheckout(w, second.checkout_id);
      return { member, olderId, newerId: second.subscription.id };
    };
    const availableOf = async (token: string, ids: string[]): Promise<number[]> =>
      Promise.all(
        ids.map(
          async (id) =>
            ((await getSubscription(w, token, id).expect(200)).body as { available_credits: number })
              .available_credits,
        ),
      );

    it('spends an older membership’s credits once the newest one’s are gone, all of an entry from one membership', async () => {
      const { member, olderId, newerId } = await twoMemberships();
      const raffle = await raffleOn(w, { total_entries_available: 1000 });
      const enter = (quantity: number) =>
        api(w.t.app).as(member.token).post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity });
      await enter(3).expect(201);
      expect(await availableOf(member.token, [newerId, olderId])).toEqual([0, 3]);
      // Both memberships show what is left on each: the older one's three can be spent.
      await enter(1).expect(201);
      await enter(2).expect(201);
      expect(await availableOf(member.token, [newerId, olderId])).toEqual([0, 0]);
      const none = await enter(1).expect(422);
      expect(none.body.code).toBe('CREDITS_UNAVAILABLE');
      const [r] = await w.t.db.query(`SELECT current_entries, entries_purchased FROM raffles WHERE id = $1`, [
        raffle.id,
      ]);
      expect(r).toEqual({ current_entries: 6, entries_purchased: 0 });
    });

    it('lets 20 parallel entries of a member with two memberships of 3 credits succeed 6 times', async () => {
      // On PostgreSQL the entries race: those that wait on the newest membership while it runs out must
      // go on to the older one rather than fail.
      const { member, olderId, newerId } = await twoMemberships();
      const { raffle, entered } = await parallelCreditEntries(member.token);
      expect(entered).toBe(6);
      expect(await availableOf(member.token, [newerId, olderId])).toEqual([0, 0]);
      const used = await w.t.db.query(
        `SELECT credits_used_this_period AS used FROM subscriptions WHERE id = ANY($1::uuid[])`,
        [[olderId, newerId]],
      );
      expect(used).toEqual([{ used: 3 }, { used: 3 }]);
      const [r] = await w.t.db.query(`SELECT current_entries FROM raffles WHERE id = $1`, [raffle.id]);
      expect(r).toEqual({ current_entries: 6 });
    });

    // PostgreSQL only: the spend ahead is held open from another session, which embedded PGlite (one session)
    // cannot have.
    (onPostgres ? it : it.skip)(
      'an entry waiting on a spend that empties the newest membership takes the older one’s credit instead of failing',
      async () => {
        const { member, olderId, newerId } = await twoMemberships();
        const raffle = await raffleOn(w, { total_entries_available: 1000 });
        const holder = new Client({ connectionString: process.env.E2E_DATABASE_URL });
        await holder.connect();
        try {
          // Another entry's spend of the newest membership's last credits, not yet committed.
          await holder.query('BEGIN');
          await holder.query(`UPDATE subscriptions SET credits_used_this_period = 3 WHERE id = $1`, [
            newerId,
          ]);
          const entry = api(w.t.app)
            .as(member.token)
            .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 })
            .then((res) => res);
          await untilSomeoneWaits(holder);
          await holder.query('COMMIT');
          const res = await entry;
          expect({ status: res.status, code: res.body.code }).toEqual({ status: 201, code: undefined });
        } finally {
          await holder.end();
        }
        expect(await availableOf(member.token, [newerId, olderId])).toEqual([0, 2]);
      },
    );
  });

  describe('renewals', () => {
    it('completes a referral whose referee’s first payment is the charge after a trial', async () => {
      const referrer = await makeUser(w.t, w.site);
      const code = await referralCodeOf(w.t, referrer.token);
      const reg = await registerOn(w.t, w.site, { referral_code: code }).expect(201);
      const referee = reg.body as { access_token: string; user: { id: string } };
      expect(await pointsOf(w.t, referrer.user.id)).toBe(50); // the sign-up bonus
      const trial = await tierOn(w, { amount_cents: 500, trial_days: 7, entry_credits_per_period: 3 });
      const started = await api(w.t.app)
        .as(referee.access_token)
        .post('/subscriptions', { tier_id: trial.id })
        .expect(201);
      const body = started.body as { checkout_id: string; subscription: { id: string } };
      await payCheckout(w, body.checkout_id); // the card check: nothing taken
      const referrals = async () =>
        (await api(w.t.app).as(referrer.token).get('/rewards/referrals').expect(200)).body as Array<{
          status: string;
        }>;
      expect((await referrals())[0]).toMatchObject({ status: 'pending' });
      await makeDue(w, body.subscription.id);
      await runJob(w, 'renewals'); // the first money taken: £5.00 on the stored card
      expect((await referrals())[0]).toMatchObject({ status: 'completed', is_completed: true });
      expect(await pointsOf(w.t, referrer.user.id)).toBe(250);
    });

    it('charges the stored card once per period and renews once, through a year with its milestones', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const registration = await registrationOf(w, id);
      let periodEnd = '';
      for (let month = 1; month <= 12; month++) {
        await makeDue(w, id);
        expect(await runJob(w, 'renewals')).toBeGreaterThanOrEqual(1);
        // A second run in the same period finds nothing due for this member.
        await runJob(w, 'renewals');
        const s = (await getSubscription(w, member.token, id).expect(200)).body;
        expect(s).toMatchObject({ status: 'active', credits_used_this_period: 0 });
        expect(s.current_period_start).not.toBe(periodEnd);
        periodEnd = s.current_period_end;
      }
      const charges = w.fakes.gatewayOne
        .registrationCharges()
        .filter((c) => c.registrationId === registration);
      expect(charges).toHaveLength(12);
      expect(new Set(charges.map((c) => c.merchantTransactionId)).size).toBe(12);
      const [row] = await w.t.db.query(
        `SELECT streak_months, lifetime_months, milestones_awarded FROM subscriptions WHERE id = $1`,
        [id],
      );
      expect(row).toMatchObject({ streak_months: 12, lifetime_months: 12 });
      expect(Object.keys(row.milestones_awarded).sort()).toEqual(['12', '3', '6']);
      // 13 payments of £10 (10 points each) and the milestones 3, 6, 12 (100 + 250 + 500).
      expect(await pointsOf(w.t, member.user.id)).toBe(130 + 850);
    });

    it('writes every time in a membership’s history and milestones as the API does: ISO 8601 in UTC with Z', async () => {
      const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
      const { member, id } = await activeMember(w, tier.id);
      const card = await registrationOf(w, id);
      w.fakes.gatewayOne.declinedRegistrations.add(card);
      await makeDue(w, id);
      await runJob(w, 'renewals'); // a charge failed, its retry date recorded
      w.fakes.gatewayOne.declinedRegistrations.delete(card);
      for (let month = 0; month < 3; month++) {
        await makeDue(w, id);
        await runJob(w, 'renewals'); // renewed, the third a milestone
      }
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      const history = s.metadata.history as Array<Record<string, unknown>>;
      expect(history.map((e) => e.event)).toEqual(expect.arrayContaining(['charge_failed', 'renewed']));
      const times = history.flatMap((e) =>
        ['at', 'period_end', 'retry_at'].flatMap((k) => (typeof e[k] === 'string' ? [e[k]] : [])),
      );
      expect(times.filter((t) => !iso.test(t))).toEqual([]);
      const [row] = await w.t.db.query<Array<{ milestones_awarded: Record<string, string> }>>(
        `SELECT milestones_awarded FROM subscriptions WHERE id = $1`,
        [id],
      );
      expect(Object.keys(row.milestones_awarded)).toContain('3');
      expect(Object.values(row.milestones_awarded).filter((t) => !iso.test(t))).toEqual([]);
    });

    it('keeps the billing day of a membership begun on 31 January: after February’s period it renews to 31 March', async () => {
      const { member, id } = await activeMember(w, tier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET subscription_start_date = '2025-01-31T12:00:00Z',
                current_period_start = '2025-01-31T12:00:00Z', current_period_end = '2025-02-28T12:00:00Z',
                next_billing_date = '2025-02-28T12:00:00Z', cooling_off_expiry = '2025-02-14T12:00:00Z'
          WHERE id = $1`,
        [id],
      );
      // The hourly run of 1 March 2025, given that instant (with today's clock the membership would be months
      // overdue and start a period from now).
      await w.t.app.get(RenewalsJob).run(new Date('2025-03-01T00:07:00Z'));
      await w.t.drain();
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({
        current_period_start: '2025-02-28T12:00:00.000Z',
        current_period_end: '2025-03-31T12:00:00.000Z',
        next_billing_date: '2025-03-31T12:00:00.000Z',
      });
    });

    it('charges a membership whose renewals did not run for months once, for a period from now', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const registration = await registrationOf(w, id);
      // The renewal fell due 80 days ago (jobs off, an outage): three periods have passed.
      await makeDue(w, id, 80 * 24 * 60);
      const before = w.fakes.gatewayOne
        .registrationCharges()
        .filter((c) => c.registrationId === registration);
      const ranAt = Date.now();
      await runJob(w, 'renewals');
      await runJob(w, 'renewals');
      const charges = w.fakes.gatewayOne
        .registrationCharges()
        .filter((c) => c.registrationId === registration)
        .slice(before.length);
      expect(charges).toHaveLength(1);
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({ status: 'active', available_credits: 10 });
      // The period paid for is one the member can use: it starts at the renewal and ends a month on.
      expect(Date.parse(s.current_period_start)).toBeGreaterThanOrEqual(ranAt - 1_000);
      expect(Date.parse(s.current_period_end)).toBeGreaterThan(Date.now() + 27 * 86_400_000);
      const [row] = await w.t.db.query(`SELECT streak_months FROM subscriptions WHERE id = $1`, [id]);
      expect(row.streak_months).toBe(1);
    });

    it('retries a declined card after 1, 3 and 5 days with a dunning e-mail each time, then expires it after the grace', async () => {
      const { member, id } = await activeMember(w, tier.id);
      w.fakes.gatewayOne.declinedRegistrations.add(await registrationOf(w, id));
      await makeDue(w, id);
      await runJob(w, 'renewals');
      let s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({ status: 'past_due', is_active: true, can_be_cancelled: true });
      const [first] = await w.t.db.query(`SELECT past_due_since FROM subscriptions WHERE id = $1`, [id]);
      expect(Date.parse(s.next_billing_date) - new Date(first.past_due_since).getTime()).toBe(1 * DAY);
      for (const days of [3, 5]) {
        await w.t.db.query(
          `UPDATE subscriptions SET next_billing_date = now() - interval '1 minute' WHERE id = $1`,
          [id],
        );
        await runJob(w, 'renewals');
        s = (await getSubscription(w, member.token, id).expect(200)).body;
        expect(Date.parse(s.next_billing_date) - new Date(first.past_due_since).getTime()).toBe(days * DAY);
      }
      await w.t.db.query(
        `UPDATE subscriptions SET next_billing_date = now() - interval '1 minute' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'renewals');
      expect(mailsTo(member.email, /could not take your .* membership payment/)).toHaveLength(4);
      s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({ status: 'past_due', auto_renew: false });
      await w.t.db.query(
        `UPDATE subscriptions SET past_due_since = now() - interval '7 days' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'expiries');
      s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({
        status: 'expired',
        is_active: false,
        available_credits: 0,
        can_be_cancelled: false,
        next_billing_date: null,
      });
    });

    it('deletes an imported membership’s gateway schedule once when its cancellation comes due', async () => {
      const { member, id } = await activeMember(w, tier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET cooling_off_expiry = now() - interval '1 day', gatewayone_schedule_id = $2
          WHERE id = $1`,
        [id, `sched-due-${id}`],
      );
      await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${id}/cancel`, { reason: 'Moving on' })
        .expect(200);
      await w.t.db.query(
        `UPDATE subscriptions SET current_period_end = now() - interval '1 minute' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'expiries');
      const jobs = await w.t.db.query(
        `SELECT 1 FROM pgboss.job WHERE name = 'subscriptions.delete-schedule' AND data->>'subscription_id' = $1`,
        [id],
      );
      expect(jobs).toHaveLength(1);
    });

    it('deletes the gateway schedule an imported membership had once its grace runs out (expired)', async () => {
      const { id } = await activeMember(w, tier.id);
      const schedule = `sched-expired-${id}`;
      w.fakes.gatewayOne.schedules.add(schedule);
      await w.t.db.query(
        `UPDATE subscriptions SET status = 'past_due', past_due_since = now() - interval '8 days',
                gatewayone_schedule_id = $2 WHERE id = $1`,
        [id, schedule],
      );
      await runJob(w, 'expiries');
      await w.t.drain();
      const [row] = await w.t.db.query<Array<{ status: string }>>(
        `SELECT status FROM subscriptions WHERE id = $1`,
        [id],
      );
      expect(row.status).toBe('expired');
      expect(w.fakes.gatewayOne.deletedSchedules).toContain(schedule);
    });

    it('settles a past-due membership at once when the member gives it a new card', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const oldCard = await registrationOf(w, id);
      w.fakes.gatewayOne.declinedRegistrations.add(oldCard);
      await makeDue(w, id);
      await runJob(w, 'renewals');
      const card = await api(w.t.app).as(member.token).post(`/subscriptions/${id}/card`).expect(201);
      expect(w.fakes.gatewayOne.payments.get(card.body.checkout_id)).toMatchObject({
        amount: '10.00',
        createRegistration: true,
      });
      await payCheckout(w, card.body.checkout_id);
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({ status: 'active' });
      expect(Date.parse(s.next_billing_date)).toBeGreaterThan(Date.now() + 20 * DAY);
      expect(await registrationOf(w, id)).not.toBe(oldCard);
    });

    it('sends no dunning e-mail queued before the member paid with a new card or cancelled', async () => {
      const paying = await activeMember(w, tier.id);
      const cancelling = await activeMember(w, tier.id);
      const staying = await activeMember(w, tier.id);
      for (const m of [paying, cancelling, staying]) {
        w.fakes.gatewayOne.declinedRegistrations.add(await registrationOf(w, m.id));
        await makeDue(w, m.id);
      }
      // The run declines the three and queues their dunning e-mails; before those go...
      await api(w.t.app).as(w.root.token).post('/admin/jobs/renewals/run').expect(200);
      const card = await api(w.t.app)
        .as(paying.member.token)
        .post(`/subscriptions/${paying.id}/card`)
        .expect(201);
      w.fakes.gatewayOne.complete(card.body.checkout_id);
      expect(await w.fakes.gatewayOne.deliverWebhook(card.body.checkout_id)).toBe(200);
      await w.t.jobs.drain(['inbound.process']); // the webhook is acted on; the mails wait
      expect((await getSubscription(w, paying.member.token, paying.id).expect(200)).body.status).toBe(
        'active',
      );
      await api(w.t.app)
        .as(cancelling.member.token)
        .post(`/subscriptions/${cancelling.id}/cancel`, { reason: 'No longer wanted', immediate: true })
        .expect(200);
      await w.t.drain();
      const dunned = (m: { member: { email: string } }) =>
        mailsTo(m.member.email, /could not take your .* membership payment/).length;
      expect([paying, cancelling, staying].map(dunned)).toEqual([0, 0, 1]);
    });

    it('goes on renewing a membership whose member paid the overdue period with a new card after the last retry', async () => {
      const { member, id } = await activeMember(w, tier.id);
      w.fakes.gatewayOne.declinedRegistrations.add(await registrationOf(w, id));
      await makeDue(w, id);
      await runJob(w, 'renewals'); // the first decline
      for (let retry = 0; retry < 3; retry++) {
        await w.t.db.query(
          `UPDATE subscriptions SET next_billing_date = now() - interval '1 minute' WHERE id = $1`,
          [id],
        );
        await runJob(w, 'renewals'); // the last retry turns renewing off: the grace runs out
      }
      expect((await getSubscription(w, member.token, id).expect(200)).body).toMatchObject({
        status: 'past_due',
        auto_renew: false,
      });
      // Inside the grace the member gives a new card, which pays the overdue period.
      const card = await api(w.t.app).as(member.token).post(`/subscriptions/${id}/card`).expect(201);
      await payCheckout(w, card.body.checkout_id);
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({ status: 'active', auto_renew: true, available_credits: 10 });
      // The period it paid for ends: the new card is charged for the next one.
      const newCard = await registrationOf(w, id);
      await makeDue(w, id);
      await runJob(w, 'renewals');
      await runJob(w, 'expiries');
      expect(
        w.fakes.gatewayOne.registrationCharges().filter((c) => c.registrationId === newCard),
      ).toHaveLength(1);
      const next = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(next.status).toBe('active');
      expect(Date.parse(next.current_period_end)).toBeGreaterThan(Date.now() + 20 * DAY);
    });

    it('gives back a second card payment for an overdue period the first one already paid (two tabs)', async () => {
      const { member, id } = await activeMember(w, tier.id);
      w.fakes.gatewayOne.declinedRegistrations.add(await registrationOf(w, id));
      await makeDue(w, id);
      await runJob(w, 'renewals');
      const a = await api(w.t.app).as(member.token).post(`/subscriptions/${id}/card`).expect(201);
      const b = await api(w.t.app).as(member.token).post(`/subscriptions/${id}/card`).expect(201);
      await payCheckout(w, a.body.checkout_id);
      await payCheckout(w, b.body.checkout_id);
      await w.t.drain();
      const card = await w.t.db.query(
        `SELECT checkout_id, status, refunded_cents FROM payment_transactions
          WHERE subscription_id = $1 AND metadata->>'kind' = 'card' ORDER BY created_at`,
        [id],
      );
      expect(card).toEqual([
        { checkout_id: a.body.checkout_id, status: 'succeeded', refunded_cents: 0 },
        { checkout_id: b.body.checkout_id, status: 'refunded', refunded_cents: 1000 },
      ]);
      expect(w.fakes.gatewayOne.payments.get(b.body.checkout_id)?.refunds.map((r) => r.amount)).toEqual([
        '10.00',
      ]);
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s.status).toBe('active');
    });

    it('settles a charge whose answer was lost by looking it up, never by charging again', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const registration = await registrationOf(w, id);
      await makeDue(w, id);
      w.fakes.gatewayOne.setLatency(3_000); // past the client's timeout: the charge is made, the answer lost
      try {
        await runJob(w, 'renewals');
      } finally {
        w.fakes.gatewayOne.setLatency(0);
      }
      let s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(Date.parse(s.next_billing_date)).toBeLessThan(Date.now());
      await w.t.db.query(
        `UPDATE subscriptions SET pending_payment_claimed_at = now() - interval '2 minutes' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'renewals');
      s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(Date.parse(s.next_billing_date)).toBeGreaterThan(Date.now() + 20 * DAY);
      expect(
        w.fakes.gatewayOne.registrationCharges().filter((c) => c.registrationId === registration),
      ).toHaveLength(1);
    });

    it('gives up a charge the gateway never received an hour after its claim, however recently credits were spent', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const registration = await registrationOf(w, id);
      await makeDue(w, id);
      w.fakes.gatewayOne.goDown('reset'); // the charge's connection dropped: nothing known of its fate
      try {
        await runJob(w, 'renewals');
      } finally {
        w.fakes.gatewayOne.comeUp();
      }
      // Claimed two hours ago; the member spends a credit now, while the charge is still in flight.
      await w.t.db.query(
        `UPDATE subscriptions SET pending_payment_claimed_at = now() - interval '2 hours',
                                  updated_at = now() - interval '2 hours'
          WHERE id = $1 AND pending_payment_id IS NOT NULL`,
        [id],
      );
      const raffle = await raffleOn(w, { total_entries_available: 100 });
      await api(w.t.app)
        .as(member.token)
        .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 })
        .expect(201);

      await runJob(w, 'renewals');
      const [row] = await w.t.db.query(
        `SELECT status, pending_payment_id, failed_charges FROM subscriptions WHERE id = $1`,
        [id],
      );
      expect(row).toEqual({ status: 'past_due', pending_payment_id: null, failed_charges: 1 });
      expect(
        w.fakes.gatewayOne.registrationCharges().filter((c) => c.registrationId === registration),
      ).toHaveLength(0);
    });

    it('leaves a membership due, not past due, when the gateway turns its charge away, and the next run renews it', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const registration = await registrationOf(w, id);
      await makeDue(w, id);
      const requestsBefore = w.fakes.gatewayOne.requests.length;
      w.fakes.gatewayOne.goDown('unavailable'); // 503: turned away before any work
      try {
        await runJob(w, 'renewals');
      } finally {
        w.fakes.gatewayOne.comeUp();
      }
      // Sent once, not looked up under its reference (nothing was taken), and not sent again by the same run.
      const [{ id: paymentId }] = await w.t.db.query<Array<{ id: string }>>(
        `SELECT id FROM payment_transactions WHERE subscription_id = $1 AND metadata->>'stored_card' = 'true'`,
        [id],
      );
      const sent = w.fakes.gatewayOne.requests
        .slice(requestsBefore)
        .filter((r) => r.path.includes(registration) || r.query.merchantTransactionId === paymentId);
      expect(sent.map((r) => r.method)).toEqual(['POST']);
      expect(await renewalStateOf(w, id)).toEqual({
        status: 'active',
        pending_payment_id: null,
        failed_charges: 0,
        past_due_since: null,
        due: true,
      });
      expect(await renewalPaymentsOf(w, id)).toEqual([
        { status: 'cancelled', gateway_response: { not_sent: true, http_status: 503 } },
      ]);
      const spent = () =>
        w.t.db.query(
          `SELECT coalesce(sum(spent_cents), 0)::int AS spent FROM user_monthly_spend WHERE user_id = $1`,
          [member.user.id],
        );
      expect(await spent()).toEqual([{ spent: 1000 }]); // the first period's payment only
      expect(mailsTo(member.email, /could not take your .* membership payment/)).toEqual([]);

      // The gateway is back: the next run charges the card once and renews.
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
      expect(await spent()).toEqual([{ spent: 2000 }]);
    });

    it('reminds a member of a site with a 14-day lead 14 days ahead, however many other sites’ renewals fall sooner', async () => {
      const site = await makeSite(w.t);
      const admin = await makeUser(w.t, site, { role: 'admin' });
      await api(w.t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${site}`, { additional_settings: { subscriptions: { reminder_days: 14 } } })
        .expect(200);
      const ownTier = await tierOn({ ...w, site, admin }, { amount_cents: 1000 });
      const { member, id } = await activeMember({ ...w, site, admin }, ownTier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET next_billing_date = now() + interval '10 days',
                current_period_end = now() + interval '10 days' WHERE id = $1`,
        [id],
      );
      // The world's site (the default 7-day lead) has 500 memberships renewing in 8 days: none due a reminder,
      // all sooner than the member's renewal.
      const copies = await w.t.db.query<Array<{ id: string }>>(
        `INSERT INTO subscriptions (id, site_id, user_id, tier_id, status, amount_cents, currency, billing_interval,
                                    auto_renew, entry_credits_per_period, current_period_start, current_period_end,
                                    next_billing_date, subscription_start_date, cooling_off_expiry)
         SELECT gen_random_uuid(), $1, $2, $3, 'active', 1000, 'GBP', 'month', true, 10, now(),
                now() + interval '8 days', now() + interval '8 days', now(), now()
           FROM generate_series(1, 500)
         RETURNING id`,
        [w.site, (await makeUser(w.t, w.site)).user.id, tier.id],
      );
      try {
        await runJob(w, 'reminders');
        expect(w.t.smtp.to(member.email).filter((m) => /membership renews on/.test(m.subject))).toHaveLength(
          1,
        );
      } finally {
        await w.t.db.query(`DELETE FROM subscriptions WHERE id = ANY($1)`, [copies.map((c) => c.id)]);
      }
    });

    it('reminds the member before each renewal, once, saying what will be charged and how to cancel', async () => {
      const { member, id } = await activeMember(w, tier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET next_billing_date = now() + interval '6 days' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'reminders');
      await runJob(w, 'reminders');
      const reminders = mailsTo(member.email, /membership renews on/);
      expect(reminders).toHaveLength(1);
      expect(reminders[0].text).toMatch(/10\.00 GBP/);
      expect(reminders[0].text).toMatch(/cancel/);
    });

    it('sends no reminder queued before the member cancelled, paused or moved the renewal', async () => {
      const sixDays = `UPDATE subscriptions SET next_billing_date = now() + interval '6 days' WHERE id = $1`;
      const cancelling = await activeMember(w, tier.id);
      const pausing = await activeMember(w, tier.id);
      const moving = await activeMember(w, tier.id);
      const staying = await activeMember(w, tier.id);
      for (const m of [cancelling, pausing, moving, staying]) await w.t.db.query(sixDays, [m.id]);
      // The run queues the reminders; the site's mail server is slow, and they have not gone yet when...
      await api(w.t.app).as(w.root.token).post('/admin/jobs/reminders/run').expect(200);
      await api(w.t.app)
        .as(cancelling.member.token)
        .post(`/subscriptions/${cancelling.id}/cancel`, { reason: 'No longer wanted', immediate: true })
        .expect(200);
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/pause', {
          subscription_id: pausing.id,
          paused_until: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          reason: 'Holiday',
        })
        .expect(200);
      await w.t.db.query(
        `UPDATE subscriptions SET next_billing_date = next_billing_date + interval '1 month' WHERE id = $1`,
        [moving.id],
      );
      await w.t.drain();
      const reminded = (m: { member: { email: string } }) =>
        mailsTo(m.member.email, /membership renews on/).length;
      expect([cancelling, pausing, moving, staying].map(reminded)).toEqual([0, 0, 0, 1]);
    });

    it('names the tier as members know it (its display name) in every membership e-mail and text they read', async () => {
      const gold = await tierOn(w, { display_name: 'Gold Club' });
      const { member, id } = await activeMember(w, gold.id);
      await w.t.db.query(
        `UPDATE subscriptions SET next_billing_date = now() + interval '6 days' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'reminders');
      await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${id}/cancel`, { reason: 'Changed my mind' })
        .expect(200);
      await w.t.drain();
      const subjects = w.t.smtp
        .to(member.email)
        .map((m) => m.subject)
        .filter((s) => /membership/.test(s));
      expect(subjects).toEqual(
        expect.arrayContaining([
          'Your Gold Club membership has started',
          expect.stringMatching(/^Your Gold Club membership renews on /),
          'Your Gold Club membership is cancelled',
        ]),
      );
      expect(subjects.join(' ')).not.toContain(gold.name);
      const [payment] = await w.t.db.query<Array<{ description: string }>>(
        `SELECT description FROM payment_transactions WHERE subscription_id = $1`,
        [id],
      );
      expect(payment.description).toContain('Gold Club');
      // The API's `tier` stays the tier's name, as the spec has it.
      expect((await getSubscription(w, member.token, id).expect(200)).body.tier).toBe(gold.name);
    });

    it('names a tier whose display name is blank by its name, in its e-mails and its payment', async () => {
      const plain = await tierOn(w, { display_name: ' ' });
      const { member, id } = await activeMember(w, plain.id);
      await w.t.drain();
      const subjects = w.t.smtp.to(member.email).map((m) => m.subject);
      expect(subjects).toContain(`Your ${plain.name} membership has started`);
      const [payment] = await w.t.db.query<Array<{ description: string }>>(
        `SELECT description FROM payment_transactions WHERE subscription_id = $1`,
        [id],
      );
      expect(payment.description).toBe(`${plain.name} membership`);
    });
  });

  describe('cancelling', () => {
    it('gives no credits once a cancellation’s period has ended or a past-due grace is over, before the job moves them', async () => {
      const raffle = await raffleOn(w, { total_entries_available: 1000 });
      const enter = (token: string) =>
        api(w.t.app).as(token).post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 2 });
      // Cancelled outside the cooling-off window: credits run to the period's end, which passed a minute ago.
      const leaving = await activeMember(w, tier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET cooling_off_expiry = now() - interval '1 day' WHERE id = $1`,
        [leaving.id],
      );
      await api(w.t.app)
        .as(leaving.member.token)
        .post(`/subscriptions/${leaving.id}/cancel`, { reason: 'Moving on' })
        .expect(200);
      await w.t.db.query(
        `UPDATE subscriptions SET current_period_end = now() - interval '1 minute',
                next_billing_date = now() - interval '1 minute' WHERE id = $1`,
        [leaving.id],
      );
      expect((await enter(leaving.member.token).expect(422)).body.code).toBe('CREDITS_UNAVAILABLE');
      expect((await getSubscription(w, leaving.member.token, leaving.id).expect(200)).body).toMatchObject({
        status: 'pending_cancellation',
        available_credits: 0,
      });
      // Past due for eight days: the 7-day grace is over.
      const lapsed = await activeMember(w, tier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET status = 'past_due', past_due_since = now() - interval '8 days' WHERE id = $1`,
        [lapsed.id],
      );
      expect((await enter(lapsed.member.token).expect(422)).body.code).toBe('CREDITS_UNAVAILABLE');
      // Within the grace, credits still work (DESIGN §5: past_due is active).
      await w.t.db.query(
        `UPDATE subscriptions SET past_due_since = now() - interval '6 days' WHERE id = $1`,
        [lapsed.id],
      );
      await enter(lapsed.member.token).expect(201);
    });

    it('inside the cooling-off window: cancelled now, the period refunded less the credits spent, arithmetic recorded', async () => {
      const { member, id, checkoutId } = await activeMember(w, tier.id);
      const raffle = await raffleOn(w);
      for (let i = 0; i < 3; i++)
        await api(w.t.app)
          .as(member.token)
          .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 })
          .expect(201);
      const res = await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/cancel', { subscription_id: id, reason: 'Changed their mind' })
        .expect(200);
      expect(res.body).toMatchObject({
        status: 'cancelled',
        is_cancelled: true,
        auto_renew: false,
        cancellation_reason: 'Changed their mind',
        // No further charge is made (DESIGN §5): nothing to show as the next one.
        next_billing_date: null,
      });
      const history = res.body.metadata.history as Array<Record<string, unknown>>;
      expect(history.at(-1)).toMatchObject({ event: 'cancelled', refund_cents: 700, by: w.admin.user.id });
      expect(history.at(-1)?.refund_arithmetic).toBe('1000 − round(1000 × 3 / 10) = 1000 − 300 = 700');
      await w.t.drain();
      expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual(['7.00']);
      const [payment] = await w.t.db.query(
        `SELECT status, refunded_cents, metadata->'refunds'->0->>'reason' AS reason FROM payment_transactions
          WHERE subscription_id = $1 AND status <> 'pending' ORDER BY created_at LIMIT 1`,
        [id],
      );
      expect(payment).toMatchObject({ status: 'partially_refunded', refunded_cents: 700 });
      expect(payment.reason).toContain('1000 − round(1000 × 3 / 10)');
      expect(mailsTo(member.email, /membership is cancelled/)[0]?.text).toMatch(
        /7\.00 GBP is being refunded/,
      );
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/cancel', { subscription_id: id, reason: 'again' })
        .expect(409);
    });

    it('refunds, and promises, what the period’s payment took: not an upgraded price, nothing for a trial', async () => {
      const dearer = await tierOn(w, { amount_cents: 3000, entry_credits_per_period: 30 });
      const { member, id, checkoutId } = await activeMember(w, tier.id); // paid £10.00
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/upgrade', {
          subscription_id: id,
          new_tier: dearer.name,
          reason: 'Upsell',
        })
        .expect(200);
      const res = await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${id}/cancel`, { reason: 'Too dear' })
        .expect(200);
      const history = res.body.metadata.history as Array<Record<string, unknown>>;
      expect(history.at(-1)).toMatchObject({ event: 'cancelled', refund_cents: 1000 });
      await w.t.drain();
      expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual(['10.00']);
      expect(mailsTo(member.email, /membership is cancelled/)[0]?.text).toMatch(
        /10\.00 GBP is being refunded/,
      );

      const trial = await tierOn(w, { amount_cents: 1000, trial_days: 7, entry_credits_per_period: 10 });
      const trialist = await makeUser(w.t, w.site);
      const started = await subscribe(w, trialist, trial.id);
      await payCheckout(w, started.checkout_id); // a 0.00 card check
      const ended = await api(w.t.app)
        .as(trialist.token)
        .post(`/subscriptions/${started.subscription.id}/cancel`, { reason: 'Not for me' })
        .expect(200);
      expect(ended.body.status).toBe('cancelled');
      const last = (ended.body.metadata.history as Array<Record<string, unknown>>).at(-1);
      expect(last?.refund_cents ?? 0).toBe(0);
      await w.t.drain();
      expect(mailsTo(trialist.email, /membership is cancelled/)[0]?.text).not.toMatch(/is being refunded/);
    });

    it('prices the credits spent by what the period’s payment bought, not by an upgrade’s credits', async () => {
      const raffle = await raffleOn(w, { total_entries_available: 1000 });
      const spend = (token: string, quantity: number) =>
        api(w.t.app)
          .as(token)
          .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity })
          .expect(201);
      const upgrade = (id: string, to: string) =>
        api(w.t.app)
          .as(w.admin.token)
          .post('/admin/subscriptions/upgrade', { subscription_id: id, new_tier: to, reason: 'Upsell' })
          .expect(200);
      const cancelled = async (member: { token: string }, id: string) => {
        const res = await api(w.t.app)
          .as(member.token)
          .post(`/subscriptions/${id}/cancel`, { reason: 'Changed my mind' })
          .expect(200);
        return (res.body.metadata.history as Array<Record<string, unknown>>).at(-1)?.refund_cents ?? 0;
      };
      // £10.00 bought 10 credits; 4 spent, then upgraded to a dearer tier of 4 credits: 6 paid credits unspent.
      const fewer = await tierOn(w, { amount_cents: 2000, entry_credits_per_period: 4 });
      const a = await activeMember(w, tier.id);
      await spend(a.member.token, 4);
      await upgrade(a.id, fewer.name);
      expect(await cancelled(a.member, a.id)).toBe(600);
      // Upgraded first (20 credits granted), then 10 spent: every paid credit is used, nothing is due back.
      const more = await tierOn(w, { amount_cents: 3000, entry_credits_per_period: 30 });
      const b = await activeMember(w, tier.id);
      await upgrade(b.id, more.name);
      await spend(b.member.token, 10);
      expect(await cancelled(b.member, b.id)).toBe(0);
      await w.t.drain();
      expect(w.fakes.gatewayOne.payments.get(a.checkoutId)?.refunds.map((r) => r.amount)).toEqual(['6.00']);
      expect(w.fakes.gatewayOne.payments.get(b.checkoutId)?.refunds).toEqual([]);
    });

    it('refuses a tier priced 0 before tiers had to cost at least 1 (422 TIER_NOT_AVAILABLE), charging nothing', async () => {
      const free = await tierOn(w, { amount_cents: 1 });
      await w.t.db.query(`UPDATE subscription_tiers SET amount_cents = 0 WHERE id = $1`, [free.id]);
      const member = await makeUser(w.t, w.site);
      const res = await api(w.t.app)
        .as(member.token)
        .post('/subscriptions', { tier_id: free.id })
        .expect(422);
      expect(res.body.code).toBe('TIER_NOT_AVAILABLE');
      const rows = await w.t.db.query(
        `SELECT 1 FROM subscriptions WHERE user_id = $1 UNION ALL SELECT 1 FROM payment_transactions WHERE user_id = $1`,
        [member.user.id],
      );
      expect(rows).toHaveLength(0);
    });

    it('prices credits by the renewal an upgrade while past due was paid for at: its retry charged the new price', async () => {
      const small = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 5 });
      const big = await tierOn(w, { amount_cents: 2000, entry_credits_per_period: 10 });
      const { member, id } = await activeMember(w, small.id);
      const card = await registrationOf(w, id);
      w.fakes.gatewayOne.declinedRegistrations.add(card);
      await makeDue(w, id);
      await runJob(w, 'renewals'); // declined: past due, the new period to start at the old end
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/upgrade', {
          subscription_id: id,
          new_tier: big.name,
          reason: 'Wants more',
        })
        .expect(200);
      w.fakes.gatewayOne.declinedRegistrations.delete(card);
      await w.t.db.query(
        `UPDATE subscriptions SET next_billing_date = now() - interval '1 minute' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'renewals'); // the retry pays £20.00 for 10 credits, in a period begun before the upgrade
      expect((await getSubscription(w, member.token, id).expect(200)).body).toMatchObject({
        status: 'active',
        available_credits: 10,
      });
      const raffle = await raffleOn(w);
      await api(w.t.app)
        .as(member.token)
        .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 5 })
        .expect(201);
      const res = await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${id}/cancel`, { reason: 'Changed my mind' })
        .expect(200);
      expect((res.body.metadata.history as Array<Record<string, unknown>>).at(-1)).toMatchObject({
        event: 'cancelled',
        refund_cents: 1000,
        refund_arithmetic: '2000 − round(2000 × 5 / 10) = 2000 − 1000 = 1000',
      });
      await w.t.drain();
      const [paid] = await w.t.db.query<Array<{ amount_cents: number; refunded_cents: number }>>(
        `SELECT amount_cents, refunded_cents FROM payment_transactions
          WHERE subscription_id = $1 AND status = 'partially_refunded'`,
        [id],
      );
      expect(paid).toEqual({ amount_cents: 2000, refunded_cents: 1000 });
    });

    it('after the window: runs to the period’s end, then ends without a charge', async () => {
      const { member, id } = await activeMember(w, tier.id);
      await w.t.db.query(
        `UPDATE subscriptions SET cooling_off_expiry = now() - interval '1 day' WHERE id = $1`,
        [id],
      );
      const res = await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${id}/cancel`, { reason: 'Too many e-mails' })
        .expect(200);
      expect(res.body).toMatchObject({
        status: 'pending_cancellation',
        is_active: true,
        is_cancelled: true,
        can_be_cancelled: false,
        // Access runs to the period's end, which is not a billing date: nothing is charged then.
        next_billing_date: null,
      });
      expect(res.body.current_period_end).not.toBeNull();
      expect(res.body.available_credits).toBe(10);
      await api(w.t.app)
        .as(member.token)
        .post(`/subscriptions/${id}/cancel`, { reason: 'again' })
        .expect(409);
      await makeDue(w, id);
      const charged = w.fakes.gatewayOne.registrationCharges().length;
      await runJob(w, 'renewals');
      await runJob(w, 'expiries');
      expect(w.fakes.gatewayOne.registrationCharges()).toHaveLength(charged);
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({ status: 'cancelled', is_active: false });
      expect(s.cancelled_at).not.toBeNull();
    });

    it('clears, once, the billing date a membership ended before kept (migration 1795760000000)', async () => {
      const { member, id } = await activeMember(w, tier.id);
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/cancel', { subscription_id: id, reason: 'Moved away', immediate: true })
        .expect(200);
      // As the code before it left such a row: cancelled, its old date still stored.
      await w.t.db.query(
        `UPDATE subscriptions SET next_billing_date = now() + interval '20 days' WHERE id = $1`,
        [id],
      );
      const runner = w.t.db.createQueryRunner();
      try {
        await new EndedMembershipsBillNoMore1795760000000().up(runner);
      } finally {
        await runner.release();
      }
      const s = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(s).toMatchObject({ status: 'cancelled', next_billing_date: null });
    });

    it('immediately outside the window: cancelled now, no refund; a gateway schedule it had is deleted', async () => {
      const { id } = await activeMember(w, tier.id);
      w.fakes.gatewayOne.schedules.add('sched-legacy-1');
      await w.t.db.query(
        `UPDATE subscriptions SET cooling_off_expiry = now() - interval '1 day', gatewayone_schedule_id = 'sched-legacy-1' WHERE id = $1`,
        [id],
      );
      const res = await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/cancel', { subscription_id: id, reason: 'Fraud', immediate: true })
        .expect(200);
      expect(res.body).toMatchObject({ status: 'cancelled', is_cancelled: true, next_billing_date: null });
      expect((res.body.metadata.history as Array<Record<string, unknown>>).at(-1)).not.toHaveProperty(
        'refund_cents',
      );
      await w.t.drain();
      expect(w.fakes.gatewayOne.deletedSchedules).toContain('sched-legacy-1');
    });

    it('keeps to the site: another site’s admin gets 404, a member cannot cancel another’s', async () => {
      const { id } = await activeMember(w, tier.id);
      const stranger = await makeUser(w.t, w.site);
      await api(w.t.app).as(stranger.token).post(`/subscriptions/${id}/cancel`, { reason: 'x' }).expect(404);
      await api(w.t.app)
        .as(stranger.token)
        .post('/admin/subscriptions/cancel', { subscription_id: id, reason: 'x' })
        .expect(403);
    });
  });

  describe('upgrading and pausing', () => {
    it('upgrades to a dearer tier: credits granted now, the new amount from the next renewal, history kept', async () => {
      const platinum = await tierOn(w, { amount_cents: 2000, entry_credits_per_period: 25 });
      const cheaper = await tierOn(w, { amount_cents: 500 });
      const { member, id } = await activeMember(w, tier.id);
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/upgrade', { subscription_id: id, new_tier: cheaper.name, reason: 'x' })
        .expect(422)
        .expect((r) =>
          expect(r.body).toMatchObject({
            code: 'NOT_AN_UPGRADE',
            detail: `${cheaper.name} does not cost more than the current 10.00 GBP a period.`,
          }),
        );
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/upgrade', { subscription_id: id, new_tier: 'no-such-tier', reason: 'x' })
        .expect(404);
      const res = await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/upgrade', {
          subscription_id: id,
          new_tier: platinum.name,
          reason: 'More entries',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        tier: platinum.name,
        amount_cents: 2000,
        entry_credits_per_period: 25,
        available_credits: 25,
      });
      expect((res.body.metadata.history as Array<Record<string, unknown>>).at(-1)).toMatchObject({
        event: 'upgraded',
        reason: 'More entries',
        credits_granted: 15,
      });
      // The upgrade itself charges nothing; the next renewal charges the new tier's amount.
      const registration = await registrationOf(w, id);
      const chargesOf = () =>
        w.fakes.gatewayOne.registrationCharges().filter((c) => c.registrationId === registration);
      expect(chargesOf()).toEqual([]);
      await makeDue(w, id);
      await runJob(w, 'renewals');
      expect(chargesOf().map((c) => c.amount)).toEqual(['20.00']);
      expect((await getSubscription(w, member.token, id).expect(200)).body).toMatchObject({
        status: 'active',
        available_credits: 25,
      });
    });

    it('refuses as an upgrade a tier in another currency or billed at another interval, changing nothing', async () => {
      // £10 a month: ¥1,500 is a bigger number, £100 a year a bigger amount; neither is comparable.
      const yen = await tierOn(w, { amount_cents: 1500, currency: 'JPY' });
      const yearly = await tierOn(w, { amount_cents: 10_000, billing_interval: 'year' });
      const { member, id } = await activeMember(w, tier.id);
      const before = (await getSubscription(w, member.token, id).expect(200)).body;
      for (const other of [yen, yearly]) {
        const res = await api(w.t.app)
          .as(w.admin.token)
          .post('/admin/subscriptions/upgrade', { subscription_id: id, new_tier: other.name, reason: 'x' })
          .expect(422);
        expect(res.body.code).toBe('NOT_AN_UPGRADE');
      }
      const after = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(after).toMatchObject({
        tier: before.tier,
        amount_cents: 1000,
        currency: 'GBP',
        billing_interval: before.billing_interval,
      });
      // The next renewal still charges £10.00 for a month.
      const registration = await registrationOf(w, id);
      await makeDue(w, id);
      await runJob(w, 'renewals');
      expect(
        w.fakes.gatewayOne
          .registrationCharges()
          .filter((c) => c.registrationId === registration)
          .map((c) => [c.amount, c.currency]),
      ).toEqual([['10.00', 'GBP']]);
    });

    it('pauses with no credits meanwhile, and resumes on its date with the period extended by the pause', async () => {
      const { member, id } = await activeMember(w, tier.id);
      const before = (await getSubscription(w, member.token, id).expect(200)).body;
      const until = new Date(Date.now() + 10 * DAY).toISOString();
      const paused = await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/pause', {
          subscription_id: id,
          paused_until: until,
          reason: 'Travelling',
        })
        .expect(200);
      expect(paused.body).toMatchObject({
        status: 'paused',
        is_paused: true,
        is_active: false,
        available_credits: 0,
      });
      const raffle = await raffleOn(w);
      await api(w.t.app)
        .as(member.token)
        .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 })
        .expect(422);
      await w.t.db.query(
        `UPDATE subscriptions SET paused_at = now() - interval '10 days', paused_until = now() - interval '1 minute' WHERE id = $1`,
        [id],
      );
      await runJob(w, 'expiries');
      const after = (await getSubscription(w, member.token, id).expect(200)).body;
      expect(after).toMatchObject({ status: 'active', paused_until: null, available_credits: 10 });
      const extended = Date.parse(after.current_period_end) - Date.parse(before.current_period_end);
      expect(Math.abs(extended - 10 * DAY)).toBeLessThan(5 * 60_000);
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/resume', { subscription_id: id, reason: 'x' })
        .expect(409);
    });
    it('a trial paused and resumed, by an admin or on its date, is still a trial, its end moved by the pause', async () => {
      const trial = await tierOn(w, { amount_cents: 700, trial_days: 14, entry_credits_per_period: 2 });
      const pausedTrial = async () => {
        const { member, id } = await activeMember(w, trial.id);
        const before = (await getSubscription(w, member.token, id).expect(200)).body;
        expect(before.status).toBe('trialing');
        await api(w.t.app)
          .as(w.admin.token)
          .post('/admin/subscriptions/pause', {
            subscription_id: id,
            paused_until: new Date(Date.now() + 5 * DAY).toISOString(),
            reason: 'Travelling',
          })
          .expect(200);
        return { member, id, before };
      };
      const byAdmin = await pausedTrial();
      await w.t.db.query(`UPDATE subscriptions SET paused_at = now() - interval '5 days' WHERE id = $1`, [
        byAdmin.id,
      ]);
      await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/resume', { subscription_id: byAdmin.id, reason: 'Back' })
        .expect(200);
      const onItsDate = await pausedTrial();
      await w.t.db.query(
        `UPDATE subscriptions SET paused_at = now() - interval '5 days', paused_until = now() - interval '1 minute' WHERE id = $1`,
        [onItsDate.id],
      );
      await runJob(w, 'expiries');
      for (const { member, id, before } of [byAdmin, onItsDate]) {
        const after = (await getSubscription(w, member.token, id).expect(200)).body;
        // Nothing was ever charged: still the free trial, which ends when billing starts, five days later.
        expect(after).toMatchObject({
          status: 'trialing',
          is_in_trial: true,
          is_trial_active: true,
          available_credits: 2,
        });
        expect(after.trial_end_date).toBe(after.next_billing_date);
        const moved = Date.parse(after.trial_end_date) - Date.parse(before.trial_end_date);
        expect(Math.abs(moved - 5 * DAY)).toBeLessThan(5 * 60_000);
      }
      expect(w.fakes.gatewayOne.registrationCharges().filter((c) => c.amount === '7.00')).toEqual([]);
    });
  });

  describe('renewing under concurrency', () => {
    /** `n` due memberships of new members, copied set-based from a paid one (they share its stored card). */
    const dueCopies = async (tierId: string, registration: string, n: number) => {
      const tag = (await makeUser(w.t, w.site)).user.id.slice(0, 8);
      await w.t.db.query(
        `WITH users_made AS (
           INSERT INTO users (site_id, email, email_normalized, role, signup_source, data_processing_consent, has_consented)
           SELECT $2, 'bulk-' || g || '-' || $3 || '@example.com', 'bulk-' || g || '-' || $3 || '@example.com', 'user', 'register', true, true
             FROM generate_series(1, $5::int) g RETURNING id)
         INSERT INTO subscriptions (site_id, user_id, tier_id, status, amount_cents, currency, billing_interval,
                                    entry_credits_per_period, current_period_start, current_period_end,
                                    next_billing_date, subscription_start_date, gatewayone_registration_id)
         SELECT $2, u.id, $1, 'active', 300, 'GBP', 'month', 10, now() - interval '1 month', now() - interval '1 minute',
                now() - interval '1 minute', now() - interval '1 month', $4
           FROM users_made u`,
        [tierId, w.site, tag, registration, n],
      );
    };
    const renewalRun = () => api(w.t.app).as(w.root.token).post('/admin/jobs/renewals/run').expect(200);
    const affected = (runs: Array<{ body: unknown }>) =>
      runs.reduce((n, r) => n + (r.body as { affected: number }).affected, 0);
    /** Memberships of the tier whose charge's answer was lost, aged past the look-up's minute. */
    const ageLost = (tierId: string) =>
      w.t.db.query(
        `UPDATE subscriptions SET pending_payment_claimed_at = now() - interval '2 minutes'
          WHERE tier_id = $1 AND pending_payment_id IS NOT NULL`,
        [tierId],
      );
    const stateOf = async (tierId: string, template: string) => {
      const [row] = await w.t.db.query<Array<Record<string, string>>>(
        `SELECT count(*) FILTER (WHERE s.next_billing_date > now()) AS renewed,
                  count(*) FILTER (WHERE s.pending_payment_id IS NOT NULL) AS in_flight,
                  (SELECT count(*) FROM payment_transactions p WHERE p.subscription_id = ANY(array_agg(s.id)) AND p.status = 'succeeded') AS paid
             FROM subscriptions s WHERE s.tier_id = $1 AND s.id <> $2`,
        [tierId, template],
      );
      return row;
    };

    it('looks up every lost charge in one run, more than a batch of them, each once, and fails those never made', async () => {
      const lostMany = await tierOn(w, { amount_cents: 300 });
      const { id: template } = await activeMember(w, lostMany.id);
      const n = RENEWAL_BATCH + 50;
      await dueCopies(lostMany.id, await registrationOf(w, template), n);
      const chargesBefore = w.fakes.gatewayOne.registrationCharges().length;
      w.fakes.gatewayOne.goDown('reset'); // every charge's connection dropped: nothing known of its fate
      try {
        expect(affected([await renewalRun()])).toBe(0);
      } finally {
        w.fakes.gatewayOne.comeUp();
      }
      expect(await stateOf(lostMany.id, template)).toMatchObject({ renewed: '0', in_flight: String(n) });
      // A few minutes on, the gateway knows none of them: each is looked up once, and waits.
      await ageLost(lostMany.id);
      const requestsBefore = w.fakes.gatewayOne.requests.length;
      expect(affected([await renewalRun()])).toBe(0);
      const lookUps = w.fakes.gatewayOne.requests.slice(requestsBefore);
      expect(lookUps.filter((r) => r.method === 'GET')).toHaveLength(n);
      expect(lookUps.filter((r) => r.method !== 'GET')).toEqual([]);
      // An hour on they never reached it: all of them fail in one run, like a decline, none charged.
      await w.t.db.query(
        `UPDATE subscriptions SET pending_payment_claimed_at = now() - interval '2 hours'
          WHERE tier_id = $1 AND pending_payment_id IS NOT NULL`,
        [lostMany.id],
      );
      await renewalRun();
      const [row] = await w.t.db.query<Array<Record<string, string>>>(
        `SELECT count(*) FILTER (WHERE status = 'past_due') AS past_due,
                count(*) FILTER (WHERE pending_payment_id IS NOT NULL) AS in_flight
           FROM subscriptions WHERE tier_id = $1 AND id <> $2`,
        [lostMany.id, template],
      );
      expect(row).toEqual({ past_due: String(n), in_flight: '0' });
      expect(w.fakes.gatewayOne.registrationCharges()).toHaveLength(chargesBefore);
    });

    it('two runners renewing the same 500 memberships at once charge and renew each exactly once', async () => {
      const many = await tierOn(w, { amount_cents: 300 });
      const { id: template } = await activeMember(w, many.id);
      const registration = await registrationOf(w, template);
      await dueCopies(many.id, registration, 500);
      const chargesBefore = w.fakes.gatewayOne.registrationCharges().length;
      const runs = await Promise.all([renewalRun(), renewalRun()]);
      // A charge answered past the client's 2 s timeout (a loaded machine: the fake answers up to 128 charges
      // at once on the test's own event loop) is made but its answer lost; the membership waits in flight
      // for the next run to look it up, never to charge again. One that waited out its timeout for one of the
      // pool's 64 connections never left: it is called off, and the next run charges it. Lost answers are
      // aged past the look-up's minute and settled, so the runs are held to exactly-once whatever the
      // machine's load. A look-up can lose its answer the same way, so this repeats while any wait.
      const settling = [];
      for (let round = 0; round < 5; round++) {
        await ageLost(many.id);
        settling.push(await renewalRun());
        if ((await stateOf(many.id, template)).in_flight === '0') break;
      }
      expect(affected([...runs, ...settling])).toBe(500);
      const charges = w.fakes.gatewayOne.registrationCharges().slice(chargesBefore);
      expect(charges).toHaveLength(500);
      expect(new Set(charges.map((c) => c.merchantTransactionId)).size).toBe(500);
      expect(await stateOf(many.id, template)).toEqual({ renewed: '500', in_flight: '0', paid: '500' });
    });
  });
});
