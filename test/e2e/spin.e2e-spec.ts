import { randomUUID } from 'node:crypto';
import { integrityReport, runIntegrityChecks } from '#app/infra/database/integrity/check-integrity.js';
import { signSpinToken, type SpinTokenPayload, spinTokenKey } from '#app/modules/gaming/spin.rules.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser, type MadeUser, uid } from '../support/factories';
import { makePublished } from '../support/raffles';

interface SpinResult {
  credits_won: number;
  segment_id: number;
  expires_at: string;
  token: string;
}

const HOUR = 3600;

describe('the spin wheel: spins, claims and the bonus credits they win (issue 12)', () => {
  let t: TestApp;
  /** A site whose wheel has one segment: every spin wins 5 credits on segment 7. */
  let site: string;
  let otherSite: string;
  let admin: MadeUser;

  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t, { settings: { spin: { segments: [{ id: 7, credits: 5, weight: 1 }] } } });
    otherSite = await makeSite(t);
    admin = await makeUser(t, site, { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
  });

  const spin = async (siteId: string): Promise<SpinResult> =>
    (await api(t.app).post('/gaming/spin', { site_id: siteId }).expect(200)).body as SpinResult;
  const claim = (u: MadeUser | string, token: string) =>
    api(t.app)
      .as(typeof u === 'string' ? u : u.token)
      .post('/gaming/spin/claim', { token });
  const bonusOf = async (userId: string): Promise<number | undefined> => {
    const rows = await t.db.query<Array<{ credits: number }>>(
      `SELECT credits FROM bonus_credits WHERE user_id = $1`,
      [userId],
    );
    return rows[0]?.credits;
  };
  /** A token signed as the service signs them (the test app's secrets key), with what a test needs. */
  const forge = (over: Partial<SpinTokenPayload> = {}): string =>
    signSpinToken(
      {
        v: 1,
        site,
        seg: 7,
        credits: 5,
        jti: randomUUID(),
        exp: Math.floor(Date.now() / 1000) + HOUR,
        ...over,
      },
      spinTokenKey(t.config.secretsKey),
    );
  const register = (siteId: string, spinToken: string, email = `spin-${uid()}@example.com`) =>
    api(t.app).post('/auth/register', {
      email,
      password: 'spin-Register-pass-41',
      site_id: siteId,
      data_processing_consent: true,
      age_confirmed: true,
      spin_token: spinToken,
    });

  describe('spinning', () => {
    it('answers 200 with a result of the site’s wheel and a token valid for 24 hours', async () => {
      const before = Date.now();
      const r = await spin(site);
      expect(r).toMatchObject({ credits_won: 5, segment_id: 7 });
      const expires = Date.parse(r.expires_at);
      expect(expires).toBeGreaterThanOrEqual(before + 24 * HOUR * 1000 - 2000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 24 * HOUR * 1000);
      const payload = JSON.parse(Buffer.from(r.token.split('.')[0], 'base64url').toString()) as Record<
        string,
        unknown
      >;
      expect(payload).toMatchObject({ v: 1, site, seg: 7, credits: 5, exp: expires / 1000 });
    });

    it('lands only on the wheel’s segments, each with its own credits, and never twice with one token', async () => {
      const wheel = [
        { id: 1, credits: 0, weight: 1 },
        { id: 2, credits: 3, weight: 2 },
        { id: 3, credits: 9, weight: 2.5 },
      ];
      const s = await makeSite(t, { settings: { spin: { segments: wheel } } });
      const results = await Promise.all(Array.from({ length: 12 }, () => spin(s)));
      for (const r of results) expect(wheel.find((w) => w.id === r.segment_id)?.credits).toBe(r.credits_won);
      expect(new Set(results.map((r) => r.token)).size).toBe(12);
    });

    it('uses the default wheel where the site sets none or sets an invalid one', async () => {
      const bad = await makeSite(t, { settings: { spin: { segments: [{ id: 1, credits: 5, weight: 0 }] } } });
      const defaults = new Map([
        [1, 0],
        [2, 1],
        [3, 2],
        [4, 5],
        [5, 10],
      ]);
      for (const s of [otherSite, bad]) {
        const r = await spin(s);
        expect(defaults.get(r.segment_id)).toBe(r.credits_won);
      }
    });

    it('uses the default wheel where a segment id would not fit a claim, or the weights add up past any number', async () => {
      const wide = await makeSite(t, {
        settings: { spin: { segments: [{ id: 2 ** 40, credits: 5, weight: 1 }] } },
      });
      const heavy = await makeSite(t, {
        settings: {
          spin: {
            segments: [
              { id: 11, credits: 0, weight: 1e308 },
              { id: 12, credits: 10, weight: 1e308 },
            ],
          },
        },
      });
      const defaults = [1, 2, 3, 4, 5];
      const fromWide = await spin(wide);
      expect(defaults).toContain(fromWide.segment_id);
      // Before, the spin answered segment 1099511627776 and its claim (and a sign-up carrying it) a 500.
      const u = await makeUser(t, wide);
      const claimed = await claim(u, fromWide.token).expect(201);
      expect(claimed.body.credits_won).toBe(fromWide.credits_won);
      // Before, every spin landed on the last segment (the total was Infinity): the default wheel's ids now.
      for (let i = 0; i < 5; i++) expect(defaults).toContain((await spin(heavy)).segment_id);
    });

    it('answers 404 UNKNOWN_SITE for an unknown site and 400 without one', async () => {
      const res = await api(t.app).post('/gaming/spin', { site_id: 'no-such-site' }).expect(404);
      expect(res.body.code).toBe('UNKNOWN_SITE');
      await api(t.app).post('/gaming/spin', {}).expect(400);
      await api(t.app).post('/gaming/spin', { site_id: site, extra: 1 }).expect(400);
    });

    it('limits spins to 10 an hour per address: then 429 with Retry-After', async () => {
      const ip = '198.51.100.77';
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await api(t.app).from(ip).post('/gaming/spin', { site_id: site });
        statuses.push(res.status);
        if (res.status === 429) {
          expect(res.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
      await api(t.app).from('198.51.100.78').post('/gaming/spin', { site_id: site }).expect(200);
    });
  });

  describe('claiming', () => {
    it('grants the credits as bonus entry credits, which raffle entries with credits spend: 20 in parallel, 5 succeed', async () => {
      const u = await makeUser(t, site);
      const r = await spin(site);
      const res = await claim(u, r.token).expect(201);
      expect(res.body).toEqual({ credits_won: 5, bonus_credits: 5 });
      expect(await bonusOf(u.user.id)).toBe(5);

      const raffle = await makePublished(t, admin.token, { total_entries_available: 1000 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          api(t.app).as(u.token).post(`/raffles/${raffle.id}/entries`, { method: 'credits', quantity: 1 }),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
      expect(answers.filter((a) => a.status === 422).map((a) => a.body.code as string)).toEqual(
        Array<string>(15).fill('CREDITS_UNAVAILABLE'),
      );
      expect(await bonusOf(u.user.id)).toBe(0);
      const [counter] = await t.db.query<Array<Record<string, unknown>>>(
        `SELECT current_entries, entries_purchased FROM raffles WHERE id = $1`,
        [raffle.id],
      );
      expect(counter).toEqual({ current_entries: 5, entries_purchased: 0 });
    });

    it('refuses a tampered token or garbage (422 SPIN_TOKEN_INVALID) and grants nothing', async () => {
      const u = await makeUser(t, site);
      const [body, sig] = (await spin(site)).token.split('.');
      const richer = Buffer.from(
        JSON.stringify({
          ...(JSON.parse(Buffer.from(body, 'base64url').toString()) as object),
          credits: 1000,
        }),
      ).toString('base64url');
      const otherKey = signSpinToken(
        { v: 1, site, seg: 7, credits: 5, jti: randomUUID(), exp: Math.floor(Date.now() / 1000) + HOUR },
        spinTokenKey(Buffer.alloc(32, 9)),
      );
      for (const bad of [`${richer}.${sig}`, `${body}.${sig.slice(0, -3)}abc`, 'not-a-token', otherKey]) {
        const res = await claim(u, bad).expect(422);
        expect(res.body.code).toBe('SPIN_TOKEN_INVALID');
      }
      expect(await bonusOf(u.user.id)).toBeUndefined();
    });

    it('refuses an expired token (422 SPIN_TOKEN_EXPIRED)', async () => {
      const u = await makeUser(t, site);
      const res = await claim(u, forge({ exp: Math.floor(Date.now() / 1000) - 1 })).expect(422);
      expect(res.body.code).toBe('SPIN_TOKEN_EXPIRED');
    });

    it('refuses another site’s token (403 SPIN_TOKEN_OTHER_SITE)', async () => {
      const u = await makeUser(t, site);
      const res = await claim(u, (await spin(otherSite)).token).expect(403);
      expect(res.body.code).toBe('SPIN_TOKEN_OTHER_SITE');
      expect(await bonusOf(u.user.id)).toBeUndefined();
    });

    it('refuses a replayed token (409 SPIN_ALREADY_CLAIMED), by its claimer or anyone else', async () => {
      const [first, second] = [await makeUser(t, site), await makeUser(t, site)];
      const { token } = await spin(site);
      await claim(first, token).expect(201);
      for (const u of [first, second]) {
        const res = await claim(u, token).expect(409);
        expect(res.body.code).toBe('SPIN_ALREADY_CLAIMED');
      }
      expect(await bonusOf(first.user.id)).toBe(5);
      expect(await bonusOf(second.user.id)).toBeUndefined();
    });

    it('spends a token once when ten users claim it at the same moment', async () => {
      const users = await Promise.all(Array.from({ length: 10 }, () => makeUser(t, site)));
      const { token } = await spin(site);
      const answers = await Promise.all(users.map((u) => claim(u, token)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(
        answers.filter((a) => a.status === 409).every((a) => a.body.code === 'SPIN_ALREADY_CLAIMED'),
      ).toBe(true);
      const [row] = await t.db.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM bonus_credits WHERE user_id = ANY($1::uuid[])`,
        [users.map((u) => u.user.id)],
      );
      expect(row.n).toBe(1);
    });

    it('gives each user one spin reward (409 SPIN_REWARD_TAKEN), even claiming ten at once; the refused tokens stay claimable', async () => {
      const u = await makeUser(t, site);
      const tokens = await Promise.all(Array.from({ length: 10 }, () => spin(site)));
      const answers = await Promise.all(tokens.map((r) => claim(u, r.token)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'SPIN_REWARD_TAKEN')).toBe(
        true,
      );
      expect(await bonusOf(u.user.id)).toBe(5);

      const refused = tokens[answers.findIndex((a) => a.status === 409)].token;
      const other = await makeUser(t, site);
      await claim(other, refused).expect(201);
    });

    it('counts a result worth nothing as no reward: the user may still claim a winning one', async () => {
      const u = await makeUser(t, site);
      expect((await claim(u, forge({ credits: 0, seg: 1 })).expect(201)).body).toEqual({
        credits_won: 0,
        bonus_credits: 0,
      });
      expect((await claim(u, forge()).expect(201)).body).toEqual({ credits_won: 5, bonus_credits: 5 });
    });

    it('needs a signed-in user', async () => {
      await api(t.app)
        .post('/gaming/spin/claim', { token: (await spin(site)).token })
        .expect(401);
    });
  });

  describe('claiming at sign-up', () => {
    const accountExists = async (email: string): Promise<boolean> => {
      const rows = await t.db.query<unknown[]>(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [email]);
      return rows.length > 0;
    };

    it('claims the spin_token with the new account', async () => {
      const { token } = await spin(site);
      const res = await register(site, token).expect(201);
      const userId = (res.body as { user: { id: string } }).user.id;
      expect(await bonusOf(userId)).toBe(5);
      const again = await claim(res.body.access_token as string, token).expect(409);
      expect(again.body.code).toBe('SPIN_ALREADY_CLAIMED');
    });

    it('refuses the registration, creating nothing, for a token that is tampered, expired, another site’s or spent', async () => {
      const spent = (await spin(site)).token;
      await register(site, spent).expect(201);
      const [body, sig] = forge().split('.');
      const cases: Array<[string, number, string]> = [
        [`${body}.${sig.slice(0, -3)}abc`, 422, 'SPIN_TOKEN_INVALID'],
        [forge({ exp: Math.floor(Date.now() / 1000) - 60 }), 422, 'SPIN_TOKEN_EXPIRED'],
        [(await spin(otherSite)).token, 403, 'SPIN_TOKEN_OTHER_SITE'],
        [spent, 409, 'SPIN_ALREADY_CLAIMED'],
      ];
      for (const [token, status, code] of cases) {
        const email = `refused-${uid()}@example.com`;
        const res = await register(site, token, email).expect(status);
        expect(res.body.code).toBe(code);
        expect(await accountExists(email)).toBe(false);
      }
    });
  });

  it('leaves the money promises whole: no user holds more bonus credits than it won, nor two spin rewards', async () => {
    const outcomes = await runIntegrityChecks(<R>(sql: string) => t.db.query<R[]>(sql), site);
    expect(outcomes.map((o) => o.check.name)).toContain('bonus_credits_won');
    expect(integrityReport(outcomes)).not.toMatch(/^FAIL/m);
  });
});
