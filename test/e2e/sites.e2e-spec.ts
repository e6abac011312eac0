import { decryptSecret } from '#app/infra/crypto/secret-box.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { type MadeUser, makeSite, makeUser, uid } from '../support/factories';

const SECRETS = {
  contactsvc_api_key: 'cs-live-secret-0001',
  mailer_api_key: 'xkeysib-secret-0002',
  smtp_password: 'smtp-pass-secret-0003',
  analytics_api_key: 'an-secret-0004',
};

function fullSite(siteId: string): Record<string, unknown> {
  const templates: Record<string, string> = {};
  const kinds = ['magic_link', 'password_reset', 'password_set', 'purchase_existing', 'purchase_new'];
  for (const [i, kind] of [...kinds, 'raffle_entry', 'cms_new_user', 'welcome'].entries()) {
    templates[`mailer_${kind}_template_id`] = String(10 + i);
    templates[`mailer_generic_${kind}_template_id`] = String(20 + i);
  }
  return {
    site_id: siteId,
    display_name: 'Example Prizes',
    domain: 'example.com',
    frontend_url: 'https://www.example.com',
    email_provider: 'smtp',
    email_bcc_for_purchases: 'orders@example.com',
    additional_settings: { age_check: 'declaration' },
    ...SECRETS,
    contactsvc_contact_list_id: '42',
    mailer_master_template_id: '1',
    ...templates,
    smtp_host: 'smtp.example.com',
    smtp_port: 587,
    smtp_username: 'mailer@example.com',
    smtp_from: 'hello@example.com',
    smtp_from_name: 'Example Prizes',
    smtp_reply_to: 'support@example.com',
  };
}

function expectNoSecretIn(text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

describe('site configurations', () => {
  let t: TestApp;
  let root: MadeUser;
  beforeAll(async () => {
    t = await createTestApp();
    root = await makeUser(t, await makeSite(t), { role: 'superadmin' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A site created through the API, with an admin, a user, and an admin of another site. */
  async function siteWithPeople(): Promise<{
    siteId: string;
    admin: MadeUser;
    user: MadeUser;
    stranger: MadeUser;
  }> {
    const siteId = `shop-${uid()}`;
    await api(t.app).as(root.token).post('/admin/site-configs', fullSite(siteId)).expect(201);
    return {
      siteId,
      admin: await makeUser(t, siteId, { role: 'admin' }),
      user: await makeUser(t, siteId),
      stranger: await makeUser(t, await makeSite(t), { role: 'admin' }),
    };
  }

  describe('creating (endpoint 18)', () => {
    it('a superadmin creates a site with every setting and gets it back with id and timestamps', async () => {
      const siteId = `shop-${uid()}`;
      const res = await api(t.app).as(root.token).post('/admin/site-configs', fullSite(siteId)).expect(201);
      const { contactsvc_api_key, mailer_api_key, smtp_password, analytics_api_key, ...plain } =
        fullSite(siteId);
      expect(res.body).toMatchObject(plain);
      expect(res.body).toMatchObject({
        contactsvc_api_key: '****0001',
        mailer_api_key: '****0002',
        smtp_password: '****0003',
        analytics_api_key: '****0004',
      });
      expect([contactsvc_api_key, mailer_api_key, smtp_password, analytics_api_key]).toHaveLength(4);
      expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(res.body.created_at)).not.toBeNaN();
      expect(Date.parse(res.body.updated_at)).not.toBeNaN();
      expect(Object.keys(res.body)).toHaveLength(38);
      expectNoSecretIn(res.text);
    });

    it('stores the secrets encrypted with AES-256-GCM under SECRETS_KEY, never as plain text', async () => {
      const siteId = `shop-${uid()}`;
      await api(t.app).as(root.token).post('/admin/site-configs', fullSite(siteId)).expect(201);
      const [row] = await t.db.query<Array<Record<string, string>>>(
        `SELECT contactsvc_api_key, mailer_api_key, smtp_password, analytics_api_key FROM site_configs WHERE site_id = $1`,
        [siteId],
      );
      for (const [field, secret] of Object.entries(SECRETS)) {
        expect(row[field]).toMatch(/^v1:/);
        expect(row[field]).not.toContain(secret);
        expect(decryptSecret(t.config.secretsKey, row[field])).toBe(secret);
      }
      expectNoSecretIn(
        JSON.stringify(await t.db.query(`SELECT * FROM activity_logs WHERE site_id = $1`, [siteId])),
      );
    });

    it('answers every unset field as null, never leaving one out', async () => {
      const siteId = `bare-${uid()}`;
      const res = await api(t.app)
        .as(root.token)
        .post('/admin/site-configs', { site_id: siteId, display_name: 'Bare' })
        .expect(201);
      expect(Object.keys(res.body)).toHaveLength(38);
      expect(res.body).toMatchObject({
        domain: null,
        email_provider: null,
        smtp_port: null,
        smtp_password: null,
        mailer_welcome_template_id: null,
        mailer_generic_welcome_template_id: null,
        additional_settings: {},
      });
    });

    it('a site named before it existed applies its own rules as soon as it is created', async () => {
      const siteId = `fresh-${uid()}`;
      const register = (ip: string) =>
        api(t.app)
          .from(ip)
          .post('/auth/register', {
            email: `early-${uid()}@example.com`,
            password: 'rate-Limit-pass-88',
            site_id: siteId,
            data_processing_consent: true,
            age_confirmed: true,
          });
      // A front end names the site before it exists: 404, and the rate limiter looked its rules up.
      expect((await register('198.51.100.40')).status).toBe(404);
      await api(t.app)
        .as(root.token)
        .post('/admin/site-configs', {
          site_id: siteId,
          display_name: 'Fresh',
          additional_settings: { rate_limits: { 'register-ip': 1 } },
        })
        .expect(201);
      // The site's own limit (one registration a minute per address), not the default five.
      const statuses = [(await register('198.51.100.41')).status, (await register('198.51.100.41')).status];
      expect(statuses).toEqual([201, 429]);
    });

    it('refuses a site_id that exists with 409 SITE_EXISTS', async () => {
      const existing = await makeSite(t);
      const res = await api(t.app)
        .as(root.token)
        .post('/admin/site-configs', { site_id: existing, display_name: 'Again' })
        .expect(409);
      expect(res.body.code).toBe('SITE_EXISTS');
    });

    it('is for superadmins only: an admin or a user gets 403, no token 401', async () => {
      const { admin, user } = await siteWithPeople();
      const body = { site_id: `x-${uid()}`, display_name: 'X' };
      await api(t.app).as(admin.token).post('/admin/site-configs', body).expect(403);
      await api(t.app).as(user.token).post('/admin/site-configs', body).expect(403);
      await api(t.app).post('/admin/site-configs', body).expect(401);
    });

    it('accepts every field at its limits', async () => {
      const siteId = `l${uid()}`.padEnd(63, 'x');
      const res = await api(t.app)
        .as(root.token)
        .post('/admin/site-configs', {
          site_id: siteId,
          display_name: 'd'.repeat(200),
          smtp_port: 65535,
          // The longest DNS name: 253 characters in labels of at most 63.
          smtp_host: `${'h'.repeat(63)}.${'h'.repeat(63)}.${'h'.repeat(63)}.${'h'.repeat(61)}`,
          mailer_master_template_id: '9'.repeat(100),
          smtp_password: 'p'.repeat(500),
          email_provider: 'log',
          frontend_url: `https://www.example.com/${'a'.repeat(476)}`,
        })
        .expect(201);
      expect(res.body.smtp_password).toBe('****pppp');
      await api(t.app)
        .as(root.token)
        .post('/admin/site-configs', { site_id: `p-${uid()}`, display_name: 'P', smtp_port: 1 })
        .expect(201);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no site_id', { site_id: undefined }, 'site_id'],
      ['no display_name', { display_name: undefined }, 'display_name'],
      ['a site_id that is not a slug', { site_id: 'Big Shop', display_name: 'X' }, 'site_id'],
      ['a site_id of 64 characters', { site_id: 'a'.repeat(64), display_name: 'X' }, 'site_id'],
      ['a site_id that is a number', { site_id: 12, display_name: 'X' }, 'site_id'],
      ['an empty display_name', { site_id: 'ok-1', display_name: '' }, 'display_name'],
      ['a blank display_name', { site_id: 'ok-1', display_name: '   ' }, 'display_name'],
      // The usual slips in an SMTP host: saved, each would fail every e-mail of the site later.
      ['an smtp_host that is a URL', { smtp_host: 'https://smtp.example.com' }, 'smtp_host'],
      ['an smtp_host with its port', { smtp_host: 'smtp.example.com:587' }, 'smtp_host'],
      ['an smtp_host with a space', { smtp_host: 'smtp example.com' }, 'smtp_host'],
      [
        'an smtp_host of 254 characters',
        { smtp_host: `${'h'.repeat(63)}.`.repeat(3) + 'h'.repeat(62) },
        'smtp_host',
      ],
      [
        'a display_name of 201 characters',
        { site_id: 'ok-1', display_name: 'd'.repeat(201) },
        'display_name',
      ],
      ['an unknown email_provider', { email_provider: 'fax' }, 'email_provider'],
      ['smtp_port 0', { smtp_port: 0 }, 'smtp_port'],
      ['smtp_port 65536', { smtp_port: 65536 }, 'smtp_port'],
      ['smtp_port as text', { smtp_port: '587' }, 'smtp_port'],
      ['a fractional smtp_port', { smtp_port: 587.5 }, 'smtp_port'],
      ['a frontend_url that is not a URL', { frontend_url: 'not a url' }, 'frontend_url'],
      ['an ftp frontend_url', { frontend_url: 'ftp://example.com' }, 'frontend_url'],
      ['a domain that is not one', { domain: 'not a domain!' }, 'domain'],
      [
        'a purchase BCC that is not an e-mail',
        { email_bcc_for_purchases: 'orders' },
        'email_bcc_for_purchases',
      ],
      ['an smtp_from that is not an e-mail', { smtp_from: 'hello' }, 'smtp_from'],
      ['a secret of 501 characters', { mailer_api_key: 'k'.repeat(501) }, 'mailer_api_key'],
      [
        'a template id of 101 characters',
        { mailer_welcome_template_id: '1'.repeat(101) },
        'mailer_welcome_template_id',
      ],
      ['additional_settings that are not an object', { additional_settings: 'x' }, 'additional_settings'],
      ['additional_settings null', { additional_settings: null }, 'additional_settings'],
      ['an unknown field', { favourite_colour: 'blue' }, 'favourite_colour'],
      ['an id', { id: '00000000-0000-0000-0000-000000000000' }, 'id'],
    ])('refuses %s with 400 naming the field', async (_what, fields, field) => {
      const res = await api(t.app)
        .as(root.token)
        .post('/admin/site-configs', { site_id: `v-${uid()}`, display_name: 'V', ...fields })
        .expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('refuses a provider that cannot send with 422 MAIL_SETTINGS_INCOMPLETE', async () => {
      const smtp = await api(t.app)
        .as(root.token)
        .post('/admin/site-configs', { site_id: `i-${uid()}`, display_name: 'I', email_provider: 'smtp' })
        .expect(422);
      expect(smtp.body.code).toBe('MAIL_SETTINGS_INCOMPLETE');
      expect(smtp.body.errors).toEqual([{ field: 'smtp_host', message: expect.any(String) }]);
      const mailer = await api(t.app)
        .as(root.token)
        .post('/admin/site-configs', { site_id: `i-${uid()}`, display_name: 'I', email_provider: 'mailer' })
        .expect(422);
      expect(mailer.body.errors.map((e: { field: string }) => e.field)).toEqual([
        'mailer_api_key',
        'mailer_master_template_id',
        'email_provider',
      ]);
    });
  });

  describe('reading', () => {
    it('an admin reads its own site, secrets masked', async () => {
      const { siteId, admin } = await siteWithPeople();
      const res = await api(t.app).as(admin.token).get(`/admin/site-configs/${siteId}`).expect(200);
      expect(res.body).toMatchObject({
        site_id: siteId,
        smtp_password: '****0003',
        mailer_api_key: '****0002',
      });
      expectNoSecretIn(res.text);
    });

    it('another site’s admin and the site’s users get 403', async () => {
      const { siteId, user, stranger } = await siteWithPeople();
      await api(t.app).as(stranger.token).get(`/admin/site-configs/${siteId}`).expect(403);
      await api(t.app).as(user.token).get(`/admin/site-configs/${siteId}`).expect(403);
    });

    it('a superadmin reads any site; an unknown one is 404', async () => {
      const { siteId } = await siteWithPeople();
      await api(t.app).as(root.token).get(`/admin/site-configs/${siteId}`).expect(200);
      await api(t.app).as(root.token).get(`/admin/site-configs/nope-${uid()}`).expect(404);
    });

    it('a superadmin lists every site, paged; admins may not', async () => {
      const { admin } = await siteWithPeople();
      await siteWithPeople();
      const first = await api(t.app).as(root.token).get('/admin/site-configs?limit=1').expect(200);
      expect(first.body).toHaveLength(1);
      const cursor = first.headers['x-next-cursor'];
      expect(cursor).toBe(first.body[0].id);
      const next = await api(t.app)
        .as(root.token)
        .get(`/admin/site-configs?limit=100&cursor=${cursor}`)
        .expect(200);
      expect(next.body.map((s: { id: string }) => s.id)).not.toContain(cursor);
      expectNoSecretIn(next.text);
      await api(t.app).as(root.token).get('/admin/site-configs?limit=101').expect(400);
      await api(t.app).as(admin.token).get('/admin/site-configs').expect(403);
    });
  });

  describe('updating', () => {
    async function stored(siteId: string): Promise<Record<string, string | null>> {
      const [row] = await t.db.query<Array<Record<string, string | null>>>(
        `SELECT * FROM site_configs WHERE site_id = $1`,
        [siteId],
      );
      return row;
    }

    it('an admin changes its site: omitted fields and secrets stay, null clears, new secrets replace', async () => {
      const { siteId, admin } = await siteWithPeople();
      const before = await stored(siteId);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${siteId}`, {
          display_name: 'Renamed',
          smtp_port: 2525,
          smtp_password: 'brand-new-pass-7777',
          analytics_api_key: null,
          domain: null,
        })
        .expect(200);
      expect(res.body).toMatchObject({
        site_id: siteId,
        display_name: 'Renamed',
        smtp_port: 2525,
        domain: null,
        smtp_host: 'smtp.example.com',
        smtp_password: '****7777',
        mailer_api_key: '****0002',
        contactsvc_api_key: '****0001',
        analytics_api_key: null,
      });
      expect(res.text).not.toContain('brand-new-pass-7777');
      const after = await stored(siteId);
      expect(after.mailer_api_key).toBe(before.mailer_api_key);
      expect(after.analytics_api_key).toBeNull();
      expect(decryptSecret(t.config.secretsKey, after.smtp_password ?? '')).toBe('brand-new-pass-7777');
    });

    it('keeps a secret sent back masked, as a form read from the API would', async () => {
      const { siteId, admin } = await siteWithPeople();
      const read = await api(t.app).as(admin.token).get(`/admin/site-configs/${siteId}`).expect(200);
      const {
        id: _id,
        site_id: _s,
        created_at: _c,
        updated_at: _u,
        ...settings
      } = read.body as Record<string, unknown>;
      const before = await stored(siteId);
      await api(t.app).as(admin.token).put(`/admin/site-configs/${siteId}`, settings).expect(200);
      const after = await stored(siteId);
      for (const field of Object.keys(SECRETS)) expect(after[field]).toBe(before[field]);
    });

    it('asks for the SMTP password again when the server it logs in to changes, so it never goes elsewhere', async () => {
      // An admin only ever sees the password masked; kept across a change of host, it would log in to
      // whatever server the admin names.
      const { siteId, admin } = await siteWithPeople();
      const before = await stored(siteId);
      const masked = (await api(t.app).as(admin.token).get(`/admin/site-configs/${siteId}`).expect(200)).body
        .smtp_password as string;
      for (const moved of [
        { smtp_host: '127.0.0.1', smtp_port: 2526 },
        { smtp_host: '127.0.0.1', smtp_password: masked },
        { smtp_port: 2526 },
        { smtp_username: 'someone-else' },
      ]) {
        const res = await api(t.app).as(admin.token).put(`/admin/site-configs/${siteId}`, moved).expect(422);
        expect(res.body).toMatchObject({
          code: 'SECRET_REQUIRED',
          errors: [{ field: 'smtp_password', message: expect.stringContaining('must be sent again') }],
        });
        expect(await stored(siteId)).toEqual(before);
      }
      // The host as it was, the password kept: nothing moves, nothing is asked.
      await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${siteId}`, { smtp_host: before.smtp_host, display_name: 'Same server' })
        .expect(200);
      // Sent again (or cleared) with the move, it is the admin's own to give.
      const moved = await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${siteId}`, {
          smtp_host: '127.0.0.1',
          smtp_password: 'their-own-pass-5555',
        })
        .expect(200);
      expect(moved.body).toMatchObject({ smtp_host: '127.0.0.1', smtp_password: '****5555' });
      await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${siteId}`, { smtp_host: 'smtp.example.com', smtp_password: null })
        .expect(200);
      expect(await stored(siteId)).toMatchObject({ smtp_host: 'smtp.example.com', smtp_password: null });
    });

    it('records who changed which settings, naming fields but never values', async () => {
      const { siteId, admin } = await siteWithPeople();
      await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${siteId}`, {
          mailer_api_key: 'xkeysib-rotated-5555',
          smtp_from_name: 'New',
        })
        .expect(200);
      const logs = await t.db.query<
        Array<{ user_id: string; metadata: { fields: string[] }; request_id: string }>
      >(
        `SELECT user_id, metadata, request_id FROM activity_logs WHERE site_id = $1 AND activity_type = 'site_config_updated'`,
        [siteId],
      );
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({
        user_id: admin.user.id,
        metadata: { fields: ['mailer_api_key', 'smtp_from_name'] },
      });
      expect(logs[0].request_id).toBeTruthy();
      expect(JSON.stringify(logs)).not.toContain('xkeysib-rotated-5555');
    });

    it('another site’s admin and users get 403; an unknown site is 404 for a superadmin', async () => {
      const { siteId, user, stranger } = await siteWithPeople();
      await api(t.app)
        .as(stranger.token)
        .put(`/admin/site-configs/${siteId}`, { display_name: 'Hijack' })
        .expect(403);
      await api(t.app)
        .as(user.token)
        .put(`/admin/site-configs/${siteId}`, { display_name: 'Mine' })
        .expect(403);
      await api(t.app)
        .as(root.token)
        .put(`/admin/site-configs/nope-${uid()}`, { display_name: 'N' })
        .expect(404);
      expect((await stored(siteId)).display_name).toBe('Example Prizes');
    });

    it('cannot change site_id, empty the name or break the provider', async () => {
      const { siteId, admin } = await siteWithPeople();
      const site = `/admin/site-configs/${siteId}`;
      await api(t.app).as(admin.token).put(site, { site_id: siteId }).expect(400);
      await api(t.app).as(admin.token).put(site, { display_name: null }).expect(400);
      await api(t.app).as(admin.token).put(site, { display_name: '' }).expect(400);
      await api(t.app).as(admin.token).put(site, { display_name: '  ' }).expect(400);
      await api(t.app).as(admin.token).put(site, { smtp_host: 'smtp.example.com:587' }).expect(400);
      await api(t.app).as(admin.token).put(site, { smtp_port: 70000 }).expect(400);
      const res = await api(t.app).as(admin.token).put(site, { smtp_host: null }).expect(422);
      expect(res.body.code).toBe('MAIL_SETTINGS_INCOMPLETE');
      await api(t.app).as(admin.token).put(site, { smtp_host: null, email_provider: 'log' }).expect(200);
    });
  });

  it('a wrong SECRETS_KEY stops the start-up with a message that names it', async () => {
    await expect(createTestApp({ secretsKey: Buffer.alloc(32, 9) })).rejects.toThrow(
      /SECRETS_KEY does not match the key this database was first started with/,
    );
  });
});
