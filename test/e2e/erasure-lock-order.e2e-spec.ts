import { api } from '../support/api';
import { makeUser, type MadeUser, pointsOf, registerOn, referralCodeOf } from '../support/factories';
import { holdRows, untilWaiting } from '../support/held-rows';
import { activeMember, makeDue, tierOn, withRoot, type MembershipWorld } from '../support/memberships';
import { confirm, orderAsUser, raffleOn, startPaymentsWorld, stopPaymentsWorld } from '../support/payments';

const onPostgres = !!process.env.TEST_DATABASE_URL;
const pgIt = onPostgres ? it : it.skip;

/**
 * Lock orders against an account erasure, on PostgreSQL (the embedded database runs one transaction at a time): an
 * erasure locks the user's row FOR UPDATE first and then the user's other rows (sessions, memberships, referrals,
 * entry caps, raffles). A path that locks one of those rows first and then writes a row whose foreign key names
 * the user (FOR KEY SHARE) deadlocks with it, so every such path holds the user first (`AccountsService.holdAccount`)
 * or never waits for it. Each case asserts what a user would see: no 500, both answered, the account erased.
 */
describe('lock orders against an account erasure (PostgreSQL)', () => {
  let w: MembershipWorld;
  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld());
  });
  afterAll(() => stopPaymentsWorld(w));

  const send = <T>(r: PromiseLike<T>): Promise<T> => Promise.resolve(r);
  const erase = (userId: string) => send(api(w.t.app).as(w.admin.token).delete(`/admin/users/${userId}`));
  const erased = async (userId: string): Promise<boolean> => {
    const [u] = await w.t.db.query(`SELECT deleted_at IS NOT NULL AS erased FROM users WHERE id = $1`, [
      userId,
    ]);
    return u.erased as boolean;
  };
  /**
   * Pauses the erasure just after it has locked the user's row: its next statement revokes the user's refresh
   * tokens, held here from another session. Then `second` is sent and reaches a lock too (or ends); then the tokens go.
   * This only widens the window an erasure always has between locking the user and locking the user's other rows.
   */
  const settledOk = (): void => undefined;
  const erasureThen = async <T>(userId: string, second: () => Promise<T>) => {
    const { holder, release } = await holdRows(
      `SELECT 1 FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL FOR UPDATE`,
      [userId],
    );
    const deletion = erase(userId);
    await untilWaiting(holder, 1);
    const other = second();
    // Until `second` waits on a lock too, or is done without waiting (a run that passes over the member).
    await Promise.race([untilWaiting(holder, 2), other.then(settledOk, settledOk)]);
    await release();
    return { deletion: await deletion, other: await other };
  };

  const register = (referralCode: string) =>
    registerOn(w.t, w.site, { referral_code: referralCode }).expect(201);
  /** A referrer, and a referee who signed up with its code and has a paid (not yet confirmed) first order. */
  const referralWithPaidOrder = async () => {
    const referrer = await makeUser(w.t, w.site);
    const res = await register(await referralCodeOf(w.t, referrer.token));
    const referee = { token: res.body.access_token as string, id: res.body.user.id as string };
    const raffle = await raffleOn(w);
    const order = await orderAsUser(w, referee.token, raffle.item_id, { quantity: 1 });
    w.fakes.gatewayOne.complete(order.checkout_id);
    return { referrer, referee, raffle, orderId: order.order_id };
  };
  const referralOf = async (refereeId: string) => {
    const [r] = await w.t.db.query(`SELECT status, cancel_reason FROM referrals WHERE referee_user_id = $1`, [
      refereeId,
    ]);
    return r as { status: string; cancel_reason: string | null };
  };

  describe('a REFERRER erased while the referee’s first purchase is confirmed', () => {
    // The completion locks the referral (UPDATE referrals) and then writes the referrer's ledger row, whose foreign
    // key wants the referrer's row FOR KEY SHARE; the erasure holds the referrer FOR UPDATE and then updates the
    // referrer's pending referrals.
    pgIt('lined up: the erasure is 204, the purchase is confirmed and entered, no 500', async () => {
      const seen: unknown[] = [];
      for (let round = 0; round < 3; round++) {
        const { referrer, referee, raffle, orderId } = await referralWithPaidOrder();
        const { deletion, other } = await erasureThen(referrer.user.id, () => send(confirm(w, orderId)));
        await w.t.drain();
        const [entry] = await w.t.db.query(
          `SELECT count(*)::int AS n FROM raffle_entries WHERE raffle_id = $1 AND user_id = $2 AND voided_at IS NULL`,
          [raffle.id, referee.id],
        );
        const [pay] = await w.t.db.query(`SELECT status FROM payment_transactions WHERE id = $1`, [orderId]);
        // Informative: a second confirmation afterwards settles it (what a retry, webhook or reconciliation would do).
        const retry = await send(confirm(w, orderId));
        seen.push({
          retryAfter: retry.status,
          round,
          deletion: deletion.status,
          confirmation: other.status,
          payment: pay.status,
          confirmationBody: other.status >= 500 ? other.body : undefined,
          referrerErased: await erased(referrer.user.id),
          refereeEntered: entry.n,
          referral: await referralOf(referee.id),
        });
      }
      expect(seen).toEqual(
        [0, 1, 2].map((round) => ({
          retryAfter: 200,
          round,
          deletion: 204,
          confirmation: 200,
          payment: 'succeeded',
          confirmationBody: undefined,
          referrerErased: true,
          refereeEntered: 1,
          referral: expect.objectContaining({ status: expect.stringMatching(/^(completed|cancelled)$/) }),
        })),
      );
    });

    pgIt('sent together (8 rounds): never a 500, the referrer always erased', async () => {
      const seen: string[] = [];
      for (let round = 0; round < 8; round++) {
        const { referrer, orderId } = await referralWithPaidOrder();
        const [d, c] = await Promise.all([erase(referrer.user.id), send(confirm(w, orderId))]);
        seen.push(`erase ${d.status} confirm ${c.status} erased ${await erased(referrer.user.id)}`);
      }
      expect(seen.filter((s) => s !== 'erase 204 confirm 200 erased true')).toEqual([]);
    });
  });

  describe('an account erased while the member enters with membership credits', () => {
    // The credit take locks the membership (UPDATE subscriptions) and then the entry's statement reads the entrant
    // FOR KEY SHARE (and its activity row's foreign key takes it); the erasure holds the user FOR UPDATE and then
    // locks the live memberships (lockLiveOf, FOR UPDATE) to end them.
    pgIt('lined up: the erasure is 204, the entry is refused (never 500), the membership ends', async () => {
      const tier = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
      const seen: unknown[] = [];
      for (let round = 0; round < 3; round++) {
        const { member, id } = await activeMember(w, tier.id);
        const raffle = await raffleOn(w);
        const { deletion, other } = await erasureThen(member.user.id, () =>
          send(
            api(w.t.app)
              .as(member.token)
              .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 }),
          ),
        );
        const [s] = await w.t.db.query(`SELECT status FROM subscriptions WHERE id = $1`, [id]);
        const [n] = await w.t.db.query(
          `SELECT count(*)::int AS n FROM raffle_entries WHERE raffle_id = $1 AND voided_at IS NULL`,
          [raffle.id],
        );
        seen.push({
          round,
          deletion: deletion.status,
          entry: `${other.status} ${other.body.code}`,
          erased: await erased(member.user.id),
          membership: s.status,
          standingEntries: n.n,
        });
      }
      expect(seen).toEqual(
        [0, 1, 2].map((round) => ({
          round,
          deletion: 204,
          // Refused: the erasure ended the membership first, so it had no credits left to take.
          entry: '422 CREDITS_UNAVAILABLE',
          erased: true,
          membership: 'cancelled',
          standingEntries: 0,
        })),
      );
    });

    pgIt('sent together (8 rounds): never a 500, always erased', async () => {
      const tier = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
      const seen: string[] = [];
      for (let round = 0; round < 8; round++) {
        const { member } = await activeMember(w, tier.id);
        const raffle = await raffleOn(w);
        const [d, ...e] = await Promise.all([
          erase(member.user.id),
          ...Array.from({ length: 3 }, () =>
            send(
              api(w.t.app)
                .as(member.token)
                .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 }),
            ),
          ),
        ]);
        seen.push(
          `erase ${d.status} entries ${e.map((r) => r.status).join(',')} erased ${await erased(member.user.id)}`,
        );
      }
      expect(
        seen.filter((s) => !/^erase 204 entries (201|409|401|422)(,(201|409|401|422))* erased true$/.test(s)),
      ).toEqual([]);
    });
  });

  describe('an account erased while the renewal run claims its membership', () => {
    // The run's claim locks due memberships (UPDATE subscriptions … FOR UPDATE SKIP LOCKED) and then inserts their
    // pending payments (payment_transactions.user_id: FOR KEY SHARE on the member); the erasure holds the member FOR
    // UPDATE and then locks the live memberships.
    pgIt('lined up: the erasure is 204 and the membership ends; the run does not fail', async () => {
      const tier = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
      const seen: unknown[] = [];
      for (let round = 0; round < 3; round++) {
        const { member, id } = await activeMember(w, tier.id);
        const bystander = await activeMember(w, tier.id);
        await makeDue(w, id);
        await makeDue(w, bystander.id);
        const { deletion, other } = await erasureThen(member.user.id, () =>
          send(api(w.t.app).as(w.root.token).post('/admin/jobs/renewals/run')),
        );
        await w.t.drain();
        const [s] = await w.t.db.query(`SELECT status FROM subscriptions WHERE id = $1`, [id]);
        const [b] = await w.t.db.query(
          `SELECT current_period_end > now() + interval '20 days' AS renewed FROM subscriptions WHERE id = $1`,
          [bystander.id],
        );
        seen.push({
          round,
          deletion: deletion.status,
          run: other.status,
          erased: await erased(member.user.id),
          membership: s.status,
          bystanderRenewedByThisRun: b.renewed,
        });
      }
      expect(seen).toEqual(
        [0, 1, 2].map((round) => ({
          round,
          deletion: 204,
          run: 200,
          erased: true,
          membership: 'cancelled',
          bystanderRenewedByThisRun: true,
        })),
      );
    });
  });

  describe('an account erased while the renewal run claims its membership, sent together', () => {
    pgIt('sent together (6 rounds): neither the erasure nor the run answers 500', async () => {
      const tier = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
      const seen: string[] = [];
      for (let round = 0; round < 6; round++) {
        const { member, id } = await activeMember(w, tier.id);
        await makeDue(w, id);
        const [d, r] = await Promise.all([
          erase(member.user.id),
          send(api(w.t.app).as(w.root.token).post('/admin/jobs/renewals/run')),
        ]);
        await w.t.drain();
        seen.push(`erase ${d.status} run ${r.status} erased ${await erased(member.user.id)}`);
      }
      expect(seen.filter((s) => s !== 'erase 204 run 200 erased true')).toEqual([]);
    });
  });

  // ---- races checked that hold (kept as evidence) ----

  describe('other pairs', () => {
    /** A confirmed £2.50 order of `buyer` in `raffle` (a new raffle when none): its id. */
    const paidBy = async (buyer: MadeUser, raffle?: { id: string; item_id: string }) => {
      const r = raffle ?? (await raffleOn(w));
      const order = await orderAsUser(w, buyer.token, r.item_id, { quantity: 1 });
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
      return order.order_id;
    };
    const refund = (id: string) =>
      send(api(w.t.app).as(w.admin.token).post(`/admin/payments/${id}/refund`, { reason: 'probe' }));

    pgIt('an account erased while an admin refunds its payment whole (sent together, 6 rounds)', async () => {
      const seen: string[] = [];
      for (let round = 0; round < 6; round++) {
        const buyer = await makeUser(w.t, w.site);
        const id = await paidBy(buyer);
        const [d, r] = await Promise.all([erase(buyer.user.id), refund(id)]);
        const [e] = await w.t.db.query(
          `SELECT count(*)::int AS n FROM raffle_entries WHERE payment_transaction_id = $1 AND voided_at IS NULL`,
          [id],
        );
        seen.push(`erase ${d.status} refund ${r.status} standing ${e.n}`);
      }
      expect(seen.filter((s) => s !== 'erase 204 refund 200 standing 0')).toEqual([]);
    });

    pgIt('two admins refund two payments of one buyer in one raffle at once (6 rounds)', async () => {
      const seen: string[] = [];
      for (let round = 0; round < 6; round++) {
        const buyer = await makeUser(w.t, w.site);
        const raffle = await raffleOn(w);
        const a = await paidBy(buyer, raffle);
        const b = await paidBy(buyer, raffle);
        const answers = await Promise.all([refund(a), refund(b)]);
        seen.push(
          `refunds ${answers.map((x) => x.status).join(',')} points ${await pointsOf(w.t, buyer.user.id)}`,
        );
      }
      expect(seen.filter((s) => s !== 'refunds 200,200 points 0')).toEqual([]);
    });

    pgIt('a whole refund racing sales of the same raffle (6 rounds): no 500, counts right', async () => {
      const seen: string[] = [];
      for (let round = 0; round < 6; round++) {
        const raffle = await raffleOn(w);
        const buyer = await makeUser(w.t, w.site);
        const id = await paidBy(buyer, raffle);
        const others = await Promise.all(
          Array.from({ length: 3 }, async () => {
            const u = await makeUser(w.t, w.site);
            const o = await orderAsUser(w, u.token, raffle.item_id, { quantity: 1 });
            w.fakes.gatewayOne.complete(o.checkout_id);
            return o.order_id;
          }),
        );
        const answers = await Promise.all([refund(id), ...others.map((o) => send(confirm(w, o)))]);
        const [n] = await w.t.db.query(
          `SELECT count(*)::int AS n FROM raffle_entries WHERE raffle_id = $1 AND voided_at IS NULL`,
          [raffle.id],
        );
        seen.push(`answers ${answers.map((x) => x.status).join(',')} standing ${n.n}`);
      }
      expect(seen.filter((s) => s !== 'answers 200,200,200,200 standing 3')).toEqual([]);
    });

    pgIt(
      'an account erased while the member cancels its own membership (sent together, 6 rounds)',
      async () => {
        const tier = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
        const seen: string[] = [];
        for (let round = 0; round < 6; round++) {
          const { member, id } = await activeMember(w, tier.id);
          const [d, c] = await Promise.all([
            erase(member.user.id),
            send(
              api(w.t.app)
                .as(member.token)
                .post(`/subscriptions/${id}/cancel`, { reason: 'r', immediate: true }),
            ),
          ]);
          seen.push(`erase ${d.status} cancel ${c.status}`);
        }
        expect(seen.filter((s) => !/^erase 204 cancel (200|401|409|404)$/.test(s))).toEqual([]);
      },
    );

    pgIt(
      'an account erased while an admin takes points off it (sent together, 6 rounds): no 500',
      async () => {
        // The adjustment locks the member's balance row and then writes its ledger row; the erasure never locks that balance.
        const seen: string[] = [];
        for (let round = 0; round < 6; round++) {
          const member = await makeUser(w.t, w.site);
          await w.t.db.query(
            `INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned) VALUES ($1, $2, 100, 100)`,
            [member.user.id, w.site],
          );
          const [d, a] = await Promise.all([
            erase(member.user.id),
            send(
              api(w.t.app)
                .as(w.admin.token)
                .post('/admin/rewards/adjust', { user_id: member.user.id, amount: -10, reason: 'probe' }),
            ),
          ]);
          seen.push(`erase ${d.status} adjust ${a.status}`);
        }
        expect(seen.filter((s) => /5\d\d/.test(s) || !/erase 204/.test(s))).toEqual([]);
      },
    );
  });
});
