import { randomBytes } from 'node:crypto';
import { signSubmission } from '#app/modules/cms/cms.rules.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser, type MadeUser } from '../support/factories';
import { linkToken } from '../support/smtp-sink';

const SECRET = `cms-${randomBytes(16).toString('hex')}`;

describe('website forms that become members (issue 14)', () => {
  let t: TestApp;
  let site: string;
  let admin: MadeUser;

  beforeAll(async () => {
    t = await createTestApp({ cmsWebhookSecret: SECRET });
    site = await makeSite(t);
    admin = await makeUser(t, site, { role: 'admin' });
  });
  afterAll(() => t.close());

  let n = 0;
  function submission(email: string, data: Record<string, unknown> = {}) {
    n++;
    return {
      triggerType: 'form_submission',
      payload: {
        id: `sub-${n}-${randomBytes(4).toString('hex')}`,
        name: 'Join the club',
        siteId: site,
        formId: 'form-1',
        formElementId: 'el-1',
        pageId: 'page-1',
        publishedPath: '/join',
        submittedAt: new Date().toISOString(),
        data: {
          'Your E-mail': email,
          'First Name': 'Sam',
          'Last Name': 'Taylor',
          Phone: '+447700900456',
          ...data,
        },
        schema: [
          { fieldElementId: 'a', fieldName: 'Your E-mail', fieldType: 'email' },
          { fieldElementId: 'b', fieldName: 'First Name', fieldType: 'plain' },
          { fieldElementId: 'c', fieldName: 'Last Name', fieldType: 'plain' },
          { fieldElementId: 'd', fieldName: 'Phone', fieldType: 'tel' },
        ],
      },
    };
  }

  const replay = (body: object) => api(t.app).as(admin.token).post('/admin/cms/replay-submission', body);

  const usersWith = async (email: string) =>
    t.db.query<Array<{ id: string; signup_source: string; first_name: string; phone_number: string }>>(
      `SELECT u.id, u.signup_source, p.first_name, p.phone_number FROM users u
         JOIN user_profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND u.email_normalized = $2`,
      [site, email],
    );

  function deliver(body: string, over: { timestamp?: string; signature?: string } = {}) {
    const timestamp = over.timestamp ?? String(Date.now());
    return api(t.app)
      .post('/cms/webhook', body)
      .set('x-webflow-timestamp', timestamp)
      .set('x-webflow-signature', over.signature ?? signSubmission(SECRET, timestamp, body));
  }

  describe('replayed (endpoint 20)', () => {
    it('makes a member from the form, e-mails a password-set link, and twice makes one user', async () => {
      const email = `form-${n}@example.com`;
      const body = submission(email);
      const first = await replay(body).expect(200);
      expect(first.body).toMatchObject({
        submission_id: body.payload.id,
        user_created: true,
        duplicate: false,
        actions: ['user_created', 'profile_updated', 'mail_cms_new_user', 'contact_list_add'],
      });
      const second = await replay(body).expect(200);
      expect(second.body).toEqual({
        submission_id: body.payload.id,
        user_id: first.body.user_id,
        user_created: false,
        duplicate: true,
        actions: [],
      });
      const users = await usersWith(email);
      expect(users).toEqual([
        { id: first.body.user_id, signup_source: 'cms', first_name: 'Sam', phone_number: '+447700900456' },
      ]);
      await t.drain();
      const mails = t.smtp.to(email);
      expect(mails).toHaveLength(1);
      const token = linkToken(mails[0], 'set-password');
      await api(t.app)
        .post('/auth/password-set/confirm', { token, password: 'A-good-Passw0rd-42' })
        .expect(200);
    });

    it('updates an existing member’s profile without a new account or e-mail', async () => {
      const member = await makeUser(t, site);
      const res = await replay(
        submission(member.email, { 'First Name': 'Robin', Phone: '+447700900999' }),
      ).expect(200);
      expect(res.body).toMatchObject({
        user_id: member.user.id,
        user_created: false,
        duplicate: false,
        actions: ['user_found', 'profile_updated', 'contact_list_add'],
      });
      expect((await usersWith(member.email))[0]).toMatchObject({
        first_name: 'Robin',
        phone_number: '+447700900999',
      });
      await t.drain();
      expect(t.smtp.to(member.email)).toHaveLength(0);
    });

    it('never writes a staff account: a form naming the superadmin’s or an admin’s address changes nothing', async () => {
      for (const role of ['superadmin', 'admin'] as const) {
        const staff = await makeUser(t, site, { role });
        const before = (await usersWith(staff.email))[0];
        const res = await replay(
          submission(staff.email, { 'First Name': 'Owned', Phone: '+447700900999' }),
        ).expect(200);
        expect(res.body).toMatchObject({
          user_id: null,
          user_created: false,
          duplicate: false,
          actions: ['user_found', 'staff_account_left_alone'],
        });
        expect((await usersWith(staff.email))[0]).toEqual(before);
        await t.drain();
        expect(t.smtp.to(staff.email)).toHaveLength(0);
      }
    });

    it('takes an address longer than an account holds as none (422), and refuses a NUL character (400)', async () => {
      const long = `${'a'.repeat(250)}@example.com`;
      expect((await replay(submission(long)).expect(422)).body.code).toBe('SUBMISSION_WITHOUT_EMAIL');
      const email = `nul-${n}@example.com`;
      const refused = await replay(submission(email, { 'First Name': 'Sam\u0000' })).expect(400);
      expect(refused.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: 'The request body holds the NUL character (\\u0000), which no field can store.',
      });
      expect(await usersWith(email)).toHaveLength(0);
      expect(await t.db.query(`SELECT 1 FROM users WHERE email_normalized = $1`, [long])).toHaveLength(0);
    });

    it('takes an address that grows past what an account holds when lower-cased as none (422), not a 500', async () => {
      const I = '\u0130'; // LATIN CAPITAL LETTER I WITH DOT ABOVE: lower-cases to two UTF-16 units
      const email = `${I.repeat(32)}@${I.repeat(60)}.${I.repeat(60)}.com`; // 158 characters, 310 lower-cased
      expect((await replay(submission(email)).expect(422)).body.code).toBe('SUBMISSION_WITHOUT_EMAIL');
      expect(await t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toHaveLength(0);
    });

    it('takes an address in the reserved .invalid domain as none (422): no member is made with it', async () => {
      const email = `deleted-${n}@deleted.invalid`;
      expect((await replay(submission(email)).expect(422)).body.code).toBe('SUBMISSION_WITHOUT_EMAIL');
      expect(await usersWith(email)).toHaveLength(0);
    });

    it('takes an address sign-in would refuse (a stray comma, two addresses) as none (422): no member, no e-mail', async () => {
      const clean = `comma-${n}-${randomBytes(3).toString('hex')}@example.com`;
      for (const typed of [`${clean},`, `eve,${clean}`, `${clean}; eve@example.com`]) {
        const refused = await replay(submission(typed)).expect(422);
        expect([typed, refused.body.code]).toEqual([typed, 'SUBMISSION_WITHOUT_EMAIL']);
      }
      expect(
        await t.db.query(`SELECT email FROM users WHERE site_id = $1 AND email LIKE $2`, [
          site,
          `%${clean}%`,
        ]),
      ).toEqual([]);
      await t.drain();
      expect(t.smtp.to(clean)).toEqual([]);
    });

    it('records a new member’s marketing choice with its time, as registration does', async () => {
      const email = `consent-${n}-${randomBytes(3).toString('hex')}@example.com`;
      const before = new Date();
      const made = await replay(submission(email, { Newsletter: 'on' })).expect(200);
      const [user] = await t.db.query<Array<{ marketing_consent: boolean; consent_given_at: Date | null }>>(
        `SELECT marketing_consent, consent_given_at FROM users WHERE id = $1`,
        [made.body.user_id],
      );
      expect(user.marketing_consent).toBe(true);
      expect(user.consent_given_at!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
      const [registered] = await t.db.query<Array<{ metadata: Record<string, unknown> }>>(
        `SELECT metadata FROM activity_logs WHERE user_id = $1 AND activity_type = 'register'`,
        [made.body.user_id],
      );
      expect(registered.metadata).toMatchObject({ marketing_consent: true });

      // A form that does not ask records no choice.
      const silent = await replay(submission(`silent-${email}`)).expect(200);
      const [quiet] = await t.db.query<Array<{ marketing_consent: boolean; consent_given_at: Date | null }>>(
        `SELECT marketing_consent, consent_given_at FROM users WHERE id = $1`,
        [silent.body.user_id],
      );
      expect(quiet).toEqual({ marketing_consent: false, consent_given_at: null });
    });

    it('makes one member of two submissions for the same new address replayed at once', async () => {
      for (let round = 0; round < 5; round++) {
        const email = `together-${round}-${n}@example.com`;
        const answers = await Promise.all(
          ['Sam', 'Samuel'].map((first) => replay(submission(email, { 'First Name': first }))),
        );
        expect(answers.map((a) => a.status)).toEqual([200, 200]);
        const users = await usersWith(email);
        expect(users).toHaveLength(1);
        const bodies = answers.map((a) => a.body as { user_id: string; user_created: boolean });
        expect(bodies.map((b) => b.user_id)).toEqual([users[0].id, users[0].id]);
        expect(bodies.map((b) => b.user_created).sort()).toEqual([false, true]);
        const rows = await t.db.query(`SELECT user_id FROM cms_submissions WHERE user_id = $1`, [
          users[0].id,
        ]);
        expect(rows).toHaveLength(2);
      }
    });

    it('refuses a submission without an e-mail, and a user who is not an admin', async () => {
      const body = submission('x');
      body.payload.data['Your E-mail'] = '';
      expect((await replay(body).expect(422)).body.code).toBe('SUBMISSION_WITHOUT_EMAIL');
      const user = await makeUser(t, site);
      await api(t.app)
        .as(user.token)
        .post('/admin/cms/replay-submission', submission('y@example.com'))
        .expect(403);
    });
  });

  describe('live (POST /cms/webhook)', () => {
    const inbox = async (key: string) =>
      t.db.query<Array<{ id: string; status: string; site_id: string }>>(
        `SELECT id, status, site_id FROM inbound_events WHERE provider = 'cms' AND event_key = $1`,
        [key],
      );

    it('stores a signed submission, answers at once, makes the member by the job, once', async () => {
      const email = `live-${n}@example.com`;
      const body = JSON.stringify(submission(email));
      const id = (JSON.parse(body) as { payload: { id: string } }).payload.id;
      expect((await deliver(body).expect(200)).body).toEqual({ received: true, duplicate: false });
      expect(await usersWith(email)).toHaveLength(0); // not yet: a job does it
      expect((await deliver(body).expect(200)).body).toEqual({ received: true, duplicate: true });
      await t.drain();
      expect(await usersWith(email)).toHaveLength(1);
      const [event] = await inbox(`${site}:${id}`);
      expect(event).toMatchObject({ status: 'processed', site_id: site });
      // The admin sees it in the inbox and replays it: nothing more happens.
      const listed = await api(t.app).as(admin.token).get('/admin/inbound-events?provider=cms').expect(200);
      expect((listed.body as Array<{ id: string }>).map((e) => e.id)).toContain(event.id);
      await api(t.app).as(admin.token).post(`/admin/inbound-events/${event.id}/replay`).expect(200);
      await t.drain();
      expect(await usersWith(email)).toHaveLength(1);
      // So does endpoint 20 with the same submission.
      expect((await replay(JSON.parse(body) as object).expect(200)).body).toMatchObject({ duplicate: true });
      expect(t.smtp.to(email)).toHaveLength(1);
    });

    it('forgets what the person typed, in the submission and the inbox’s raw copy, when their account is erased', async () => {
      const email = `erased-${n}@example.com`;
      const body = JSON.stringify(submission(email, { Phone: '+447700900321' }));
      const id = (JSON.parse(body) as { payload: { id: string } }).payload.id;
      await deliver(body).expect(200);
      await t.drain();
      const [member] = await usersWith(email);
      await api(t.app).as(admin.token).delete(`/admin/users/${member.id}`).send({}).expect(204);
      const [event] = await inbox(`${site}:${id}`);
      const [stored] = await t.db.query(`SELECT payload FROM cms_submissions WHERE submission_id = $1`, [id]);
      const kept = JSON.stringify([event, stored]);
      for (const typed of [email, '+447700900321', 'Taylor']) expect(kept).not.toContain(typed);
      // Sent again, it is still known: no new member.
      expect((await deliver(body).expect(200)).body).toEqual({ received: true, duplicate: true });
    });

    it('refuses a submission holding a NUL character (400) and stores nothing', async () => {
      const email = `nul-live-${n}@example.com`;
      const body = JSON.stringify(submission(email, { 'First Name': 'Sam\u0000' }));
      const id = (JSON.parse(body) as { payload: { id: string } }).payload.id;
      await deliver(body).expect(400);
      expect(await inbox(`${site}:${id}`)).toHaveLength(0);
    });

    it('refuses (400) a builder site id or trigger type longer than the inbox keeps, storing nothing (not a 500)', async () => {
      const email = `long-ids-${n}@example.com`;
      const longSite = submission(email);
      longSite.payload.siteId = 'x'.repeat(65);
      const longTrigger = { ...submission(email), triggerType: 'form_submission_'.padEnd(61, 'x') };
      for (const body of [longSite, longTrigger]) {
        const res = await deliver(JSON.stringify(body)).expect(400);
        expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      }
      const stored = await t.db.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM inbound_events WHERE provider = 'cms' AND event_key = ANY($1)`,
        [[`${'x'.repeat(65)}:${longSite.payload.id}`, `${site}:${longTrigger.payload.id}`]],
      );
      expect(stored[0].n).toBe(0);
      expect(await usersWith(email)).toHaveLength(0);
    });

    it('settles a submission whose address is longer than an account holds, with the reason, not a database error', async () => {
      const body = JSON.stringify(submission(`${'b'.repeat(250)}@example.com`));
      const id = (JSON.parse(body) as { payload: { id: string } }).payload.id;
      await deliver(body).expect(200);
      await t.drain();
      const [event] = await t.db.query<Array<{ status: string; last_error: string | null }>>(
        `SELECT status, last_error FROM inbound_events WHERE provider = 'cms' AND event_key = $1`,
        [`${site}:${id}`],
      );
      expect(event).toMatchObject({ last_error: expect.stringContaining('no e-mail address') });
    });

    it('refuses a bad signature, a stale timestamp or none, and stores nothing', async () => {
      const email = `forged-${n}@example.com`;
      const body = JSON.stringify(submission(email));
      const id = (JSON.parse(body) as { payload: { id: string } }).payload.id;
      const old = String(Date.now() - 6 * 60_000);
      await deliver(body, { signature: signSubmission('not-the-secret', String(Date.now()), body) }).expect(
        401,
      );
      await deliver(body, { timestamp: old, signature: signSubmission(SECRET, old, body) }).expect(401);
      await deliver(body.replace('Sam', 'Eve'))
        .set('x-webflow-signature', signSubmission(SECRET, '1', body))
        .expect(401);
      await api(t.app).post('/cms/webhook', body).expect(401);
      await t.drain();
      expect(await inbox(`${site}:${id}`)).toHaveLength(0);
      expect(await usersWith(email)).toHaveLength(0);
    });
  });
});
