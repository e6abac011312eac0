import { PasswordFlowsService } from '#app/modules/auth/password-flows.service.js';
import { PasswordHasher } from '#app/modules/auth/password-hasher.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { DEFAULT_PASSWORD, makeSite, makeUser, uid } from '../support/factories';
import { linkToken } from '../support/smtp-sink';

const GOOD_PASSWORD = 'plum-Orchard-4471-river';

describe('accounts: register, sign in, sessions', () => {
  let t: TestApp;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Asks for `email`'s password reset and answers the token its e-mail carries. */
  const resetTokenOf = async (email: string): Promise<string> => {
    await api(t.app).post('/auth/password-reset', { email, site_id: site }).expect(200);
    await t.drain();
    return linkToken(t.smtp.to(email)[0], 'reset-password');
  };
  const register = (body: Record<string, unknown>) =>
    api(t.app).post('/auth/register', {
      email: `new-${uid()}@example.com`,
      password: GOOD_PASSWORD,
      site_id: site,
      data_processing_consent: true,
      age_confirmed: true,
      ...body,
    });

  describe('registration', () => {
    it('creates the account, signs it in, and answers the User without any secret', async () => {
      const email = `Jane.${uid()}@Example.com`;
      const res = await register({ email, name: 'Jane Doe', marketing_consent: true }).expect(201);
      expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
      expect(res.body.user).toMatchObject({
        email,
        site_id: site,
        role: 'user',
        signup_source: 'register',
        marketing_consent: true,
      });
      expect(res.body.user.profile).toMatchObject({ first_name: null, accepts_marketing: false });
      expect(res.body.user.payment_transactions).toEqual([]);
      expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/i);
      const [row] = await t.db.query(`SELECT password_hash, age_confirmed_at FROM users WHERE id = $1`, [
        res.body.user.id,
      ]);
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.age_confirmed_at).not.toBeNull();
      await api(t.app).as(res.body.access_token).get('/users/me').expect(200);
    });

    it('sends the welcome e-mail through SMTP once the job runs', async () => {
      const email = `welcome-${uid()}@example.com`;
      await register({ email }).expect(201);
      expect(t.smtp.to(email)).toHaveLength(0); // enqueued with the account, sent by the job
      await t.drain();
      const [mail] = t.smtp.to(email);
      expect(mail.subject).toBe(`Welcome to Site ${site}`);
      expect(mail.raw).toContain('text/html');
    });

    it('counts a password’s length in characters: five emoji are five, not ten (400)', async () => {
      const lock = '\u{1F512}'; // one character, two UTF-16 units
      const email = `emoji-${uid()}@example.com`;
      const short = await register({ email, password: lock.repeat(5) }).expect(400);
      expect(short.body.errors).toEqual([expect.objectContaining({ field: 'password' })]);
      expect(await t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toHaveLength(0);
      await register({ email, password: `${lock.repeat(5)}-stable-horse` }).expect(201);
    });

    it('refuses an unknown site with 404 UNKNOWN_SITE', async () => {
      const res = await register({ site_id: 'no-such-site' }).expect(404);
      expect(res.body).toMatchObject({ code: 'UNKNOWN_SITE', status: 404 });
      expect(res.headers['content-type']).toContain('application/problem+json');
    });

    it('refuses an e-mail already taken on the site, whatever its case, with 409', async () => {
      const email = `taken-${uid()}@example.com`;
      await register({ email }).expect(201);
      const res = await register({ email: email.toUpperCase() }).expect(409);
      expect(res.body.code).toBe('EMAIL_TAKEN');
    });

    it('lets another site register the same e-mail', async () => {
      const other = await makeSite(t);
      const email = `twice-${uid()}@example.com`;
      await register({ email }).expect(201);
      await register({ email, site_id: other }).expect(201);
    });

    it('refuses a missing or false 18+ declaration as the business rule it is (422 AGE_REQUIRED)', async () => {
      for (const declaration of [{ age_confirmed: false }, { age_confirmed: undefined }]) {
        const res = await register(declaration).expect(422);
        expect(res.body).toMatchObject({ code: 'AGE_REQUIRED', status: 422 });
      }
    });

    it('does not ask for the 18+ declaration on a site that switches it off', async () => {
      const relaxed = await makeSite(t, { settings: { age_check: 'none' } });
      const email = `relaxed-${uid()}@example.com`;
      await register({ site_id: relaxed, email, age_confirmed: undefined }).expect(201);
      await register({ site_id: relaxed, age_confirmed: false }).expect(201);
      const [row] = await t.db.query(`SELECT age_confirmed_at FROM users WHERE email = $1`, [email]);
      expect(row.age_confirmed_at).toBeNull();
    });

    it('refuses a date of birth under 18 years', async () => {
      const now = new Date();
      const seventeen = `${now.getUTCFullYear() - 17}-01-01`;
      const res = await register({ date_of_birth: seventeen }).expect(422);
      expect(res.body.code).toBe('UNDER_AGE');
      await register({ date_of_birth: '1990-05-17' }).expect(201);
    });

    it('takes a date of birth as a calendar date only: a timestamp is a 400, not a way past the age check', async () => {
      const email = `fifteen-${uid()}@example.com`;
      const fifteen = `${new Date().getUTCFullYear() - 15}-06-15T00:00:00.000Z`; // a date picker's toISOString()
      const res = await register({ email, date_of_birth: fifteen }).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['date_of_birth']);
      expect(await t.db.query(`SELECT id FROM users WHERE email = $1`, [email])).toEqual([]);
    });

    it('requires consent to data processing', async () => {
      const res = await register({ data_processing_consent: false }).expect(422);
      expect(res.body.code).toBe('CONSENT_REQUIRED');
    });

    it.each([
      ['too short', 'short-9'],
      ['among the most common', 'password123'],
      ['too long', 'x'.repeat(129)],
    ])('refuses a password that is %s, changing nothing', async (_why, password) => {
      const email = `weak-${uid()}@example.com`;
      const res = await register({ email, password }).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('password');
      expect(await t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toHaveLength(0);
    });

    it('answers missing, mistyped and unknown fields with 400 and the field errors', async () => {
      const missing = await api(t.app).post('/auth/register', { email: 'x@example.com' }).expect(400);
      const fields = missing.body.errors.map((e: { field: string }) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['password', 'site_id', 'data_processing_consent']));
      expect(fields).not.toContain('age_confirmed');
      const typed = await register({ age_confirmed: 'yes' }).expect(400);
      expect(typed.body.errors[0].field).toBe('age_confirmed');
      const unknown = await register({ role: 'superadmin' }).expect(400);
      expect(unknown.body.errors).toEqual([{ field: 'role', message: 'property role should not exist' }]);
      await register({ email: 'not-an-email' }).expect(400);
    });

    it('refuses an address that grows past 254 characters when lower-cased: 400 naming the field, not a 500', async () => {
      const I = '\u0130'; // LATIN CAPITAL LETTER I WITH DOT ABOVE: lower-cases to two UTF-16 units
      const email = `${I.repeat(32)}@${I.repeat(60)}.${I.repeat(60)}.com`; // 158 characters, 310 lower-cased
      const res = await register({ email }).expect(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ field: 'email', message: expect.stringContaining('254') }],
      });
      expect(await t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toHaveLength(0);
    });

    it('refuses an address in the reserved .invalid domain, where erased accounts’ addresses go (400)', async () => {
      for (const email of [`deleted-${uid()}@deleted.invalid`, `Someone-${uid()}@Example.INVALID`]) {
        const res = await register({ email }).expect(400);
        expect(res.body).toMatchObject({
          code: 'VALIDATION_FAILED',
          errors: [{ field: 'email', message: expect.stringContaining('.invalid') }],
        });
        expect(await t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toHaveLength(0);
      }
    });
  });

  describe('signing in', () => {
    it('issues tokens for the right password and records the login', async () => {
      const u = await makeUser(t, site);
      const res = await api(t.app)
        .post('/auth/login', { email: u.email.toUpperCase(), password: DEFAULT_PASSWORD, site_id: site })
        .expect(200);
      expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
      const logs = await t.db.query(
        `SELECT activity_type, ip_address, request_id FROM activity_logs WHERE user_id = $1`,
        [u.user.id],
      );
      expect(logs).toEqual([expect.objectContaining({ activity_type: 'login' })]);
      expect(logs[0].request_id).toBe(res.headers['x-request-id']);
    });

    it('answers unknown e-mail, wrong password and wrong site with the same 401', async () => {
      const u = await makeUser(t, site);
      const other = await makeSite(t);
      const bodies = await Promise.all([
        api(t.app)
          .post('/auth/login', {
            email: `nobody-${uid()}@example.com`,
            password: DEFAULT_PASSWORD,
            site_id: site,
          })
          .expect(401),
        api(t.app)
          .post('/auth/login', { email: u.email, password: 'wrong-password-123', site_id: site })
          .expect(401),
        api(t.app)
          .post('/auth/login', { email: u.email, password: DEFAULT_PASSWORD, site_id: other })
          .expect(401),
      ]);
      const details = bodies.map((r): string[] => [String(r.body.code), String(r.body.detail)]);
      expect(new Set(details.map((d) => JSON.stringify(d))).size).toBe(1);
    });

    it('locks the account after five failures; even the right password is then refused', async () => {
      const u = await makeUser(t, site);
      const login = (password: string) =>
        api(t.app).post('/auth/login', { email: u.email, password, site_id: site });
      for (let i = 0; i < 5; i++) await login('wrong-password-123').expect(401);
      const [row] = await t.db.query(`SELECT account_locked_until FROM users WHERE id = $1`, [u.user.id]);
      expect(new Date(row.account_locked_until).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
      const locked = await login(DEFAULT_PASSWORD).expect(401);
      expect(locked.body.code).toBe('UNAUTHENTICATED');
      const types = await t.db.query(
        `SELECT activity_type FROM activity_logs WHERE user_id = $1 ORDER BY created_at`,
        [u.user.id],
      );
      expect(types.map((r: { activity_type: string }) => r.activity_type)).toContain('account_locked');
      // Tokens already issued stay valid: a lock must not let anyone log the owner out.
      await api(t.app).as(u.token).get('/users/me').expect(200);
    });

    it('forgets failures more than fifteen minutes old: scattered mistakes never lock the account', async () => {
      const u = await makeUser(t, site);
      const login = (password: string) =>
        api(t.app).post('/auth/login', { email: u.email, password, site_id: site });
      for (let i = 0; i < 4; i++) await login('wrong-password-123').expect(401);
      await t.db.query(
        `UPDATE users SET last_failed_login_at = now() - interval '16 minutes' WHERE id = $1`,
        [u.user.id],
      );
      await login('wrong-password-123').expect(401);
      const [row] = await t.db.query(
        `SELECT failed_login_attempts, account_locked_until FROM users WHERE id = $1`,
        [u.user.id],
      );
      expect(row).toEqual({ failed_login_attempts: 1, account_locked_until: null });
      await login(DEFAULT_PASSWORD).expect(200);
    });

    it('counts concurrent wrong guesses without losing any', async () => {
      const u = await makeUser(t, site);
      await Promise.all(
        Array.from({ length: 4 }, () =>
          api(t.app)
            .post('/auth/login', { email: u.email, password: 'wrong-password-123', site_id: site })
            .expect(401),
        ),
      );
      const [row] = await t.db.query(`SELECT failed_login_attempts FROM users WHERE id = $1`, [u.user.id]);
      expect(row.failed_login_attempts).toBe(4);
    });
  });

  describe('the site named by X-Site-Id (DESIGN §3)', () => {
    it('registers, signs in, sends a sign-in link and a reset on the header’s site when the body names none', async () => {
      const email = `header-${uid()}@example.com`;
      const body = { email, password: GOOD_PASSWORD, data_processing_consent: true, age_confirmed: true };
      const made = await api(t.app).post('/auth/register', body).set('X-Site-Id', site).expect(201);
      expect(made.body.user).toMatchObject({ email, site_id: site });
      await api(t.app)
        .post('/auth/login', { email, password: GOOD_PASSWORD })
        .set('X-Site-Id', site)
        .expect(200);
      await api(t.app).post('/auth/magic-link', { email }).set('X-Site-Id', site).expect(200);
      await api(t.app).post('/auth/password-reset', { email }).set('X-Site-Id', site).expect(200);
      await t.drain();
      expect(t.smtp.to(email).map((m) => m.subject)).toEqual(
        expect.arrayContaining([expect.stringContaining('Reset your')]),
      );
      // Named twice, differently: refused (400), as on every route; named nowhere: 400 naming site_id.
      const other = await makeSite(t);
      await api(t.app)
        .post('/auth/password-reset', { email, site_id: other })
        .set('X-Site-Id', site)
        .expect(400);
      const none = await api(t.app).post('/auth/password-reset', { email }).expect(400);
      expect(none.body.errors.map((e: { field: string }) => e.field)).toContain('site_id');
    });
  });

  describe('sessions', () => {
    it('rotates refresh tokens: the new one works, the old one stops working', async () => {
      const u = await makeUser(t, site);
      const first = await api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }).expect(200);
      expect(first.body.refresh_token).not.toBe(u.refreshToken);
      await api(t.app).as(first.body.access_token).get('/users/me').expect(200);
      const second = await api(t.app)
        .post('/auth/refresh', { refresh_token: first.body.refresh_token })
        .expect(200);
      expect(second.body.access_token).toBeDefined();
    });

    it('revokes the whole family when a rotated token is used again', async () => {
      const u = await makeUser(t, site);
      const rotated = await api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }).expect(200);
      await api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }).expect(401);
      await api(t.app).post('/auth/refresh', { refresh_token: rotated.body.refresh_token }).expect(401);
      const [log] = await t.db.query(
        `SELECT severity FROM activity_logs WHERE user_id = $1 AND activity_type = 'refresh_token_reuse'`,
        [u.user.id],
      );
      expect(log.severity).toBe('critical');
    });

    it('lets exactly one of two concurrent refreshes with the same token win', async () => {
      const u = await makeUser(t, site);
      const results = await Promise.all([
        api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }),
        api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    });

    it('keeps the winner’s session when two refreshes with one token race: a race is not a reuse', async () => {
      // On PostgreSQL the loser often reads the token after the winner committed; it still came first.
      const kept: boolean[] = [];
      for (let round = 0; round < 10; round++) {
        const u = await makeUser(t, site);
        const results = await Promise.all([
          api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }),
          api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
        const winner = results.find((r) => r.status === 200)!;
        const next = await api(t.app).post('/auth/refresh', { refresh_token: winner.body.refresh_token });
        kept.push(next.status === 200);
        if (next.status !== 200) continue;
        // The spent token presented after that is a copy: the whole family goes, and it is logged.
        await api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }).expect(401);
        await api(t.app).post('/auth/refresh', { refresh_token: next.body.refresh_token }).expect(401);
      }
      expect(kept).toEqual(kept.map(() => true));
      const alerts = await t.db.query(
        `SELECT 1 FROM activity_logs a JOIN users u ON u.id = a.user_id
          WHERE u.site_id = $1 AND a.activity_type = 'refresh_token_reuse' AND a.created_at > now() - interval '1 minute'`,
        [site],
      );
      expect(alerts.length).toBeGreaterThanOrEqual(10);
    });

    it('ends the session on logout (204), also for an unknown token', async () => {
      const u = await makeUser(t, site);
      await api(t.app).post('/auth/logout', { refresh_token: u.refreshToken }).expect(204);
      await api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }).expect(401);
      await api(t.app).post('/auth/logout', { refresh_token: 'never-issued' }).expect(204);
    });

    // Races: on PostgreSQL these run for real (PGlite serialises transactions, so there they only check the
    // plain outcome). Each round is one user; any round whose old session still refreshes is a failure.
    it('a password reset ends every session, even one refreshed at that very moment', async () => {
      const survivors: number[] = [];
      for (let round = 0; round < 8; round++) {
        const u = await makeUser(t, site);
        const token = await resetTokenOf(u.email);
        // Someone holding a copy of the refresh token keeps refreshing while the owner resets the password.
        let current = u.refreshToken;
        const race = { over: false };
        const holder = (async () => {
          while (!race.over) {
            const r = await api(t.app).post('/auth/refresh', { refresh_token: current });
            if (r.status !== 200) return;
            current = r.body.refresh_token;
          }
        })();
        await new Promise((resolve) => setTimeout(resolve, 30 + round * 3));
        await api(t.app)
          .post('/auth/password-set/confirm', { token, password: 'brand-New-pass-9913' })
          .expect(200);
        race.over = true;
        await holder;
        const after = await api(t.app).post('/auth/refresh', { refresh_token: current });
        if (after.status === 200) survivors.push(round);
      }
      expect(survivors).toEqual([]);
    }, 180_000);

    it('logging out ends the session even while the same session refreshes', async () => {
      const survivors: number[] = [];
      for (let round = 0; round < 30; round++) {
        const u = await makeUser(t, site);
        const [refreshed] = await Promise.all([
          api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }),
          new Promise((resolve) => setTimeout(resolve, round % 4)).then(() =>
            api(t.app).post('/auth/logout', { refresh_token: u.refreshToken }).expect(204),
          ),
        ]);
        if (refreshed.status !== 200) continue;
        const after = await api(t.app).post('/auth/refresh', { refresh_token: refreshed.body.refresh_token });
        if (after.status === 200) survivors.push(round);
      }
      expect(survivors).toEqual([]);
    });

    it('a sign-in with the old password that ends after a reset leaves no working session', async () => {
      const survivors: number[] = [];
      for (let round = 0; round < 8; round++) {
        const u = await makeUser(t, site);
        const token = await resetTokenOf(u.email);
        const login = api(t.app)
          .post('/auth/login', { email: u.email, password: u.password, site_id: site })
          .then((r) => r);
        await new Promise((resolve) => setTimeout(resolve, round * 5));
        await api(t.app)
          .post('/auth/password-set/confirm', { token, password: 'brand-New-pass-9913' })
          .expect(200);
        const signedIn = await login;
        if (signedIn.status !== 200) continue;
        const after = await api(t.app).post('/auth/refresh', { refresh_token: signedIn.body.refresh_token });
        if (after.status === 200) survivors.push(round);
      }
      expect(survivors).toEqual([]);
    });

    it('refuses garbage and missing refresh tokens', async () => {
      await api(t.app).post('/auth/refresh', { refresh_token: 'nope' }).expect(401);
      await api(t.app).post('/auth/refresh', {}).expect(400);
    });
  });

  describe('password reset (endpoint 2) and password set (endpoint 1)', () => {
    const reset = (email: string, siteId = site) =>
      api(t.app).post('/auth/password-reset', { email, site_id: siteId });

    it('answers the same whether or not the account or the site exists', async () => {
      const u = await makeUser(t, site);
      const known = await reset(u.email).expect(200);
      const unknown = await reset(`ghost-${uid()}@example.com`).expect(200);
      const noSite = await reset(u.email, 'no-such-site').expect(200);
      expect(known.body.message).toBe(unknown.body.message);
      expect(noSite.body.message).toBe(known.body.message);
      expect(known.body.email).toBe(u.email);
    });

    it('e-mails a single-use link that sets the password, activates, and ends other sessions, access tokens too', async () => {
      const u = await makeUser(t, site);
      await reset(u.email).expect(200);
      await t.drain();
      const [mail] = t.smtp.to(u.email);
      expect(mail.subject).toContain('Reset your');
      const token = linkToken(mail, 'reset-password');
      expect(mail.text).toContain(`https://${site}.example.com/reset-password?token=`);
      const [stored] = await t.db.query(`SELECT token_hash FROM one_time_tokens WHERE user_id = $1`, [
        u.user.id,
      ]);
      expect(stored.token_hash).not.toBe(token);

      // The access token signed in before the reset works until then.
      await api(t.app).as(u.token).get('/users/me').expect(200);

      const newPassword = 'brand-New-pass-9913';
      const res = await api(t.app)
        .post('/auth/password-set/confirm', { token, password: newPassword })
        .expect(200);
      expect(res.body).toMatchObject({ email: u.email, message: expect.any(String) });
      await api(t.app).as(u.token).get('/users/me').expect(401);
      expect(res.body.activation_link).toMatch(
        new RegExp(`^https://${site}\\.example\\.com/magic-link\\?token=`),
      );

      await api(t.app)
        .post('/auth/password-set/confirm', { token, password: 'another-Pass-2020' })
        .expect(422);
      await api(t.app).post('/auth/refresh', { refresh_token: u.refreshToken }).expect(401);
      await api(t.app)
        .post('/auth/login', { email: u.email, password: DEFAULT_PASSWORD, site_id: site })
        .expect(401);
      await api(t.app)
        .post('/auth/login', { email: u.email, password: newPassword, site_id: site })
        .expect(200);

      const activation = new URL(res.body.activation_link).searchParams.get('token');
      const signedIn = await api(t.app).post('/auth/magic-link/verify', { token: activation }).expect(200);
      await api(t.app).as(signedIn.body.access_token).get('/users/me').expect(200);
      const kinds = await t.db.query(`SELECT activity_type FROM activity_logs WHERE user_id = $1`, [
        u.user.id,
      ]);
      expect(kinds.map((k: { activity_type: string }) => k.activity_type)).toContain('password_change');
    });

    it('ends an access token issued in the same second just before the reset, and not one issued after it', async () => {
      const u = await makeUser(t, site);
      const token = await resetTokenOf(u.email);
      // At the start of a fresh second, so the sign-in and the reset share their whole-second issue time.
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
      const before = await api(t.app)
        .post('/auth/login', { email: u.email, password: DEFAULT_PASSWORD, site_id: site })
        .expect(200);
      await api(t.app).post('/auth/password-set/confirm', { token, password: GOOD_PASSWORD }).expect(200);
      const after = await api(t.app)
        .post('/auth/login', { email: u.email, password: GOOD_PASSWORD, site_id: site })
        .expect(200);
      await api(t.app).as(before.body.access_token).get('/users/me').expect(401);
      await api(t.app).as(after.body.access_token).get('/users/me').expect(200);
    });

    it('refuses an expired token and a weak password, changing nothing', async () => {
      const u = await makeUser(t, site);
      const token = await resetTokenOf(u.email);
      const weak = await api(t.app)
        .post('/auth/password-set/confirm', { token, password: 'qwertyuiop' })
        .expect(400);
      expect(weak.body.errors[0].field).toBe('password');
      await t.db.query(
        `UPDATE one_time_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1`,
        [u.user.id],
      );
      const expired = await api(t.app)
        .post('/auth/password-set/confirm', { token, password: 'fine-Password-5521' })
        .expect(422);
      expect(expired.body.code).toBe('INVALID_TOKEN');
      await api(t.app)
        .post('/auth/login', { email: u.email, password: DEFAULT_PASSWORD, site_id: site })
        .expect(200);
    });

    it('spends no password hash on a token that cannot be spent (junk, used, expired): 422 at once', async () => {
      const u = await makeUser(t, site);
      const used = await resetTokenOf(u.email);
      await api(t.app)
        .post('/auth/password-set/confirm', { token: used, password: GOOD_PASSWORD })
        .expect(200);
      const v = await makeUser(t, site);
      const expired = await resetTokenOf(v.email);
      await t.db.query(
        `UPDATE one_time_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1`,
        [v.user.id],
      );
      const hash = jest.spyOn(t.app.get(PasswordHasher), 'hash');
      try {
        const answers = await Promise.all(
          [uid(), uid(), used, expired].map((token) =>
            api(t.app).post('/auth/password-set/confirm', { token, password: 'new-Lantern-8812-hills' }),
          ),
        );
        expect(answers.map((r) => `${r.status} ${r.body.code as string}`)).toEqual(
          Array.from({ length: 4 }, () => '422 INVALID_TOKEN'),
        );
        // Anyone can send junk: before, each one cost an argon2 hash of the CPU every login shares.
        expect(hash).not.toHaveBeenCalled();
        // A token that can be spent still buys its one hash.
        const w = await makeUser(t, site);
        const token = await resetTokenOf(w.email);
        await api(t.app).post('/auth/password-set/confirm', { token, password: GOOD_PASSWORD }).expect(200);
        expect(hash).toHaveBeenCalledTimes(1);
      } finally {
        hash.mockRestore();
      }
    });

    it('lets one of two confirmations racing with one token set the password and refuses the other', async () => {
      const u = await makeUser(t, site);
      const token = await resetTokenOf(u.email);
      const answers = await Promise.all(
        ['first-Lantern-8812-hills', 'second-Lantern-8812-hills'].map((password) =>
          api(t.app).post('/auth/password-set/confirm', { token, password }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 422]);
      const won = answers[0].status === 200 ? 'first-Lantern-8812-hills' : 'second-Lantern-8812-hills';
      await api(t.app).post('/auth/login', { email: u.email, password: won, site_id: site }).expect(200);
    });

    it('limits confirmations per IP (10 a minute): 429 RATE_LIMITED with Retry-After past the limit', async () => {
      const ip = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
      const confirm = () =>
        api(t.app).from(ip).post('/auth/password-set/confirm', { token: uid(), password: GOOD_PASSWORD });
      for (let i = 0; i < 10; i++) await confirm().expect(422);
      const over = await confirm().expect(429);
      expect(over.body.code).toBe('RATE_LIMITED');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // Another client is not held back by this one.
      await api(t.app)
        .post('/auth/password-set/confirm', { token: uid(), password: GOOD_PASSWORD })
        .expect(422);
    });

    it('counts an IPv6 client by its /64: a new address of it for each request is no way round the limit', async () => {
      const net = `2001:db8:${(1 + Math.floor(Math.random() * 0xfffe)).toString(16)}:1`;
      const confirm = (host: number) =>
        api(t.app)
          .from(`${net}::${host.toString(16)}`)
          .post('/auth/password-set/confirm', { token: uid(), password: GOOD_PASSWORD });
      for (let host = 1; host <= 10; host++) await confirm(host).expect(422);
      expect((await confirm(11).expect(429)).body.code).toBe('RATE_LIMITED');
      // The next /64 is another client.
      await api(t.app)
        .from(`${net.slice(0, net.lastIndexOf(':'))}:2::1`)
        .post('/auth/password-set/confirm', { token: uid(), password: GOOD_PASSWORD })
        .expect(422);
    });

    it('activates an account made without a password (guest purchase, website form)', async () => {
      const u = await makeUser(t, site, { password: null, signupSource: 'purchase' });
      await api(t.app)
        .post('/auth/login', { email: u.email, password: 'anything-at-all-1', site_id: site })
        .expect(401);
      const link = await t.db.transaction((manager) =>
        t.app.get(PasswordFlowsService).passwordSetLink(u.user, manager),
      );
      const token = new URL(link).searchParams.get('token');
      await api(t.app).post('/auth/password-set/confirm', { token, password: GOOD_PASSWORD }).expect(200);
      await api(t.app)
        .post('/auth/login', { email: u.email, password: GOOD_PASSWORD, site_id: site })
        .expect(200);
      const [row] = await t.db.query(`SELECT email_verified_at FROM users WHERE id = $1`, [u.user.id]);
      expect(row.email_verified_at).not.toBeNull();
    });
  });

  describe('sign-in links', () => {
    it('e-mails a link that signs in once', async () => {
      const u = await makeUser(t, site);
      const res = await api(t.app).post('/auth/magic-link', { email: u.email, site_id: site }).expect(200);
      const ghost = await api(t.app)
        .post('/auth/magic-link', { email: `ghost-${uid()}@example.com`, site_id: site })
        .expect(200);
      expect(res.body.message).toBe(ghost.body.message);
      await t.drain();
      const token = linkToken(t.smtp.to(u.email)[0], 'magic-link');
      const tokens = await api(t.app).post('/auth/magic-link/verify', { token }).expect(200);
      await api(t.app).as(tokens.body.access_token).get('/users/me').expect(200);
      await api(t.app).post('/auth/magic-link/verify', { token }).expect(401);
    });
    it('limits link exchanges per IP (10 a minute): 429 RATE_LIMITED with Retry-After past the limit', async () => {
      const u = await makeUser(t, site);
      const ip = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
      const verify = (token: string) => api(t.app).from(ip).post('/auth/magic-link/verify', { token });
      for (let i = 0; i < 10; i++) await verify(uid()).expect(401);
      await api(t.app).post('/auth/magic-link', { email: u.email, site_id: site }).expect(200);
      await t.drain();
      const token = linkToken(t.smtp.to(u.email)[0], 'magic-link');
      const over = await verify(token).expect(429);
      expect(over.body.code).toBe('RATE_LIMITED');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // Another client is not held back by this one, and the refused attempt did not spend the link.
      await api(t.app).post('/auth/magic-link/verify', { token }).expect(200);
    });

    it('a sign-in link asked for before a password reset no longer signs in once the reset is done', async () => {
      const u = await makeUser(t, site);
      await api(t.app).post('/auth/magic-link', { email: u.email, site_id: site }).expect(200);
      await t.drain();
      const before = linkToken(t.smtp.to(u.email)[0], 'magic-link');
      await api(t.app).post('/auth/password-reset', { email: u.email, site_id: site }).expect(200);
      await t.drain();
      const reset = linkToken(
        t.smtp.to(u.email).find((m) => /reset-password/.test(m.text))!,
        'reset-password',
      );
      const done = await api(t.app)
        .post('/auth/password-set/confirm', { token: reset, password: GOOD_PASSWORD })
        .expect(200);
      const refused = await api(t.app).post('/auth/magic-link/verify', { token: before }).expect(401);
      expect(refused.body.code).toBe('UNAUTHENTICATED');
      const [row] = await t.db.query(
        `SELECT used_at FROM one_time_tokens WHERE user_id = $1 AND purpose = 'magic_link' ORDER BY created_at LIMIT 1`,
        [u.user.id],
      );
      expect(row.used_at).not.toBeNull();
      // The link the reset answers is made after it, and still signs in.
      const activation = new URL(done.body.activation_link).searchParams.get('token');
      await api(t.app).post('/auth/magic-link/verify', { token: activation }).expect(200);
    });
  });

  describe('links into staff accounts', () => {
    it('never pass through the mail route a site’s admin controls: an admin cannot sign in as a superadmin', async () => {
      const own = await makeSite(t);
      const root = await makeUser(t, own, { role: 'superadmin' });
      const peer = await makeUser(t, own, { role: 'admin' });
      const member = await makeUser(t, own);
      const admin = await makeUser(t, own, { role: 'admin' });
      const as = api(t.app).as(admin.token);
      // The site's admin routes the site's mail to the outbox it reads, then asks for links into other accounts.
      await as.put(`/admin/site-configs/${own}`, { email_provider: 'log' }).expect(200);
      await api(t.app).post('/auth/password-reset', { email: root.email, site_id: own }).expect(200);
      await api(t.app).post('/auth/magic-link', { email: peer.email, site_id: own }).expect(200);
      await api(t.app).post('/auth/password-reset', { email: member.email, site_id: own }).expect(200);
      await t.drain();

      const outbox = (await as.get('/admin/outbox').expect(200)).body as Array<{ to: string; kind: string }>;
      // A member's mail follows the site's route, as the site chose; the staff's links are not there.
      expect(outbox.map((m) => [m.to, m.kind])).toEqual([[member.email, 'password_reset']]);
      // They went through the service's own transport, to their owners.
      const rootLink = linkToken(t.smtp.to(root.email)[0], 'reset-password');
      expect(rootLink).toMatch(/\S+/);
      expect(t.smtp.to(peer.email).map((m) => m.headers['x-mail-kind'])).toEqual(['magic_link']);
    });

    it('lead to the service’s own pages, never to a frontend_url a site’s admin chose', async () => {
      const own = await makeSite(t);
      const root = await makeUser(t, own, { role: 'superadmin' });
      const admin = await makeUser(t, own, { role: 'admin' });
      const member = await makeUser(t, own);
      // The site's admin points the site's front end at a server it runs, then asks for links into accounts.
      await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${own}`, { frontend_url: 'https://evil.example' })
        .expect(200);
      await api(t.app).post('/auth/password-reset', { email: root.email, site_id: own }).expect(200);
      await api(t.app).post('/auth/magic-link', { email: admin.email, site_id: own }).expect(200);
      await api(t.app).post('/auth/password-reset', { email: member.email, site_id: own }).expect(200);
      await t.drain();
      const linkTo = (email: string) =>
        new URL(/https?:\/\/\S+\?token=[\w-]+/.exec(t.smtp.to(email)[0].text)![0]);
      const service = new URL(t.config.publicBaseUrl);
      for (const [email, path] of [
        [root.email, '/staff/reset-password'],
        [admin.email, '/staff/magic-link'],
      ]) {
        const link = linkTo(email);
        expect([link.host, link.pathname]).toEqual([service.host, path]);
        // The service serves the page the link opens, and it passes the address on to no one.
        const page = await api(t.app)
          .get(`${path}?token=${link.searchParams.get('token')}`)
          .expect(200);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.headers['referrer-policy']).toBe('no-referrer');
      }
      // A member's links follow the site's front end, as the site's operator chose.
      expect(linkTo(member.email).host).toBe('evil.example');
      // Setting the password signs the superadmin in through the service's pages too.
      const set = await api(t.app)
        .post('/auth/password-set/confirm', {
          token: linkTo(root.email).searchParams.get('token'),
          password: 'brand-New-pass-9913',
        })
        .expect(200);
      const activation = new URL(set.body.activation_link as string);
      expect([activation.host, activation.pathname]).toEqual([service.host, '/staff/magic-link']);
    });
  });
});
