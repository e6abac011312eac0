import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser, uid } from '../support/factories';

const USER_FIELDS = [
  'id',
  'name',
  'email',
  'role',
  'signup_source',
  'site_id',
  'consent_version',
  'consent_given_at',
  'last_login_at',
  'account_locked_until',
  'deleted_at',
  'deletion_reason',
  'created_at',
  'updated_at',
  'failed_login_attempts',
  'has_consented',
  'data_processing_consent',
  'marketing_consent',
  'profile',
  'activity_logs',
  'payment_transactions',
  'points',
  'raffle_entries',
];

describe('profiles (endpoint 21) and user administration', () => {
  let t: TestApp;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('PUT /users/profile', () => {
    it('updates the profile and answers the whole User with every field', async () => {
      const u = await makeUser(t, site);
      const res = await api(t.app)
        .as(u.token)
        .put('/users/profile', {
          profile: { first_name: 'Ada', last_name: 'Lovelace', city: 'London', accepts_marketing: true },
        })
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual([...USER_FIELDS].sort());
      expect(res.body.profile).toMatchObject({
        first_name: 'Ada',
        last_name: 'Lovelace',
        city: 'London',
        accepts_marketing: true,
        phone_number: null,
      });
      expect(res.body.activity_logs[0]).toMatchObject({
        activity_type: 'profile_update',
        resource_type: 'user',
        resource_id: u.user.id,
      });
      // The log names the fields sent, not every field a profile has.
      expect([...res.body.activity_logs[0].metadata.fields].sort()).toEqual([
        'accepts_marketing',
        'city',
        'first_name',
        'last_name',
      ]);
      expect(res.body.raffle_entries).toEqual([]);
      const [row] = await t.db.query(`SELECT first_name FROM user_profiles WHERE user_id = $1`, [u.user.id]);
      expect(row.first_name).toBe('Ada');
    });

    it('refuses, field by field (400), what the profile’s columns could not hold: a line break, or more characters than fit', async () => {
      const u = await makeUser(t, site);
      const heart = '\u2764\uFE0F'; // "❤️": two characters, one of which class-validator's MaxLength leaves out
      for (const [field, value] of [
        ['first_name', heart.repeat(60)],
        ['address', heart.repeat(150)],
        ['state_region', 'Kent\r\n\u0007Bob Smith, 1 High St'],
        ['city', 'Leeds\nBcc: x'],
      ] as const) {
        const res = await api(t.app)
          .as(u.token)
          .put('/users/profile', { profile: { [field]: value } })
          .expect(400);
        expect([field, res.body.code, res.body.errors[0].field]).toEqual([
          field,
          'VALIDATION_FAILED',
          `profile.${field}`,
        ]);
      }
      const [row] = await t.db.query(
        `SELECT first_name, state_region FROM user_profiles WHERE user_id = $1`,
        [u.user.id],
      );
      expect(row).toEqual({ first_name: null, state_region: null });
      await api(t.app)
        .as(u.token)
        .put('/users/profile', { profile: { first_name: heart.repeat(50) } })
        .expect(200);
    });

    it('dates and logs a change of marketing consent', async () => {
      const u = await makeUser(t, site);
      const res = await api(t.app).as(u.token).put('/users/profile', { marketing_consent: true }).expect(200);
      expect(res.body.marketing_consent).toBe(true);
      expect(res.body.consent_given_at).not.toBeNull();
      expect(res.body.activity_logs.map((l: { activity_type: string }) => l.activity_type)).toContain(
        'consent_change',
      );
    });

    it('accepts the caller’s own role unchanged but refuses a different one (403), changing nothing', async () => {
      const u = await makeUser(t, site);
      await api(t.app).as(u.token).put('/users/profile', { role: 'user' }).expect(200);
      const res = await api(t.app)
        .as(u.token)
        .put('/users/profile', { role: 'admin', profile: { first_name: 'Mallory' } })
        .expect(403);
      expect(res.body.code).toBe('FORBIDDEN');
      const [row] = await t.db.query(
        `SELECT u.role, p.first_name FROM users u JOIN user_profiles p ON p.user_id = u.id WHERE u.id = $1`,
        [u.user.id],
      );
      expect(row).toEqual({ role: 'user', first_name: null });
    });

    it.each([
      ['an unknown top-level field', { nickname: 'x' }, 'nickname'],
      ['an unknown profile field', { profile: { shoe_size: '9' } }, 'profile.shoe_size'],
      ['a wrong type', { marketing_consent: 'yes' }, 'marketing_consent'],
      ['a wrong nested type', { profile: { accepts_marketing: 1 } }, 'profile.accepts_marketing'],
      ['a profile that is not an object', { profile: 'Ada' }, 'profile'],
      ['an over-long value', { profile: { first_name: 'a'.repeat(101) } }, 'profile.first_name'],
    ])('refuses %s with 400 naming the field, changing nothing', async (_what, body, field) => {
      const u = await makeUser(t, site);
      const res = await api(t.app).as(u.token).put('/users/profile', body).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      const logs = await t.db.query(`SELECT 1 FROM activity_logs WHERE user_id = $1`, [u.user.id]);
      expect(logs).toHaveLength(0);
    });

    it('needs a token', async () => {
      await api(t.app).put('/users/profile', {}).expect(401);
    });
  });

  describe('GET /admin/users and PUT /admin/users/{id}/role', () => {
    it('lets an admin find users of its own site by e-mail', async () => {
      const admin = await makeUser(t, site, { role: 'admin' });
      const member = await makeUser(t, site, { email: `Find.Me-${uid()}@example.com` });
      const res = await api(t.app)
        .as(admin.token)
        .get(`/admin/users?email=${encodeURIComponent(member.email.toLowerCase())}`)
        .expect(200);
      expect(res.body).toEqual([
        expect.objectContaining({ id: member.user.id, email: member.email, role: 'user' }),
      ]);
      expect(JSON.stringify(res.body)).not.toContain('password');
    });

    it('pages with limit and X-Next-Cursor', async () => {
      const pageSite = await makeSite(t);
      const admin = await makeUser(t, pageSite, { role: 'admin' });
      await Promise.all([1, 2, 3].map(() => makeUser(t, pageSite)));
      const first = await api(t.app).as(admin.token).get('/admin/users?limit=2').expect(200);
      expect(first.body).toHaveLength(2);
      const cursor = first.headers['x-next-cursor'];
      expect(first.headers.link).toContain('rel="next"');
      const second = await api(t.app)
        .as(admin.token)
        .get(`/admin/users?limit=2&cursor=${cursor}`)
        .expect(200);
      expect(second.body).toHaveLength(2);
      const ids = [...first.body, ...second.body].map((u: { id: string }) => u.id);
      expect(new Set(ids).size).toBe(4);
      await api(t.app).as(admin.token).get('/admin/users?limit=0').expect(400);
      await api(t.app).as(admin.token).get('/admin/users?limit=101').expect(400);
    });

    it('lets a superadmin make a site admin, who then reaches admin routes', async () => {
      const superadmin = await makeUser(t, site, { role: 'superadmin' });
      const member = await makeUser(t, site);
      await api(t.app).as(member.token).get('/admin/users').expect(403);
      const res = await api(t.app)
        .as(superadmin.token)
        .put(`/admin/users/${member.user.id}/role`, { role: 'admin' })
        .expect(200);
      expect(res.body.role).toBe('admin');
      await api(t.app).as(member.token).get('/admin/users').expect(200);
      const [log] = await t.db.query(
        `SELECT metadata FROM activity_logs WHERE user_id = $1 AND activity_type = 'role_change'`,
        [member.user.id],
      );
      expect(log.metadata).toMatchObject({ from: 'user', to: 'admin', by: superadmin.user.id });
    });

    it('refuses granting superadmin (400), changing one’s own role (403), unknown or malformed ids (404)', async () => {
      const superadmin = await makeUser(t, site, { role: 'superadmin' });
      const member = await makeUser(t, site);
      await api(t.app)
        .as(superadmin.token)
        .put(`/admin/users/${member.user.id}/role`, { role: 'superadmin' })
        .expect(400);
      await api(t.app)
        .as(superadmin.token)
        .put(`/admin/users/${superadmin.user.id}/role`, { role: 'user' })
        .expect(403);
      await api(t.app)
        .as(superadmin.token)
        .put('/admin/users/00000000-0000-4000-8000-000000000000/role', { role: 'admin' })
        .expect(404);
      await api(t.app)
        .as(superadmin.token)
        .put('/admin/users/not-a-uuid/role', { role: 'admin' })
        .expect(404);
    });
  });
});
