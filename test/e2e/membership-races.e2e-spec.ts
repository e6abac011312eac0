import { api } from '../support/api';
import { holdRows, untilWaiting } from '../support/held-rows';
import {
  activeMember,
  makeDue,
  registrationOf,
  runJob,
  tierOn,
  withRoot,
  type MembershipWorld,
} from '../support/memberships';
import { confirm, raffleOn, startPaymentsWorld, stopPaymentsWorld } from '../support/payments';

const onPostgres = !!process.env.TEST_DATABASE_URL;
const pgIt = onPostgres ? it : it.skip;

/**
 * Memberships changed by several requests at once, on PostgreSQL (the embedded database runs one transaction at
 * a time and proves nothing here): a membership's lock must find the row whatever another change did to it, and
 * an account's erasure must never deadlock with a change to one of its memberships.
 */
describe('memberships changed at once (PostgreSQL)', () => {
  let w: MembershipWorld;
  /** A membership's tier, and a dearer one to upgrade to. */
  let low: { id: string; name: string };
  let high: { id: string; name: string };
  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld());
    low = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
    high = await tierOn(w, { amount_cents: 2000, entry_credits_per_period: 20 });
  });
  afterAll(() => stopPaymentsWorld(w));

  const send = <T>(r: PromiseLike<T>): Promise<T> => Promise.resolve(r);

  describe('requests sent together', () => {
    pgIt(
      'a cooling-off cancel racing credit entries: the refund is priced on the credits finally used, none used after',
      async () => {
        const tier = await tierOn(w, { amount_cents: 1000, entry_credits_per_period: 10 });
        for (let round = 0; round < 3; round++) {
          const { member, id } = await activeMember(w, tier.id);
          const raffle = await raffleOn(w);
          const entries = Array.from({ length: 6 }, () =>
            send(
              api(w.t.app)
                .as(member.token)
                .post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 }),
            ),
          );
          const cancel = send(
            api(w.t.app).as(w.admin.token).post('/admin/subscriptions/cancel', {
              subscription_id: id,
              reason: 'changed mind',
              immediate: false,
            }),
          );
          const [c, ...e] = await Promise.all([cancel, ...entries]);
          expect(c.status).toBe(200);
          expect(e.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
          const entered = e.filter((a) => a.status === 201).length;
          const [s] = await w.t.db.query(
            `SELECT status, credits_used_this_period, metadata FROM subscriptions WHERE id = $1`,
            [id],
          );
          expect(s.status).toBe('cancelled');
          expect(s.credits_used_this_period).toBe(entered);
          const [n] = await w.t.db.query(
            `SELECT count(*)::int AS n FROM raffle_entries WHERE raffle_id = $1 AND voided_at IS NULL`,
            [raffle.id],
          );
          expect(n.n).toBe(entered);
          const last = (s.metadata.history as Array<Record<string, unknown>>).at(-1)!;
          expect(last.refund_cents).toBe(1000 - entered * 100);
        }
      },
    );

    const ROUNDS = 6;
    type Member = Awaited<ReturnType<typeof activeMember>>;
    const admin = () => api(w.t.app).as(w.admin.token);
    const upgrade = (m: Member) =>
      admin().post('/admin/subscriptions/upgrade', {
        subscription_id: m.id,
        new_tier: high.name,
        reason: 'r',
      });
    const cancel = (m: Member) =>
      admin().post('/admin/subscriptions/cancel', { subscription_id: m.id, reason: 'r', immediate: true });
    const erase = (m: Member) => admin().delete(`/admin/users/${m.member.user.id}`);
    /** `ROUNDS` times, two requests sent together on a new member's membership: `a b → status` a round. */
    const together = async (
      a: (m: Member) => PromiseLike<{ status: number; body: { code?: string } }>,
      b: (m: Member) => PromiseLike<{ status: number; body: { code?: string } }>,
    ): Promise<string[]> => {
      const seen: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const m = await activeMember(w, low.id);
        const [x, y] = await Promise.all([send(a(m)), send(b(m))]);
        const [s] = await w.t.db.query(`SELECT status FROM subscriptions WHERE id = $1`, [m.id]);
        const answer = (r: { status: number; body: { code?: string } }) =>
          `${r.status}${r.body.code ? ` ${r.body.code}` : ''}`;
        seen.push(`${answer(x)} / ${answer(y)} → ${s.status}`);
      }
      return seen;
    };

    pgIt(
      'an immediate cancel and an upgrade sent together: the cancel is never answered 404 and always ends it',
      async () => {
        const seen = await together(upgrade, cancel);
        expect(seen.filter((x) => !/^(200|409 \S+) \/ 200 → cancelled$/.test(x))).toEqual([]);
      },
    );

    pgIt(
      'two upgrades to the same tier sent together: one 200, the other 422 NOT_AN_UPGRADE (never 404)',
      async () => {
        const seen = await together(upgrade, upgrade);
        expect(
          seen.filter((x) => !/^(200 \/ 422 NOT_AN_UPGRADE|422 NOT_AN_UPGRADE \/ 200) → active$/.test(x)),
        ).toEqual([]);
      },
    );

    pgIt(
      'an account erasure and an upgrade sent together: neither is a 500 (deadlock), the membership ends',
      async () => {
        // Whichever goes first: the upgrade of a live membership (200), or of one the erasure ended (409).
        const seen = await together(upgrade, erase);
        expect(seen.filter((x) => !/^(200|409 \S+) \/ 204 → cancelled$/.test(x))).toEqual([]);
      },
    );

    pgIt(
      'an account erasure and an admin cancel sent together: no 500 (deadlock), the account erased',
      async () => {
        const seen = await together(cancel, erase);
        expect(seen.filter((x) => !/^(200|409 \S+) \/ 204 → cancelled$/.test(x))).toEqual([]);
      },
    );
  });

  describe('a membership locked while an upgrade changes its tier (held row lines the requests up)', () => {
    /**
     * Holds the membership's row from another session, sends `first` (the upgrade) and waits until it waits,
     * sends `second` and waits until it waits too, then lets the row go: the upgrade commits first and the
     * second request takes the row right after it, as it would when both arrive together.
     */
    const behindUpgrade = async <T>(id: string, tierName: string, second: () => Promise<T>) => {
      const { holder, release } = await holdRows(`SELECT 1 FROM subscriptions WHERE id = $1 FOR UPDATE`, [
        id,
      ]);
      const upgrade = send(
        api(w.t.app).as(w.admin.token).post('/admin/subscriptions/upgrade', {
          subscription_id: id,
          new_tier: tierName,
          reason: 'asked for more',
        }),
      );
      await untilWaiting(holder, 1);
      const other = second();
      await untilWaiting(holder, 2);
      await release();
      return { upgrade: await upgrade, other: await other };
    };

    pgIt(
      'the member’s own cancel sent just after an upgrade is not answered 404; the membership ends',
      async () => {
        for (let round = 0; round < 3; round++) {
          const { member, id } = await activeMember(w, low.id);
          const { upgrade, other } = await behindUpgrade(id, high.name, () =>
            send(
              api(w.t.app)
                .as(member.token)
                .post(`/subscriptions/${id}/cancel`, { reason: 'too dear', immediate: true }),
            ),
          );
          const [s] = await w.t.db.query(`SELECT status, auto_renew FROM subscriptions WHERE id = $1`, [id]);
          expect({ upgrade: upgrade.status, cancel: other.status, code: other.body.code, row: s }).toEqual({
            upgrade: 200,
            cancel: 200,
            code: undefined,
            row: { status: 'cancelled', auto_renew: false },
          });
        }
      },
    );

    pgIt(
      'an account erased while an upgrade is in flight is erased (204, not a deadlock 500) and its membership ends',
      async () => {
        for (let round = 0; round < 3; round++) {
          const { member, id } = await activeMember(w, low.id);
          const { upgrade, other } = await behindUpgrade(id, high.name, () =>
            send(api(w.t.app).as(w.admin.token).delete(`/admin/users/${member.user.id}`)),
          );
          const [s] = await w.t.db.query(`SELECT status FROM subscriptions WHERE id = $1`, [id]);
          const [u] = await w.t.db.query(`SELECT deleted_at IS NOT NULL AS erased FROM users WHERE id = $1`, [
            member.user.id,
          ]);
          expect({
            round,
            upgrade: upgrade.status,
            deletion: other.status,
            erased: u.erased,
            membership: s.status,
          }).toEqual({
            round,
            upgrade: 200,
            deletion: 204,
            erased: true,
            membership: 'cancelled',
          });
        }
      },
    );

    pgIt(
      'a new card paying a past-due period, confirmed just after an upgrade: the period is renewed (or the money given back)',
      async () => {
        for (let round = 0; round < 3; round++) {
          const { member, id } = await activeMember(w, low.id);
          const oldCard = await registrationOf(w, id);
          w.fakes.gatewayOne.declinedRegistrations.add(oldCard);
          await makeDue(w, id);
          await runJob(w, 'renewals');
          const [due] = await w.t.db.query(`SELECT status FROM subscriptions WHERE id = $1`, [id]);
          expect(due.status).toBe('past_due');
          const card = await api(w.t.app).as(member.token).post(`/subscriptions/${id}/card`).expect(201);
          w.fakes.gatewayOne.complete(card.body.checkout_id as string);
          const [pay] = await w.t.db.query<Array<{ id: string }>>(
            `SELECT id FROM payment_transactions WHERE subscription_id = $1 ORDER BY created_at DESC LIMIT 1`,
            [id],
          );
          const { upgrade, other } = await behindUpgrade(id, high.name, () => send(confirm(w, pay.id)));
          await w.t.drain();
          const [s] = await w.t.db.query(
            `SELECT status, current_period_end > now() + interval '20 days' AS renewed FROM subscriptions WHERE id = $1`,
            [id],
          );
          const [p] = await w.t.db.query(
            `SELECT status, refunded_cents, amount_cents FROM payment_transactions WHERE id = $1`,
            [pay.id],
          );
          const outcome = {
            upgrade: upgrade.status,
            confirmation: other.status,
            paidPeriod: s.status === 'active' && s.renewed,
            givenBack: p.refunded_cents === p.amount_cents,
          };
          const cardNow = await registrationOf(w, id);
          expect({
            round,
            ...outcome,
            payment: `${p.status}, refunded ${p.refunded_cents} of ${p.amount_cents}`,
            membership: s.status,
            paidOrRefunded: outcome.paidPeriod || outcome.givenBack,
            newCardKept: cardNow !== oldCard,
          }).toEqual({
            round,
            upgrade: 200,
            confirmation: 200,
            paidPeriod: expect.any(Boolean),
            givenBack: expect.any(Boolean),
            payment: expect.any(String),
            membership: expect.any(String),
            paidOrRefunded: true,
            newCardKept: true,
          });
        }
      },
    );
  });
});
