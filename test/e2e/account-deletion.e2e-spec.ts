import { api } from '../support/api';
import { codeBody, makeBrand } from '../support/discounts';
import {
  DEFAULT_PASSWORD,
  makeSite,
  makeUser,
  type MadeUser,
  pointsOf,
  uid,
  registerOn,
  referralCodeOf,
} from '../support/factories';
import {
  activeMember,
  makeDue,
  runJob,
  tierOn,
  withRoot,
  type MembershipWorld,
} from '../support/memberships';
import { confirm, orderAsUser, raffleOn, startPaymentsWorld, stopPaymentsWorld } from '../support/payments';

/** Issue 12's last part: deleting an account (GDPR erasure, soft) and what it undoes. */
describe('account deletion', () => {
  let w: MembershipWorld;

  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld());
  });
  afterAll(() => stopPaymentsWorld(w));

  const deleteMe = (user: { token: string }, body: object = { password: DEFAULT_PASSWORD }) =>
    api(w.t.app).as(user.token).delete('/users/me').send(body);
  const deleteAs = (token: string, id: string, body: object = {}) =>
    api(w.t.app).as(token).delete(`/admin/users/${id}`).send(body);
  const register = (body: Record<string, unknown>) => registerOn(w.t, w.site, body).expect(201);
  const codeOf = (user: MadeUser): Promise<string> => referralCodeOf(w.t, user.token);
  /** A paid £2.50 order of `token`'s user, confirmed; answers its id. */
  const pays = async (token: string): Promise<string> => {
    const raffle = await raffleOn(w);
    const order = await orderAsUser(w, token, raffle.item_id, { quantity: 1 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    await confirm(w, order.order_id).expect(200);
    await w.t.drain();
    return order.order_id;
  };
  /** A referrer whose referee signed up with its code (and paid, when `paid`): 50 or 250 points. */
  const referral = async (paid: boolean) => {
    const referrer = await makeUser(w.t, w.site);
    const res = await register({ referral_code: await codeOf(referrer) });
    const referee = { token: res.body.access_token as string, id: res.body.user.id as string };
    const orderId = paid ? await pays(referee.token) : null;
    expect(await pointsOf(w.t, referrer.user.id)).toBe(paid ? 250 : 50);
    return { referrer, referee, orderId };
  };
  const reversalsOf = (userId: string) =>
    w.t.db.query<Array<{ amount: number; reason: string; metadata: Record<string, unknown> }>>(
      `SELECT amount, reason, metadata FROM point_transactions
        WHERE user_id = $1 AND transaction_type = 'reversal' ORDER BY created_at, id`,
      [userId],
    );
  const referralOf = async (refereeId: string) =>
    (
      await w.t.db.query<Array<{ status: string; cancel_reason: string | null }>>(
        `SELECT status, cancel_reason FROM referrals WHERE referee_user_id = $1`,
        [refereeId],
      )
    )[0];

  describe('deleting one’s own account', () => {
    it('answers 204, refuses its tokens at once, anonymises it, and frees the e-mail', async () => {
      const user = await makeUser(w.t, w.site, { email: `Leaver.${uid()}@Example.com` });
      await api(w.t.app)
        .as(user.token)
        .put('/users/profile', { profile: { first_name: 'Lea', last_name: 'Ver', city: 'Leeds' } })
        .expect(200);
      await deleteMe(user).expect(204);

      await api(w.t.app).as(user.token).get('/users/me').expect(401);
      await api(w.t.app).post('/auth/refresh', { refresh_token: user.refreshToken }).expect(401);
      await api(w.t.app)
        .post('/auth/login', { email: user.email, password: DEFAULT_PASSWORD, site_id: w.site })
        .expect(401);
      const [row] = await w.t.db.query(
        `SELECT u.email, u.name, u.deleted_at, u.password_hash, p.first_name, p.last_name, p.city
           FROM users u JOIN user_profiles p ON p.user_id = u.id WHERE u.id = $1`,
        [user.user.id],
      );
      expect(row).toMatchObject({
        email: `deleted-${user.user.id}@deleted.invalid`,
        name: null,
        password_hash: null,
        first_name: null,
        last_name: null,
        city: null,
      });
      expect(row.deleted_at).not.toBeNull();
      const [revoked] = await w.t.db.query(
        `SELECT count(*)::int AS live FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL`,
        [user.user.id],
      );
      expect(revoked.live).toBe(0);
      const [log] = await w.t.db.query(
        `SELECT severity, metadata->>'by' AS by FROM activity_logs WHERE user_id = $1 AND activity_type = 'account_deleted'`,
        [user.user.id],
      );
      expect(log).toEqual({ severity: 'warning', by: user.user.id });
      // The address registers again, as a new account (any case).
      const again = await register({ email: user.email.toLowerCase() });
      expect(again.body.user.id).not.toBe(user.user.id);
      // Admins no longer find the deleted one.
      const found = await api(w.t.app)
        .as(w.admin.token)
        .get(`/admin/users?email=${encodeURIComponent(user.email)}`)
        .expect(200);
      expect(found.body.map((u: { id: string }) => u.id)).toEqual([again.body.user.id]);
    });

    it('refuses a wrong or missing password and changes nothing', async () => {
      const user = await makeUser(w.t, w.site);
      const wrong = await deleteMe(user, { password: 'not-the-password-1' }).expect(403);
      expect(wrong.body.code).toBe('WRONG_PASSWORD');
      const missing = await deleteMe(user, {}).expect(400);
      expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'password' })]);
      await api(w.t.app).as(user.token).get('/users/me').expect(200);
      await api(w.t.app).post('/auth/refresh', { refresh_token: user.refreshToken }).expect(200);
      const [row] = await w.t.db.query(`SELECT email, deleted_at FROM users WHERE id = $1`, [user.user.id]);
      expect(row).toEqual({ email: user.email, deleted_at: null });
    });

    it('logs the lock that five wrong passwords here cause, as five wrong sign-ins would', async () => {
      const user = await makeUser(w.t, w.site);
      for (let i = 0; i < 5; i++) await deleteMe(user, { password: `not-the-password-${i}` }).expect(403);
      const logged = await w.t.db.query<Array<{ activity_type: string }>>(
        `SELECT activity_type FROM activity_logs WHERE user_id = $1
            AND activity_type IN ('account_locked', 'account_deletion_refused')`,
        [user.user.id],
      );
      expect(logged.filter((l) => l.activity_type === 'account_deletion_refused')).toHaveLength(5);
      expect(logged.filter((l) => l.activity_type === 'account_locked')).toHaveLength(1);
      const [row] = await w.t.db.query(
        `SELECT account_locked_until > now() AS locked FROM users WHERE id = $1`,
        [user.user.id],
      );
      expect(row.locked).toBe(true);
    });

    it('cannot be blocked by someone registering the account’s tombstone address: refused, and the deletion succeeds', async () => {
      const victim = await makeUser(w.t, w.site);
      // An account's id is not secret: a referrer sees its referees' (GET /rewards/referrals).
      const tombstone = `deleted-${victim.user.id}@deleted.invalid`;
      const taken = await api(w.t.app)
        .post('/auth/register', {
          email: tombstone,
          password: DEFAULT_PASSWORD,
          site_id: w.site,
          data_processing_consent: true,
          age_confirmed: true,
        })
        .expect(400);
      expect(taken.body.errors).toEqual([expect.objectContaining({ field: 'email' })]);
      await deleteMe(victim).expect(204);
      const rows = await w.t.db.query<Array<{ id: string }>>(`SELECT id FROM users WHERE email = $1`, [
        tombstone,
      ]);
      expect(rows.map((r) => r.id)).toEqual([victim.user.id]);
    });

    it('asks no password of an account made without one', async () => {
      const guest = await makeUser(w.t, w.site, { password: null, signupSource: 'purchase' });
      await deleteMe(guest, {}).expect(204);
      await api(w.t.app).as(guest.token).get('/users/me').expect(401);
    });
  });

  describe('admins', () => {
    it('delete users of their own site only; admins and themselves are a superadmin’s matter', async () => {
      const user = await makeUser(w.t, w.site);
      const otherSite = await makeSite(w.t);
      const otherAdmin = await makeUser(w.t, otherSite, { role: 'admin' });
      const stranger = await makeUser(w.t, w.site);
      const colleague = await makeUser(w.t, w.site, { role: 'admin' });

      await deleteAs(otherAdmin.token, user.user.id).expect(404);
      await deleteAs(stranger.token, user.user.id).expect(403);
      await deleteAs(w.admin.token, colleague.user.id).expect(403);
      await deleteAs(w.admin.token, w.root.user.id).expect(403); // a superadmin of the admin's own site
      await deleteAs(w.admin.token, w.admin.user.id).expect(403);
      await deleteAs(w.admin.token, 'not-a-uuid').expect(404);
      await api(w.t.app).as(user.token).get('/users/me').expect(200);

      await deleteAs(w.admin.token, user.user.id, { reason: 'Erasure request by e-mail' }).expect(204);
      await api(w.t.app).as(user.token).get('/users/me').expect(401);
      await deleteAs(w.admin.token, user.user.id).expect(404);
      const [row] = await w.t.db.query(`SELECT deletion_reason FROM users WHERE id = $1`, [user.user.id]);
      expect(row.deletion_reason).toBe('Erasure request by e-mail');
      // A superadmin deletes anywhere, admins included.
      await deleteAs(w.root.token, otherAdmin.user.id).expect(204);
      await deleteAs(w.root.token, colleague.user.id).expect(204);
    });
  });

  describe('referrals', () => {
    it('cancels a completed referral and takes both bonuses back from the referrer, once', async () => {
      const { referrer, referee, orderId } = await referral(true);
      await deleteMe(referee).expect(204);
      expect(await referralOf(referee.id)).toEqual({ status: 'cancelled', cancel_reason: 'referee_deleted' });
      expect(await pointsOf(w.t, referrer.user.id)).toBe(0);
      const reversals = await reversalsOf(referrer.user.id);
      expect(reversals.map((r) => r.amount)).toEqual([-250]);
      expect(reversals[0].reason).toBe('Referral cancelled: the friend you referred closed their account');
      expect(reversals[0].metadata).toMatchObject({ due: 250, taken: 250, cause: 'referee_deleted' });
      const summary = await api(w.t.app)
        .as(referrer.token)
        .get(`/rewards/summary?site_id=${w.site}`)
        .expect(200);
      expect(summary.body).toMatchObject({
        current_points: 0,
        referral_points_awarded: 0,
        referral_signup_points_awarded: 0,
        referral_signups_count: 0,
        successful_referrals_count: 0,
      });
      // The referee's payment refunded afterwards takes nothing more.
      await api(w.t.app)
        .as(w.admin.token)
        .post(`/admin/payments/${orderId}/refund`, { reason: 'Erasure' })
        .expect(200);
      await w.t.drain();
      expect(await reversalsOf(referrer.user.id)).toHaveLength(1);
      expect(await pointsOf(w.t, referrer.user.id)).toBe(0);
    });

    it('takes back only what the referrer still holds, as a refund does (never below zero)', async () => {
      const { referrer, referee } = await referral(true);
      const brand = await makeBrand(w.t, w.admin.token);
      const code = await api(w.t.app)
        .as(w.admin.token)
        .post('/discount-codes', codeBody(brand.id, { points_required: 200 }))
        .expect(201);
      await api(w.t.app).as(referrer.token).post(`/discount-codes/${code.body.id}/claim`).expect(201);
      expect(await pointsOf(w.t, referrer.user.id)).toBe(50);
      await deleteAs(w.admin.token, referee.id).expect(204);
      expect(await pointsOf(w.t, referrer.user.id)).toBe(0);
      const [reversal] = await reversalsOf(referrer.user.id);
      expect(reversal.amount).toBe(-50);
      expect(reversal.reason).toContain('(250 points due, 200 already spent; 50 taken back)');
    });

    it('cancels a pending referral and takes back its signup bonus', async () => {
      const { referrer, referee } = await referral(false);
      await deleteMe(referee).expect(204);
      expect(await referralOf(referee.id)).toEqual({ status: 'cancelled', cancel_reason: 'referee_deleted' });
      expect(await pointsOf(w.t, referrer.user.id)).toBe(0);
      expect((await reversalsOf(referrer.user.id)).map((r) => r.amount)).toEqual([-50]);
    });

    it('stops a deleted referrer’s pending referrals: the referee’s purchase pays no one', async () => {
      const { referrer, referee } = await referral(false);
      await deleteMe(referrer).expect(204);
      expect(await referralOf(referee.id)).toEqual({
        status: 'cancelled',
        cancel_reason: 'referrer_deleted',
      });
      await pays(referee.token);
      expect(await pointsOf(w.t, referrer.user.id)).toBe(50);
      expect(await referralOf(referee.id)).toMatchObject({ status: 'cancelled' });
    });

    it('reverses once when the account is deleted several times at once', async () => {
      const { referrer, referee } = await referral(true);
      const answers = await Promise.all([
        deleteMe(referee),
        deleteAs(w.admin.token, referee.id),
        deleteAs(w.admin.token, referee.id),
        deleteAs(w.root.token, referee.id),
      ]);
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 204)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 204).every((s) => s === 404 || s === 401)).toBe(true);
      expect((await reversalsOf(referrer.user.id)).map((r) => r.amount)).toEqual([-250]);
      expect(await pointsOf(w.t, referrer.user.id)).toBe(0);
      const [logs] = await w.t.db.query(
        `SELECT count(*)::int AS n FROM activity_logs WHERE user_id = $1 AND activity_type = 'account_deleted'`,
        [referee.id],
      );
      expect(logs.n).toBe(1);
    });
  });

  describe('responsible play', () => {
    const DAY = 24 * 60 * 60 * 1000;
    const setLimits = (token: string, body: object) =>
      api(w.t.app).as(token).put('/users/me/limits', body).expect(200);
    const limitsOf = async (token: string) =>
      (await api(w.t.app).as(token).get('/users/me/limits').expect(200)).body as Record<string, unknown>;
    const order = (token: string, itemId: string) =>
      api(w.t.app)
        .as(token)
        .post('/gatewayone/create-order', { item_id: itemId, site_id: w.site, quantity: 1 });

    it('keeps a running self-pause and a limit for the address: registering it again does not lift them', async () => {
      const email = `paused-${uid()}@example.com`;
      const user = await makeUser(w.t, w.site, { email });
      const until = new Date(Date.now() + 180 * DAY).toISOString();
      await setLimits(user.token, { monthly_spend_limit_cents: 0, paused_until: until });
      await deleteMe(user).expect(204);

      const again = await register({ email: email.toUpperCase() });
      const token = again.body.access_token as string;
      expect(await limitsOf(token)).toMatchObject({
        is_paused: true,
        paused_until: until,
        monthly_spend_limit_cents: 0,
      });
      const raffle = await raffleOn(w);
      const refused = await order(token, raffle.item_id).expect(422);
      expect(refused.body.error_code).toBe('SELF_PAUSED');
      const [carried] = await w.t.db.query(
        `SELECT count(*)::int AS n FROM activity_logs WHERE user_id = $1 AND activity_type = 'limits_carried'`,
        [again.body.user.id],
      );
      expect(carried.n).toBe(1);
      // The hold was taken by the new account, and never held the address itself.
      const holds = await w.t.db.query(`SELECT * FROM limit_holds WHERE site_id = $1`, [w.site]);
      expect(JSON.stringify(holds)).not.toContain(email.split('@')[0]);
    });

    it('carries the month’s spend under a limit, also to an account a guest purchase makes', async () => {
      const email = `limited-${uid()}@example.com`;
      const user = await makeUser(w.t, w.site, { email });
      await setLimits(user.token, { monthly_spend_limit_cents: 500 });
      const raffle = await raffleOn(w); // £2.50 a ticket
      await order(user.token, raffle.item_id).expect(200); // 250 of 500 reserved
      await deleteAs(w.admin.token, user.user.id).expect(204); // whoever deletes it

      const guest = () =>
        api(w.t.app).post('/gatewayone/create-order', {
          item_id: raffle.item_id,
          site_id: w.site,
          customer_email: email,
          user_exists: false,
          quantity: 1,
        });
      await guest().expect(200); // 500 of 500
      const [account] = await w.t.db.query(
        `SELECT l.monthly_spend_limit_cents, s.spent_cents
           FROM users u JOIN user_limits l ON l.user_id = u.id JOIN user_monthly_spend s ON s.user_id = u.id
          WHERE u.email_normalized = $1 AND u.deleted_at IS NULL`,
        [email],
      );
      // 250 spent before the deletion, carried, and 250 since: the limit is reached.
      expect(account).toEqual({ monthly_spend_limit_cents: 500, spent_cents: 500 });
    });

    it('lets a held limit lapse when raising it would have: a day later the address starts afresh', async () => {
      const email = `lapsed-${uid()}@example.com`;
      const user = await makeUser(w.t, w.site, { email });
      await setLimits(user.token, { monthly_spend_limit_cents: 100 });
      await deleteMe(user).expect(204);
      // A day on (the hold's clock moved back rather than the app's).
      await w.t.db.query(
        `UPDATE limit_holds SET limit_until = now() - interval '1 second', expires_at = now() - interval '1 second'
          WHERE site_id = $1 AND monthly_spend_limit_cents = 100`,
        [w.site],
      );
      const again = await register({ email });
      expect(await limitsOf(again.body.access_token as string)).toMatchObject({
        is_paused: false,
        monthly_spend_limit_cents: null,
      });
    });
  });

  describe('raffle entries', () => {
    const admin = () => api(w.t.app).as(w.admin.token);
    const postal = async (raffleId: string, user: { user: { id: string } }, quantity: number) =>
      (
        await admin()
          .post(`/admin/raffles/${raffleId}/entries`, { user_id: user.user.id, quantity, method: 'postal' })
          .expect(201)
      ).body.id as string;
    const close = (raffleId: string) => admin().post(`/admin/raffles/${raffleId}/close`).expect(200);
    const ticketList = async (raffleId: string) =>
      (await api(w.t.app).get(`/raffles/${raffleId}/draw-proof/tickets.csv`).expect(200)).text;
    const drawnEntries = async (raffleId: string, winners: number) =>
      (
        (await admin().post(`/admin/raffles/${raffleId}/draw`, { winners }).expect(201)).body
          .winners as Array<{
          entry_id: string;
        }>
      ).map((x) => x.entry_id);

    it('takes an erased account out of every draw still open: on no ticket list, never drawn', async () => {
      const open = await raffleOn(w, { total_entries_available: 100 });
      const leaver = await makeUser(w.t, w.site);
      const stayer = await makeUser(w.t, w.site);
      const gone = [await postal(open.id, leaver, 30), await postal(open.id, leaver, 20)];
      const standing = await postal(open.id, stayer, 1);
      await deleteMe(leaver).expect(204);
      await close(open.id);
      const csv = await ticketList(open.id);
      for (const id of gone) expect(csv).not.toContain(id);
      expect(csv.split('\n').slice(1, -1)).toEqual([`51,51,${standing}`]);
      // Asked for three winners, the draw finds the one entry still standing.
      expect(await drawnEntries(open.id, 3)).toEqual([standing]);
      const proof = (await api(w.t.app).get(`/raffles/${open.id}/draw-proof`).expect(200)).body;
      expect(proof.ticket_count).toBe(51);
    });

    it('leaves a raffle closed before the deletion as it was published', async () => {
      const closed = await raffleOn(w, { total_entries_available: 100 });
      const leaver = await makeUser(w.t, w.site);
      const entry = await postal(closed.id, leaver, 4);
      await close(closed.id);
      const published = await ticketList(closed.id);
      await deleteMe(leaver).expect(204);
      expect(await ticketList(closed.id)).toBe(published);
      expect(await drawnEntries(closed.id, 1)).toEqual([entry]);
    });
  });

  describe('memberships', () => {
    it('ends an active membership at once: no renewal is charged, the cooling-off refund is made', async () => {
      const tier = await tierOn(w);
      const { member, id, checkoutId } = await activeMember(w, tier.id);
      await deleteMe(member).expect(204);
      const [s] = await w.t.db.query(
        `SELECT status, auto_renew, cancellation_reason, cancelled_at FROM subscriptions WHERE id = $1`,
        [id],
      );
      expect(s).toMatchObject({
        status: 'cancelled',
        auto_renew: false,
        cancellation_reason: 'account_deleted',
      });
      expect(s.cancelled_at).not.toBeNull();
      await w.t.drain();
      // Inside the 14-day window the consumer's refund stands: nothing used, the whole period back.
      expect(w.fakes.gatewayOne.payments.get(checkoutId)?.refunds.map((r) => r.amount)).toEqual(['10.00']);
      await makeDue(w, id);
      const charged = w.fakes.gatewayOne.registrationCharges().length;
      await runJob(w, 'renewals');
      await runJob(w, 'expiries');
      expect(w.fakes.gatewayOne.registrationCharges()).toHaveLength(charged);
      const [after] = await w.t.db.query(`SELECT status FROM subscriptions WHERE id = $1`, [id]);
      expect(after.status).toBe('cancelled');
    });

    it('deletes a schedule held at the gateway, by a job', async () => {
      const tier = await tierOn(w);
      const { member, id } = await activeMember(w, tier.id);
      w.fakes.gatewayOne.schedules.add('sched-deleted-account');
      await w.t.db.query(
        `UPDATE subscriptions SET cooling_off_expiry = now() - interval '1 day', gatewayone_schedule_id = 'sched-deleted-account' WHERE id = $1`,
        [id],
      );
      await deleteAs(w.admin.token, member.user.id).expect(204);
      await w.t.drain();
      expect(w.fakes.gatewayOne.deletedSchedules).toContain('sched-deleted-account');
    });
  });
});
