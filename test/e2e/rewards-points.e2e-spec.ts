import { randomUUID } from 'node:crypto';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { PaymentPointsService } from '#app/modules/rewards/payment-points.service.js';
import { PointsService } from '#app/modules/rewards/points.service.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { DEFAULT_PASSWORD, makeSite, makeUser, type MadeUser } from '../support/factories';

const POINT_FIELDS = [
  'id',
  'site_id',
  'user_id',
  'payment_transaction_id',
  'reason',
  'transaction_type',
  'created_by',
  'created_at',
  'amount',
].sort();

describe('points ledger and balances', () => {
  let t: TestApp;
  let site: string;
  let otherSite: string;
  let points: PointsService;
  let paymentPoints: PaymentPointsService;
  let admin: MadeUser;

  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
    otherSite = await makeSite(t);
    points = t.app.get(PointsService);
    paymentPoints = t.app.get(PaymentPointsService);
    admin = await makeUser(t, site, { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
  });

  const balanceRow = async (userId: string): Promise<{ current_points: number; lifetime_earned: number }> => {
    const [row] = await t.db.query(
      `SELECT current_points, lifetime_earned FROM rewards_balances WHERE user_id = $1`,
      [userId],
    );
    return row as { current_points: number; lifetime_earned: number };
  };
  const ledgerOf = (userId: string): Promise<Array<Record<string, unknown>>> =>
    t.db.query(
      `SELECT transaction_type, amount, reason, payment_transaction_id, metadata FROM point_transactions
        WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
  const earn = (userId: string, amount: number, paymentTransactionId?: string) =>
    t.db.transaction((m) =>
      points.earn(m, { userId, siteId: site, amount, reason: 'Points for a purchase', paymentTransactionId }),
    );

  describe('earning', () => {
    it('credits a payment’s points exactly once, however often fulfilment runs', async () => {
      const u = await makeUser(t, site);
      const payment = randomUUID();
      const first = await earn(u.user.id, 40, payment);
      expect(first).toMatchObject({ applied: true, balance: 40 });
      const again = await earn(u.user.id, 40, payment);
      expect(again).toEqual({ applied: false, balance: 40, transaction: null });
      expect(await balanceRow(u.user.id)).toEqual({ current_points: 40, lifetime_earned: 40 });
      expect(await ledgerOf(u.user.id)).toHaveLength(1);
    });

    it('credits once when ten fulfilments of one payment race', async () => {
      const u = await makeUser(t, site);
      const payment = randomUUID();
      const results = await Promise.all(Array.from({ length: 10 }, () => earn(u.user.id, 25, payment)));
      expect(results.filter((r) => r.applied)).toHaveLength(1);
      expect(await balanceRow(u.user.id)).toEqual({ current_points: 25, lifetime_earned: 25 });
    });

    it('applies the site’s earn rate to the amount paid', async () => {
      const generous = await makeSite(t, { settings: { rewards: { points_per_unit: 2 } } });
      const earnFor = async (userId: string, siteId: string) => {
        const earned = await paymentPoints.pointsForPayment({ siteId, amountCents: 1299, currency: 'GBP' });
        const outcome = await t.app.get(TransactionRunner).run(() =>
          paymentPoints.earnForPayment({
            userId,
            siteId,
            paymentTransactionId: randomUUID(),
            points: earned,
            reason: 'Points for a payment',
          }),
        );
        return { ...outcome, points: earned };
      };
      const u = await makeUser(t, generous);
      expect(await earnFor(u.user.id, generous)).toMatchObject({ applied: true, points: 24, balance: 24 });
      const plain = await makeUser(t, site);
      expect(await earnFor(plain.user.id, site)).toMatchObject({ points: 12, balance: 12 });
    });
  });

  describe('spending', () => {
    it('spends within the balance and refuses beyond it (422 INSUFFICIENT_POINTS), changing nothing', async () => {
      const u = await makeUser(t, site);
      await earn(u.user.id, 50);
      const spent = await t.db.transaction((m) =>
        points.spend(m, { userId: u.user.id, siteId: site, amount: 30, reason: 'Raffle entry' }),
      );
      expect(spent).toMatchObject({ applied: true, balance: 20, transaction: { amount: -30 } });
      const refused = await t.db
        .transaction((m) => points.spend(m, { userId: u.user.id, siteId: site, amount: 21, reason: 'x' }))
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppException);
      expect(refused).toMatchObject({ status: 422, code: 'INSUFFICIENT_POINTS' });
      expect(await balanceRow(u.user.id)).toEqual({ current_points: 20, lifetime_earned: 50 });
      expect(await ledgerOf(u.user.id)).toHaveLength(2);
    });

    it('lets exactly three of ten parallel 30-point spends through a 100-point balance', async () => {
      const u = await makeUser(t, site);
      await earn(u.user.id, 100);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () =>
          t.db.transaction((m) =>
            points.spend(m, { userId: u.user.id, siteId: site, amount: 30, reason: 'Raffle entry' }),
          ),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'INSUFFICIENT_POINTS' });
      expect((await balanceRow(u.user.id)).current_points).toBe(10);
      const spends = (await ledgerOf(u.user.id)).filter((e) => e.transaction_type === 'spend');
      expect(spends).toHaveLength(3);
    });

    it('refuses a spend by a user who never had points', async () => {
      const u = await makeUser(t, site);
      await expect(
        t.db.transaction((m) => points.spend(m, { userId: u.user.id, siteId: site, amount: 1, reason: 'x' })),
      ).rejects.toMatchObject({ code: 'INSUFFICIENT_POINTS' });
      expect(await points.balanceOf(u.user.id)).toBe(0);
    });
  });

  describe('refunds', () => {
    it('takes back all points of a fully refunded payment, once', async () => {
      const u = await makeUser(t, site);
      const payment = randomUUID();
      await earn(u.user.id, 15, payment);
      const reverse = () =>
        t.db.transaction((m) =>
          paymentPoints.reverseForPayment(m, { paymentTransactionId: payment, reason: 'Refund' }),
        );
      expect(await reverse()).toMatchObject({
        applied: true,
        due: 15,
        reversed: 15,
        shortfall: 0,
        balance: 0,
      });
      expect(await reverse()).toMatchObject({ applied: false, due: 0 });
      expect(await balanceRow(u.user.id)).toEqual({ current_points: 0, lifetime_earned: 0 });
    });

    it('takes back a pro-rata share, rounded down, for partial refunds that add up to the whole', async () => {
      const u = await makeUser(t, site);
      const payment = randomUUID();
      await earn(u.user.id, 15, payment);
      await earn(u.user.id, 100);
      const reverse = (fraction: number | { refundedCents: number; totalCents: number }) =>
        t.db.transaction((m) =>
          paymentPoints.reverseForPayment(m, {
            paymentTransactionId: payment,
            fraction,
            reason: 'Partial refund',
          }),
        );
      expect(await reverse({ refundedCents: 450, totalCents: 1500 })).toMatchObject({
        reversed: 4,
        balance: 111,
      });
      expect(await reverse(0.3)).toMatchObject({ applied: false });
      expect(await reverse(1)).toMatchObject({ reversed: 11, balance: 100 });
    });

    it('never takes the balance below zero: what was already spent is recorded as the shortfall', async () => {
      const u = await makeUser(t, site);
      const payment = randomUUID();
      await earn(u.user.id, 15, payment);
      await t.db.transaction((m) =>
        points.spend(m, { userId: u.user.id, siteId: site, amount: 9, reason: 'Raffle entry' }),
      );
      const out = await t.db.transaction((m) =>
        paymentPoints.reverseForPayment(m, { paymentTransactionId: payment, reason: 'Refund' }),
      );
      expect(out).toMatchObject({ applied: true, due: 15, reversed: 6, shortfall: 9, balance: 0 });
      const reversal = (await ledgerOf(u.user.id)).find((e) => e.transaction_type === 'reversal');
      expect(reversal).toMatchObject({
        amount: -6,
        payment_transaction_id: payment,
        reason: 'Refund (15 points due, 9 already spent; 6 taken back)',
        metadata: { due: 15, taken: 6, shortfall: 9 },
      });
    });

    it('shows each payment its own entries, in the nested form', async () => {
      const u = await makeUser(t, site);
      const [paid, other] = [randomUUID(), randomUUID()];
      await earn(u.user.id, 15, paid);
      await earn(u.user.id, 5, other);
      await t.db.transaction((m) =>
        paymentPoints.reverseForPayment(m, { paymentTransactionId: paid, fraction: 1, reason: 'Refund' }),
      );
      const records = await paymentPoints.recordsOfPayments([paid, other, randomUUID()]);
      expect(records.get(paid)?.map((e) => [e.transaction_type, e.amount])).toEqual([
        ['earn', 15],
        ['reversal', -15],
      ]);
      expect(records.get(other)).toHaveLength(1);
      expect(records.get(paid)?.[0]).toHaveProperty('ip_address');
      expect(records.size).toBe(2);
    });

    it('gives back spent points and credits bonuses, which count as earned only when they are bonuses', async () => {
      const u = await makeUser(t, site);
      await earn(u.user.id, 20);
      await t.db.transaction((m) =>
        points.spend(m, { userId: u.user.id, siteId: site, amount: 20, reason: 'Raffle entry' }),
      );
      const back = await t.db.transaction((m) =>
        points.credit(m, {
          userId: u.user.id,
          siteId: site,
          amount: 20,
          type: 'refund',
          reason: 'Raffle cancelled',
        }),
      );
      expect(back).toMatchObject({ applied: true, balance: 20, transaction: { transaction_type: 'refund' } });
      await t.db.transaction((m) =>
        points.credit(m, {
          userId: u.user.id,
          siteId: site,
          amount: 25,
          type: 'bonus',
          reason: 'Five claims',
        }),
      );
      expect(await balanceRow(u.user.id)).toEqual({ current_points: 45, lifetime_earned: 45 });
    });

    it('does nothing for a payment that earned no points', async () => {
      const out = await t.db.transaction((m) =>
        paymentPoints.reverseForPayment(m, { paymentTransactionId: randomUUID(), reason: 'Refund' }),
      );
      expect(out).toMatchObject({ applied: false, transaction: null });
    });
  });

  describe('the ledger is the record', () => {
    it('cannot be edited or deleted, and the balance cannot go negative even by hand', async () => {
      const u = await makeUser(t, site);
      await earn(u.user.id, 5);
      await expect(
        t.db.query(`UPDATE point_transactions SET amount = 500 WHERE user_id = $1`, [u.user.id]),
      ).rejects.toThrow(/append-only/);
      await expect(
        t.db.query(`DELETE FROM point_transactions WHERE user_id = $1`, [u.user.id]),
      ).rejects.toThrow(/append-only/);
      await expect(
        t.db.query(`UPDATE rewards_balances SET current_points = -1 WHERE user_id = $1`, [u.user.id]),
      ).rejects.toThrow(/ck_rewards_balances_current_points/);
    });

    it('goes with its user when the user row is deleted', async () => {
      const u = await makeUser(t, site);
      await earn(u.user.id, 5);
      await t.db.query(`DELETE FROM user_profiles WHERE user_id = $1`, [u.user.id]);
      await t.db.query(`DELETE FROM users WHERE id = $1`, [u.user.id]);
      expect(await ledgerOf(u.user.id)).toEqual([]);
    });
  });

  describe('GET /rewards/points', () => {
    it('lists the caller’s own entries newest first in the spec’s shape, paged by cursor', async () => {
      const u = await makeUser(t, site);
      const other = await makeUser(t, site);
      await earn(other.user.id, 99);
      for (const amount of [10, 20, 30]) await earn(u.user.id, amount);
      await t.db.transaction((m) =>
        points.spend(m, { userId: u.user.id, siteId: site, amount: 5, reason: 'Raffle entry' }),
      );
      const all = await api(t.app).as(u.token).get('/rewards/points').expect(200);
      expect(all.body.map((e: { amount: number }) => e.amount)).toEqual([-5, 30, 20, 10]);
      expect(Object.keys(all.body[0]).sort()).toEqual(POINT_FIELDS);
      expect(all.body[0]).toMatchObject({
        user_id: u.user.id,
        site_id: site,
        transaction_type: 'spend',
        payment_transaction_id: null,
        created_by: null,
      });
      expect(all.headers['x-next-cursor']).toBeUndefined();

      const first = await api(t.app).as(u.token).get('/rewards/points?limit=3').expect(200);
      expect(first.body).toHaveLength(3);
      const cursor = first.headers['x-next-cursor'];
      expect(cursor).toBe(first.body[2].id);
      expect(first.headers.link).toContain(`cursor=${cursor}`);
      const second = await api(t.app).as(u.token).get(`/rewards/points?limit=3&cursor=${cursor}`).expect(200);
      expect(second.body.map((e: { amount: number }) => e.amount)).toEqual([10]);
    });

    it('answers an empty list to a user without points', async () => {
      const u = await makeUser(t, site);
      const res = await api(t.app).as(u.token).get('/rewards/points').expect(200);
      expect(res.body).toEqual([]);
    });

    it('refuses bad paging (400), another site (403) and anonymous callers (401)', async () => {
      const u = await makeUser(t, site);
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=not-a-cursor', 'colour=blue'])
        await api(t.app).as(u.token).get(`/rewards/points?${query}`).expect(400);
      await api(t.app).as(u.token).get('/rewards/points?limit=100').expect(200);
      await api(t.app).as(u.token).get(`/rewards/points?site_id=${otherSite}`).expect(403);
      await api(t.app).as(u.token).get(`/rewards/points?site_id=${site}`).expect(200);
      await api(t.app).get('/rewards/points').expect(401);
    });
  });

  describe('GET /users/me', () => {
    it('nests the user’s point transactions in their nested form, with ip and user agent', async () => {
      const u = await makeUser(t, site);
      await t.db.transaction((m) =>
        points.earn(m, {
          userId: u.user.id,
          siteId: site,
          amount: 7,
          reason: 'Points for a purchase',
          meta: { ip: '203.0.113.9', userAgent: 'test-agent' },
        }),
      );
      const me = await api(t.app).as(u.token).get('/users/me').expect(200);
      expect(me.body.points).toHaveLength(1);
      expect(Object.keys(me.body.points[0]).sort()).toEqual(
        [...POINT_FIELDS, 'ip_address', 'user_agent'].sort(),
      );
      expect(me.body.points[0]).toMatchObject({
        amount: 7,
        ip_address: '203.0.113.9',
        user_agent: 'test-agent',
      });
    });
  });

  describe('POST /admin/rewards/adjust', () => {
    it('adds points to a user of the admin’s site: 201 with the entry and the new balance, logged', async () => {
      const u = await makeUser(t, site);
      const res = await api(t.app)
        .as(admin.token)
        .post('/admin/rewards/adjust', { user_id: u.user.id, amount: 50, reason: 'Goodwill' })
        .expect(201);
      expect(Object.keys(res.body).sort()).toEqual([...POINT_FIELDS, 'balance'].sort());
      expect(res.body).toMatchObject({
        user_id: u.user.id,
        site_id: site,
        amount: 50,
        reason: 'Goodwill',
        transaction_type: 'adjustment',
        created_by: admin.user.id,
        balance: 50,
      });
      const [log] = await t.db.query(
        `SELECT activity_type, resource_id, metadata FROM activity_logs WHERE user_id = $1 AND activity_type = 'points_adjustment'`,
        [u.user.id],
      );
      expect(log).toMatchObject({ resource_id: res.body.id, metadata: { amount: 50, by: admin.user.id } });
      const [entry] = await t.db.query(
        `SELECT ip_address, user_agent FROM point_transactions WHERE id = $1`,
        [res.body.id],
      );
      expect(entry.ip_address).not.toBeNull();
    });

    it('keeps the admin’s ip address and user agent out of the member’s own record, and in the audit', async () => {
      const member = await makeUser(t, site);
      const staffIp = '198.51.100.23';
      const staffAgent = 'AdminConsole/9.1 (staff laptop 42)';
      await api(t.app)
        .as(admin.token)
        .from(staffIp)
        .post('/admin/rewards/adjust', { user_id: member.user.id, amount: 75, reason: 'Goodwill' })
        .set('User-Agent', staffAgent)
        .expect(201);
      const me = await api(t.app).as(member.token).get('/users/me').expect(200);
      const entry = (me.body.points as Array<Record<string, unknown>>).find(
        (p) => p.transaction_type === 'adjustment',
      );
      expect(entry).toMatchObject({ amount: 75, ip_address: null, user_agent: null });
      const log = (me.body.activity_logs as Array<Record<string, unknown>>).find(
        (l) => l.activity_type === 'points_adjustment',
      );
      expect(log).toMatchObject({ ip_address: null, user_agent: null, session_id: null });
      expect(JSON.stringify(me.body)).not.toContain(staffIp);
      expect(JSON.stringify(me.body)).not.toContain('staff laptop');
      // The audit keeps who did it, and from where.
      const [audit] = await t.db.query(
        `SELECT ip_address, user_agent, actor_id FROM activity_logs WHERE user_id = $1 AND activity_type = 'points_adjustment'`,
        [member.user.id],
      );
      expect(audit).toEqual({ ip_address: staffIp, user_agent: staffAgent, actor_id: admin.user.id });
    });

    it('still shows members the ip address of their own requests', async () => {
      const member = await makeUser(t, site);
      await api(t.app)
        .from('203.0.113.9')
        .post('/auth/login', { email: member.email, password: DEFAULT_PASSWORD, site_id: site })
        .expect(200);
      const me = await api(t.app).as(member.token).get('/users/me').expect(200);
      const login = (me.body.activity_logs as Array<Record<string, unknown>>).find((l) =>
        String(l.activity_type).includes('login'),
      );
      expect(login).toMatchObject({ ip_address: '203.0.113.9' });
    });

    it('removes points but never below zero (422 INSUFFICIENT_POINTS), changing nothing', async () => {
      const u = await makeUser(t, site);
      await earn(u.user.id, 30);
      const ok = await api(t.app)
        .as(admin.token)
        .post('/admin/rewards/adjust', { user_id: u.user.id, amount: -20, reason: 'Correction' })
        .expect(201);
      expect(ok.body).toMatchObject({ amount: -20, balance: 10 });
      const refused = await api(t.app)
        .as(admin.token)
        .post('/admin/rewards/adjust', { user_id: u.user.id, amount: -11, reason: 'Correction' })
        .expect(422);
      expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_POINTS' });
      expect(refused.body.detail).toContain('10');
      expect(await balanceRow(u.user.id)).toEqual({ current_points: 10, lifetime_earned: 30 });
    });

    it('answers 404 for a user of another site, an unknown or a malformed id', async () => {
      const stranger = await makeUser(t, otherSite);
      for (const userId of [stranger.user.id, randomUUID(), 'not-an-id'])
        await api(t.app)
          .as(admin.token)
          .post('/admin/rewards/adjust', { user_id: userId, amount: 5, reason: 'x' })
          .expect(404);
      expect(await points.balanceOf(stranger.user.id)).toBe(0);
    });

    it('is for admins of the site: a user 403, another site’s admin 403, a superadmin may name the site', async () => {
      const u = await makeUser(t, site);
      const body = { user_id: u.user.id, amount: 5, reason: 'x' };
      await api(t.app).as(u.token).post('/admin/rewards/adjust', body).expect(403);
      const foreignAdmin = await makeUser(t, otherSite, { role: 'admin' });
      await api(t.app)
        .as(foreignAdmin.token)
        .post('/admin/rewards/adjust', { ...body, site_id: site })
        .expect(403);
      await api(t.app).as(foreignAdmin.token).post('/admin/rewards/adjust', body).expect(404);
      const superadmin = await makeUser(t, otherSite, { role: 'superadmin' });
      await api(t.app)
        .as(superadmin.token)
        .post('/admin/rewards/adjust', { ...body, site_id: site })
        .expect(201);
      await api(t.app).post('/admin/rewards/adjust', body).expect(401);
    });

    it('refuses bad input with 400 and field errors', async () => {
      const u = await makeUser(t, site);
      const good = { user_id: u.user.id, amount: 5, reason: 'Goodwill' };
      const bad: object[] = [
        { ...good, amount: 0 },
        { ...good, amount: 1.5 },
        { ...good, amount: '5' },
        { ...good, amount: 1_000_001 },
        { ...good, amount: -1_000_001 },
        { ...good, reason: '' },
        { ...good, reason: 'x'.repeat(501) },
        { user_id: u.user.id, amount: 5 },
        { amount: 5, reason: 'x' },
        { ...good, colour: 'blue' },
      ];
      for (const body of bad) {
        const res = await api(t.app).as(admin.token).post('/admin/rewards/adjust', body).expect(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      await api(t.app)
        .as(admin.token)
        .post('/admin/rewards/adjust', { ...good, amount: 1_000_000, reason: 'x'.repeat(500) })
        .expect(201);
      expect(await points.balanceOf(u.user.id)).toBe(1_000_000);
    });
  });
});
