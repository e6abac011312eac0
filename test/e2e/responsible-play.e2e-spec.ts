import { ResponsiblePlayService } from '#app/modules/responsible-play/responsible-play.service.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser, type MadeUser } from '../support/factories';

const LIMIT_FIELDS = [
  'monthly_spend_limit_cents',
  'pending',
  'paused_until',
  'is_paused',
  'month',
  'spent_this_month_cents',
  'remaining_this_month_cents',
  'updated_at',
].sort();

const DAY = 24 * 3_600_000;

describe('responsible play: spend limits and self-pause', () => {
  let t: TestApp;
  let site: string;
  let play: ResponsiblePlayService;

  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
    play = t.app.get(ResponsiblePlayService);
  });
  afterAll(async () => {
    await t.close();
  });

  const putLimits = (u: MadeUser, body: object) => api(t.app).as(u.token).put('/users/me/limits', body);
  const reserve = (userId: string, amountCents: number, now = new Date()) =>
    t.db.transaction((m) => play.reserveSpend(m, { userId, amountCents, now }));
  const spent = async (userId: string): Promise<number> => {
    const rows: Array<{ spent_cents: number }> = await t.db.query(
      `SELECT spent_cents FROM user_monthly_spend WHERE user_id = $1`,
      [userId],
    );
    return rows.reduce((sum, r) => sum + r.spent_cents, 0);
  };
  /** Time passes for a pending change: what the clock would do in 24 hours. */
  const letPendingFallDue = (userId: string) =>
    t.db.query(
      `UPDATE user_limits SET pending_effective_at = now() - interval '1 second' WHERE user_id = $1`,
      [userId],
    );

  describe('GET and PUT /users/me/limits', () => {
    it('shows no limits to a new user, in the full shape', async () => {
      const u = await makeUser(t, site);
      const res = await api(t.app).as(u.token).get('/users/me/limits').expect(200);
      expect(Object.keys(res.body).sort()).toEqual(LIMIT_FIELDS);
      expect(res.body).toEqual({
        monthly_spend_limit_cents: null,
        pending: null,
        paused_until: null,
        is_paused: false,
        month: new Date().toISOString().slice(0, 7),
        spent_this_month_cents: 0,
        remaining_this_month_cents: null,
        updated_at: null,
      });
    });

    it('applies a first limit and a lower one at once, zero included', async () => {
      const u = await makeUser(t, site);
      const first = await putLimits(u, { monthly_spend_limit_cents: 5000 }).expect(200);
      expect(first.body).toMatchObject({ monthly_spend_limit_cents: 5000, pending: null });
      const lower = await putLimits(u, { monthly_spend_limit_cents: 0 }).expect(200);
      expect(lower.body).toMatchObject({ monthly_spend_limit_cents: 0, remaining_this_month_cents: 0 });
      const [log] = await t.db.query(
        `SELECT count(*)::int AS n FROM activity_logs WHERE user_id = $1 AND activity_type = 'limits_change'`,
        [u.user.id],
      );
      expect(log.n).toBe(2);
    });

    it('makes a raise wait 24 hours, showing both the limit in force and the pending one', async () => {
      const u = await makeUser(t, site);
      await putLimits(u, { monthly_spend_limit_cents: 3000 }).expect(200);
      const before = Date.now();
      const res = await putLimits(u, { monthly_spend_limit_cents: 9000 }).expect(200);
      expect(res.body.monthly_spend_limit_cents).toBe(3000);
      expect(res.body.pending.monthly_spend_limit_cents).toBe(9000);
      const due = new Date(res.body.pending.effective_at).getTime();
      expect(due).toBeGreaterThanOrEqual(before + DAY - 1000);
      expect(due).toBeLessThanOrEqual(Date.now() + DAY);
      await expect(reserve(u.user.id, 4000)).rejects.toMatchObject({ code: 'SPEND_LIMIT_REACHED' });

      await letPendingFallDue(u.user.id);
      const later = await api(t.app).as(u.token).get('/users/me/limits').expect(200);
      expect(later.body).toMatchObject({ monthly_spend_limit_cents: 9000, pending: null });
      await expect(reserve(u.user.id, 4000)).resolves.toMatchObject({ spentCents: 4000, limitCents: 9000 });
    });

    it('makes removing a limit wait 24 hours too, and a lowering cancels a pending raise', async () => {
      const u = await makeUser(t, site);
      await putLimits(u, { monthly_spend_limit_cents: 3000 }).expect(200);
      const removal = await putLimits(u, { monthly_spend_limit_cents: null }).expect(200);
      expect(removal.body).toMatchObject({
        monthly_spend_limit_cents: 3000,
        pending: { monthly_spend_limit_cents: null },
      });
      const lowered = await putLimits(u, { monthly_spend_limit_cents: 2000 }).expect(200);
      expect(lowered.body).toMatchObject({ monthly_spend_limit_cents: 2000, pending: null });
      await putLimits(u, { monthly_spend_limit_cents: null }).expect(200);
      await letPendingFallDue(u.user.id);
      const gone = await api(t.app).as(u.token).get('/users/me/limits').expect(200);
      expect(gone.body).toMatchObject({ monthly_spend_limit_cents: null, pending: null });
    });

    it('starts and extends a self-pause at once, but will not shorten or lift it (422 SELF_PAUSE_ACTIVE)', async () => {
      const u = await makeUser(t, site);
      const until = new Date(Date.now() + 7 * DAY).toISOString();
      const paused = await putLimits(u, { paused_until: until }).expect(200);
      expect(paused.body).toMatchObject({ paused_until: until, is_paused: true });
      const shorter = await putLimits(u, { paused_until: new Date(Date.now() + DAY).toISOString() }).expect(
        422,
      );
      expect(shorter.body.code).toBe('SELF_PAUSE_ACTIVE');
      await putLimits(u, { paused_until: null }).expect(422);
      await putLimits(u, { paused_until: until, monthly_spend_limit_cents: 100 }).expect(200);
      const longer = new Date(Date.now() + 30 * DAY).toISOString();
      const extended = await putLimits(u, { paused_until: longer }).expect(200);
      expect(extended.body).toMatchObject({ paused_until: longer, monthly_spend_limit_cents: 100 });
    });

    it('lets a user clear a pause that is over', async () => {
      const u = await makeUser(t, site);
      await putLimits(u, { paused_until: new Date(Date.now() + DAY).toISOString() }).expect(200);
      await t.db.query(
        `UPDATE user_limits SET paused_until = now() - interval '1 minute' WHERE user_id = $1`,
        [u.user.id],
      );
      const over = await api(t.app).as(u.token).get('/users/me/limits').expect(200);
      expect(over.body.is_paused).toBe(false);
      const cleared = await putLimits(u, { paused_until: null }).expect(200);
      expect(cleared.body.paused_until).toBeNull();
    });

    it('refuses bad input with 400 and changes nothing', async () => {
      const u = await makeUser(t, site);
      const bad: object[] = [
        { monthly_spend_limit_cents: -1 },
        { monthly_spend_limit_cents: 12.5 },
        { monthly_spend_limit_cents: '5000' },
        { monthly_spend_limit_cents: 1_000_000_001 },
        { paused_until: 'next tuesday' },
        { paused_until: 12345 },
        { paused_until: new Date(Date.now() - DAY).toISOString() },
        { paused_until: new Date(Date.now() + 6 * 365 * DAY).toISOString() },
        { colour: 'blue' },
      ];
      for (const body of bad) {
        const res = await putLimits(u, body).expect(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      await putLimits(u, { monthly_spend_limit_cents: 1_000_000_000 }).expect(200);
      const rows = await t.db.query(`SELECT paused_until FROM user_limits WHERE user_id = $1`, [u.user.id]);
      expect(rows[0].paused_until).toBeNull();
    });

    it('is for signed-in users only', async () => {
      await api(t.app).get('/users/me/limits').expect(401);
      await api(t.app).put('/users/me/limits', { monthly_spend_limit_cents: 5 }).expect(401);
    });
  });

  describe('what a paid order meets (reserveSpend, releaseSpend)', () => {
    it('lets exactly three of ten parallel 300 orders through a 1000 limit', async () => {
      const u = await makeUser(t, site);
      await putLimits(u, { monthly_spend_limit_cents: 1000 }).expect(200);
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => reserve(u.user.id, 300)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      for (const r of results)
        if (r.status === 'rejected')
          expect(r.reason).toMatchObject({ status: 422, code: 'SPEND_LIMIT_REACHED' });
      expect(await spent(u.user.id)).toBe(900);
      const view = await api(t.app).as(u.token).get('/users/me/limits').expect(200);
      expect(view.body).toMatchObject({ spent_this_month_cents: 900, remaining_this_month_cents: 100 });
    });

    it('refuses every paid order during a self-pause (422 SELF_PAUSED), counting nothing', async () => {
      const u = await makeUser(t, site);
      await putLimits(u, { paused_until: new Date(Date.now() + DAY).toISOString() }).expect(200);
      await expect(reserve(u.user.id, 100)).rejects.toMatchObject({ status: 422, code: 'SELF_PAUSED' });
      expect(await spent(u.user.id)).toBe(0);
      await expect(reserve(u.user.id, 100, new Date(Date.now() + 2 * DAY))).resolves.toMatchObject({
        spentCents: 100,
      });
    });

    it('counts spending without a limit, so a limit set mid-month counts it, and refuses anything at zero', async () => {
      const u = await makeUser(t, site);
      await reserve(u.user.id, 700);
      await putLimits(u, { monthly_spend_limit_cents: 1000 }).expect(200);
      await expect(reserve(u.user.id, 301)).rejects.toMatchObject({ code: 'SPEND_LIMIT_REACHED' });
      await expect(reserve(u.user.id, 300)).resolves.toMatchObject({ spentCents: 1000, limitCents: 1000 });
      await putLimits(u, { monthly_spend_limit_cents: 0 }).expect(200);
      await expect(reserve(u.user.id, 1)).rejects.toMatchObject({ code: 'SPEND_LIMIT_REACHED' });
    });

    it('counts by calendar month (UTC), and gives back failed or refunded orders, never below zero', async () => {
      const u = await makeUser(t, site);
      await putLimits(u, { monthly_spend_limit_cents: 1000 }).expect(200);
      const march = await reserve(u.user.id, 800, new Date('2030-03-31T23:59:00Z'));
      expect(march.month).toBe('2030-03');
      const april = await reserve(u.user.id, 800, new Date('2030-04-01T00:01:00Z'));
      expect(april).toMatchObject({ month: '2030-04', spentCents: 800 });
      const left = await t.db.transaction((m) =>
        play.releaseSpend(m, { userId: u.user.id, amountCents: 500, month: '2030-03' }),
      );
      expect(left).toBe(300);
      const floor = await t.db.transaction((m) =>
        play.releaseSpend(m, { userId: u.user.id, amountCents: 5000, month: '2030-03' }),
      );
      expect(floor).toBe(0);
      await expect(reserve(u.user.id, 1000, new Date('2030-03-31T23:59:30Z'))).resolves.toMatchObject({
        spentCents: 1000,
      });
    });
  });
});
