import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { DEFAULT_PASSWORD, makeSite, makeUser } from '../support/factories';
import { holdRows, untilWaiting } from '../support/held-rows';
import { linkToken } from '../support/smtp-sink';

const onPostgres = !!process.env.TEST_DATABASE_URL;
const pgIt = onPostgres ? it : it.skip;

const NEW_PASSWORD = 'quartz-Meadow-5521-lake';

/**
 * A member's account changed by two requests at once: one-time links, an erasure, parallel sign-in guesses.
 * Each test lines the requests up at the member's row, held from another session, then lets them go, so
 * they meet as they would in a rush. PostgreSQL only (the embedded database serialises transactions).
 * Found by the accounts review (2026-11-27).
 */
describe('one member’s account changed by requests at once', () => {
  let t: TestApp;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
  });
  afterAll(() => t.close());

  /** Every link of `path` e-mailed to `email` so far, oldest first. */
  const linksTo = (email: string, path: string): string[] =>
    t.smtp
      .to(email)
      .filter((mail) => mail.text.includes(`/${path}?token=`))
      .map((mail) => linkToken(mail, path));
  /** Sends a supertest request now (supertest sends only once something awaits it). */
  const send = <T>(request: PromiseLike<T>): Promise<T> => Promise.resolve(request);
  const holdMember = (userId: string) => holdRows(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [userId]);

  describe('two one-time links of one member spent at once', () => {
    pgIt(
      'two reset links in two tabs: one sets the password, the other is 422 INVALID_TOKEN, never a 500',
      async () => {
        const u = await makeUser(t, site);
        for (let i = 0; i < 2; i++)
          await api(t.app).post('/auth/password-reset', { email: u.email, site_id: site }).expect(200);
        await t.drain();
        const [first, second] = linksTo(u.email, 'reset-password');
        expect(first).not.toBe(second);

        const { holder, release } = await holdMember(u.user.id);
        const pending = Promise.all(
          [first, second].map((token, i) =>
            send(api(t.app).post('/auth/password-set/confirm', { token, password: `${NEW_PASSWORD}-${i}` })),
          ),
        );
        await untilWaiting(holder, 2);
        await release();
        const answers = await pending;
        expect(answers.map((r) => r.status).sort()).toEqual([200, 422]);
        expect(answers.find((r) => r.status === 422)!.body.code).toBe('INVALID_TOKEN');
        // The password that won is the one that works.
        const won = answers.findIndex((r) => r.status === 200);
        await api(t.app)
          .post('/auth/login', { email: u.email, password: `${NEW_PASSWORD}-${won}`, site_id: site })
          .expect(200);
      },
    );

    pgIt(
      'a reset and a sign-in link at once: the reset sets the password and the sign-in link is spent by it (401)',
      async () => {
        const u = await makeUser(t, site);
        await api(t.app).post('/auth/password-reset', { email: u.email, site_id: site }).expect(200);
        await api(t.app).post('/auth/magic-link', { email: u.email, site_id: site }).expect(200);
        await t.drain();
        const [reset] = linksTo(u.email, 'reset-password');
        const [magic] = linksTo(u.email, 'magic-link');

        const { holder, release } = await holdMember(u.user.id);
        const confirm = send(
          api(t.app).post('/auth/password-set/confirm', { token: reset, password: NEW_PASSWORD }),
        );
        await untilWaiting(holder, 1);
        const verify = send(api(t.app).post('/auth/magic-link/verify', { token: magic }));
        await untilWaiting(holder, 2);
        await release();
        const [c, v] = await Promise.all([confirm, verify]);
        // The reset came first: it spends every outstanding link of the member, the sign-in link included.
        expect({ confirm: c.status, verify: v.status }).toEqual({ confirm: 200, verify: 401 });
      },
    );
  });

  pgIt(
    'a password set while an admin erases the account: 422, and the erased row keeps no password hash',
    async () => {
      const admin = await makeUser(t, site, { role: 'admin' });
      const u = await makeUser(t, site);
      await api(t.app).post('/auth/password-reset', { email: u.email, site_id: site }).expect(200);
      await t.drain();
      const [reset] = linksTo(u.email, 'reset-password');

      const { holder, release } = await holdMember(u.user.id);
      const erase = send(
        api(t.app).as(admin.token).delete(`/admin/users/${u.user.id}`).send({ reason: 'Erasure request' }),
      );
      await untilWaiting(holder, 1);
      const confirm = send(
        api(t.app).post('/auth/password-set/confirm', { token: reset, password: NEW_PASSWORD }),
      );
      await untilWaiting(holder, 2);
      await release();
      const [e, c] = await Promise.all([erase, confirm]);
      const [row] = await t.db.query(
        `SELECT deleted_at IS NOT NULL AS deleted, password_hash IS NOT NULL AS has_hash FROM users WHERE id = $1`,
        [u.user.id],
      );
      expect({ erase: e.status, confirm: c.status, row }).toEqual({
        erase: 204,
        confirm: 422,
        row: { deleted: true, has_hash: false },
      });
    },
  );

  pgIt(
    'the right password checked while the fifth wrong guess locks the account: 401, the lock stays and is logged',
    async () => {
      const u = await makeUser(t, site);
      const login = (password: string) =>
        send(api(t.app).post('/auth/login', { email: u.email, password, site_id: site }));
      for (let i = 0; i < 4; i++) expect((await login(`wrong-guess-${i}-abcdef`)).status).toBe(401);
      const { holder, release } = await holdMember(u.user.id);
      // The fifth wrong guess waits at the member's row to count its failure; the right password, sent after
      // it, reads the account (not locked yet), is checked, and waits behind it.
      const fifth = login('wrong-guess-4-abcdef');
      await untilWaiting(holder, 1);
      const right = login(DEFAULT_PASSWORD);
      await untilWaiting(holder, 2);
      await release();
      expect((await fifth).status).toBe(401);
      expect((await right).status).toBe(401);
      const [row] = await t.db.query<Array<{ locked: boolean }>>(
        `SELECT account_locked_until > now() AS locked FROM users WHERE id = $1`,
        [u.user.id],
      );
      expect(row.locked).toBe(true);
      const logged = await t.db.query<Array<{ activity_type: string; reason: string }>>(
        `SELECT activity_type, metadata->>'reason' AS reason FROM activity_logs
        WHERE user_id = $1 AND activity_type IN ('account_locked', 'login_failed', 'login')`,
        [u.user.id],
      );
      expect(logged.filter((l) => l.activity_type === 'login')).toEqual([]);
      expect(logged.filter((l) => l.activity_type === 'account_locked')).toHaveLength(1);
      // The right password refused by the lock is on record, as it is when it comes after the lock.
      expect(logged).toContainEqual({ activity_type: 'login_failed', reason: 'locked' });
    },
  );
});
