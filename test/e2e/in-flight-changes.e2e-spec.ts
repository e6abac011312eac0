import { api } from '../support/api';
import { makeUser, type MadeUser, pointsOf, givePoints } from '../support/factories';
import { Client } from 'pg';
import { untilSomeoneWaits, untilWaiting, whileHeld } from '../support/held-rows';
import { codeBody, makeBrand } from '../support/discounts';
import {
  confirm,
  orderAsUser,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
  type PaymentsWorld,
} from '../support/payments';

const onPostgres = !!process.env.TEST_DATABASE_URL;
const pgIt = onPostgres ? it : it.skip;

/**
 * An admin's change that commits while a member's request is past its first reads: the request is held to
 * the row as it is when it writes, never to what it read before (PostgreSQL: the member's balance row is
 * held from another session so that the change lands in between).
 */
describe('changes committed while a request is in flight', () => {
  let w: PaymentsWorld;
  let brandId: string;

  beforeAll(async () => {
    w = await startPaymentsWorld();
    brandId = (await makeBrand(w.t, w.admin.token)).id;
  });
  afterAll(() => stopPaymentsWorld(w));

  const give = (user: MadeUser, amount: number) => givePoints(w.t, w.admin.token, user, amount);
  /** `request` by the member while their balance row is held: `during` commits before it goes on. */
  const whileBalanceHeld = <T>(member: MadeUser, request: () => Promise<T>, during: () => Promise<void>) =>
    whileHeld(
      `SELECT 1 FROM rewards_balances WHERE user_id = $1 FOR UPDATE`,
      [member.user.id],
      request,
      during,
    );

  describe('a discount code withdrawn while it is being claimed', () => {
    const makeCode = async (extra: object = {}): Promise<string> =>
      (await api(w.t.app).as(w.admin.token).post('/discount-codes', codeBody(brandId, extra)).expect(201))
        .body.id as string;
    const claimWhile = async (member: MadeUser, id: string, during: () => Promise<void>) => {
      const res = await whileBalanceHeld(
        member,
        () =>
          api(w.t.app)
            .as(member.token)
            .post(`/discount-codes/${id}/claim`)
            .then((r) => r),
        during,
      );
      const [uses] = await w.t.db.query(`SELECT current_uses FROM discount_codes WHERE id = $1`, [id]);
      return {
        status: res.status,
        spent: 100 - (await pointsOf(w.t, member.user.id)),
        uses: (uses as { current_uses: number }).current_uses,
      };
    };

    pgIt('is not claimed once deleted: 404, no points spent, no use counted', async () => {
      const id = await makeCode({ points_required: 40 });
      const member = await makeUser(w.t, w.site);
      await give(member, 100);
      const outcome = await claimWhile(member, id, async () => {
        await api(w.t.app).as(w.admin.token).delete(`/discount-codes/${id}`).expect(204);
      });
      expect(outcome).toEqual({ status: 404, spent: 0, uses: 0 });
    });

    pgIt('is not claimed once switched off: 404, no points spent, no use counted', async () => {
      const id = await makeCode({ points_required: 40 });
      const member = await makeUser(w.t, w.site);
      await give(member, 100);
      const outcome = await claimWhile(member, id, async () => {
        await api(w.t.app).as(w.admin.token).put(`/discount-codes/${id}`, { active: false }).expect(200);
      });
      expect(outcome).toEqual({ status: 404, spent: 0, uses: 0 });
    });
  });

  describe('a raffle’s points price changed while a member enters with points', () => {
    const enterWhile = async (member: MadeUser, raffleId: string, during: () => Promise<void>) => {
      const res = await whileBalanceHeld(
        member,
        () =>
          api(w.t.app)
            .as(member.token)
            .post(`/raffles/${raffleId}/entries`, { method: 'points', quantity: 1 })
            .then((r) => r),
        during,
      );
      const [counts] = await w.t.db.query(`SELECT current_entries FROM raffles WHERE id = $1`, [raffleId]);
      return {
        status: res.status,
        code: (res.body as { code?: string }).code,
        spent: 100 - (await pointsOf(w.t, member.user.id)),
        tickets: (counts as { current_entries: number }).current_entries,
      };
    };
    const reprice = (raffleId: string, points: number) => async () => {
      await api(w.t.app)
        .as(w.admin.token)
        .put(`/admin/raffles/${raffleId}`, { points_required: points })
        .expect(200);
    };

    pgIt(
      'lowered: refused 409 PRICE_CHANGED, the 100 points it read not spent, no ticket taken',
      async () => {
        const raffle = await raffleOn(w, { points_required: 100 });
        const member = await makeUser(w.t, w.site);
        await give(member, 100);
        expect(await enterWhile(member, raffle.id, reprice(raffle.id, 10))).toEqual({
          status: 409,
          code: 'PRICE_CHANGED',
          spent: 0,
          tickets: 0,
        });
      },
    );

    pgIt('raised: not bought at the old price', async () => {
      const raffle = await raffleOn(w, { points_required: 10 });
      const member = await makeUser(w.t, w.site);
      await give(member, 100);
      expect(await enterWhile(member, raffle.id, reprice(raffle.id, 100))).toEqual({
        status: 409,
        code: 'PRICE_CHANGED',
        spent: 0,
        tickets: 0,
      });
      // Asked again, it costs what the raffle now asks.
      await api(w.t.app)
        .as(member.token)
        .post(`/raffles/${raffle.id}/entries`, { method: 'points', quantity: 1 })
        .expect(201);
      expect(await pointsOf(w.t, member.user.id)).toBe(0);
    });
  });

  describe('an account erased while it enters', () => {
    const standing = (raffleId: string, userId: string) =>
      w.t.db.query(
        `SELECT id FROM raffle_entries WHERE raffle_id = $1 AND user_id = $2 AND voided_at IS NULL`,
        [raffleId, userId],
      );

    pgIt('an entry in points in flight when the erasure commits is refused: no standing entry', async () => {
      const raffle = await raffleOn(w, { points_required: 10 });
      const member = await makeUser(w.t, w.site);
      await give(member, 10);
      let deletion = 0;
      const res = await whileBalanceHeld(
        member,
        () =>
          api(w.t.app)
            .as(member.token)
            .post(`/raffles/${raffle.id}/entries`, { method: 'points', quantity: 1 })
            .then((r) => r),
        async () => {
          deletion = (await api(w.t.app).as(w.admin.token).delete(`/admin/users/${member.user.id}`)).status;
        },
      );
      expect({ deletion, entry: res.status, code: (res.body as { code?: string }).code }).toEqual({
        deletion: 204,
        entry: 409,
        code: 'ACCOUNT_DELETED',
      });
      expect(await standing(raffle.id, member.user.id)).toEqual([]);
    });

    pgIt(
      'an erasure that comes while an entry is taking its tickets waits for it, then voids it',
      async () => {
        const raffle = await raffleOn(w, { points_required: 10 });
        const member = await makeUser(w.t, w.site);
        await give(member, 10);
        // The raffle's row is held: the entry reaches its counter statement and waits there, holding its entrant's
        // row (`FOR KEY SHARE`: its earlier writes' foreign keys took it, and the counter statement reads it so).
        const holder = new Client({ connectionString: process.env.E2E_DATABASE_URL });
        await holder.connect();
        let entry: Promise<number>;
        let deletion: Promise<number>;
        try {
          await holder.query('BEGIN');
          await holder.query(`SELECT 1 FROM raffles WHERE id = $1 FOR UPDATE`, [raffle.id]);
          entry = api(w.t.app)
            .as(member.token)
            .post(`/raffles/${raffle.id}/entries`, { method: 'points', quantity: 1 })
            .then((r) => r.status);
          await untilSomeoneWaits(holder);
          deletion = api(w.t.app)
            .as(w.admin.token)
            .delete(`/admin/users/${member.user.id}`)
            .then((r) => r.status);
          await untilWaiting(holder, 2); // the erasure waits for the entrant's row
          await holder.query('COMMIT');
        } finally {
          await holder.end();
        }
        expect({ entry: await entry!, deletion: await deletion! }).toEqual({ entry: 201, deletion: 204 });
        const [row] = await w.t.db.query(`SELECT void_reason FROM raffle_entries WHERE raffle_id = $1`, [
          raffle.id,
        ]);
        expect(row).toEqual({ void_reason: 'account_deleted' });
      },
    );

    it('a raffle order paid after its buyer was erased enters nothing and is refunded whole', async () => {
      const raffle = await raffleOn(w);
      const member = await makeUser(w.t, w.site);
      const order = await orderAsUser(w, member.token, raffle.item_id, { quantity: 2 });
      w.fakes.gatewayOne.complete(order.checkout_id);
      await api(w.t.app).as(w.admin.token).delete(`/admin/users/${member.user.id}`).expect(204);

      const res = await confirm(w, order.order_id);
      expect({ status: res.status, code: (res.body as { error_code?: string }).error_code }).toEqual({
        status: 409,
        code: 'ACCOUNT_DELETED',
      });
      expect(await standing(raffle.id, member.user.id)).toEqual([]);
      await w.t.drain();
      const [p] = await w.t.db.query(
        `SELECT status, fulfilment, refunded_cents, amount_cents FROM payment_transactions WHERE id = $1`,
        [order.order_id],
      );
      expect(p).toMatchObject({ fulfilment: 'refunded_unfillable' });
      expect((p as { refunded_cents: number }).refunded_cents).toBe(
        (p as { amount_cents: number }).amount_cents,
      );
    });
  });
});
