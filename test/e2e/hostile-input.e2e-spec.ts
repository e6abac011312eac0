import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { codeBody, makeBrand } from '../support/discounts';
import { DEFAULT_PASSWORD, makeSite, makeUser, type MadeUser, uid } from '../support/factories';
import { raffleBody } from '../support/raffles';

/** Issue 15's findings on hostile input: each mended, each with its test. */
describe('hostile input (issue 15 findings)', () => {
  let t: TestApp;
  let site: string;
  let admin: MadeUser;
  let brandId: string;

  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
    admin = await makeUser(t, site, { role: 'admin' });
    brandId = (await makeBrand(t, admin.token)).id;
  });
  afterAll(() => t.close());

  const count = async (table: string): Promise<number> =>
    (await t.db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const fieldsOf = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);
  const HOSTILE = [
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
  ];

  describe('one URL rule for every URL field: http(s) only', () => {
    it.each(['partner_url', 'partner_logo', 'thumbnail'])(
      'refuses hostile discount-code %s',
      async (field) => {
        const before = await count('discount_codes');
        for (const url of HOSTILE) {
          const res = await api(t.app)
            .as(admin.token)
            .post('/discount-codes', codeBody(brandId, { [field]: url }))
            .expect(400);
          expect(fieldsOf(res.body)).toContain(field);
        }
        expect(await count('discount_codes')).toBe(before);
        await api(t.app)
          .as(admin.token)
          .post('/discount-codes', codeBody(brandId, { [field]: 'https://cdn.example.com/x.png' }))
          .expect(201);
      },
    );

    it.each(['logo', 'logo_black_and_white', 'thumbnail'])('refuses a hostile brand %s', async (field) => {
      const res = await api(t.app)
        .as(admin.token)
        .post('/admin/discount-brands', { name: `Brand ${uid()}`, [field]: HOSTILE[0] })
        .expect(400);
      expect(fieldsOf(res.body)).toContain(field);
    });

    it('refuses a hostile raffle main_image and any hostile URL in image_gallery', async () => {
      const before = await count('raffles');
      for (const over of [
        { main_image: HOSTILE[0] },
        { image_gallery: `https://cdn.example.com/a.png, ${HOSTILE[0]}` },
        { image_gallery: JSON.stringify(['https://cdn.example.com/a.png', HOSTILE[1]]) },
      ]) {
        const res = await api(t.app).as(admin.token).post('/admin/raffles', raffleBody(over)).expect(400);
        expect(fieldsOf(res.body)).toContain(Object.keys(over)[0]);
      }
      expect(await count('raffles')).toBe(before);
      await api(t.app)
        .as(admin.token)
        .post(
          '/admin/raffles',
          raffleBody({
            main_image: 'https://cdn.example.com/van.jpg',
            image_gallery: 'https://cdn.example.com/1.jpg https://cdn.example.com/2.jpg',
          }),
        )
        .expect(201);
    });
  });

  describe('names that reach e-mails are one line', () => {
    const INJECTED = ['Jane\r\nBcc: victim@example.com', 'Jane\nDoe', 'Jane\u0000', 'Jane\u2028Doe'];

    it('refuses control characters in a registration name, and registers nobody', async () => {
      for (const name of INJECTED) {
        const email = `inj-${uid()}@example.com`;
        const res = await api(t.app)
          .post('/auth/register', {
            email,
            password: DEFAULT_PASSWORD,
            site_id: site,
            name,
            data_processing_consent: true,
            age_confirmed: true,
          })
          .expect(400);
        expect(fieldsOf(res.body)).toContain('name');
        expect(await t.db.query(`SELECT 1 FROM users WHERE email = $1`, [email])).toEqual([]);
      }
    });

    it('refuses them in profile names', async () => {
      const user = await makeUser(t, site);
      const res = await api(t.app)
        .as(user.token)
        .put('/users/profile', { profile: { first_name: INJECTED[0], last_name: INJECTED[1] } })
        .expect(400);
      expect(fieldsOf(res.body).join(' ')).toMatch(/first_name/);
    });

    it('refuses them in a site’s display_name and smtp_from_name', async () => {
      for (const body of [{ display_name: INJECTED[0] }, { smtp_from_name: INJECTED[1] }]) {
        const res = await api(t.app).as(admin.token).put(`/admin/site-configs/${site}`, body).expect(400);
        expect(fieldsOf(res.body)).toContain(Object.keys(body)[0]);
      }
      await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${site}`, { display_name: 'Fine Prizes' })
        .expect(200);
    });
  });

  describe('additional_settings is bounded', () => {
    const nested = (depth: number): Record<string, unknown> => {
      let v: Record<string, unknown> = { leaf: true };
      for (let i = 1; i < depth; i++) v = { n: v };
      return v;
    };

    it('takes 8 levels, refuses 9 and more than 64 KB, changing nothing', async () => {
      await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${site}`, { additional_settings: nested(8) })
        .expect(200);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${site}`, { additional_settings: nested(9) })
        .expect(400);
      expect(fieldsOf(res.body)).toContain('additional_settings');
      await api(t.app)
        .as(admin.token)
        .put(`/admin/site-configs/${site}`, { additional_settings: { blob: 'x'.repeat(70 * 1024) } })
        .expect(400);
      const [row] = await t.db.query<Array<{ additional_settings: Record<string, unknown> }>>(
        `SELECT additional_settings FROM site_configs WHERE site_id = $1`,
        [site],
      );
      expect(row.additional_settings).toEqual(nested(8));
    });
  });

  describe('one address, however it is written, is one account', () => {
    const register = (email: string) =>
      api(t.app).post('/auth/register', {
        email,
        password: DEFAULT_PASSWORD,
        site_id: site,
        data_processing_consent: true,
        age_confirmed: true,
      });

    it('refuses a second account for an address written with a combining accent, and signs the first in by it', async () => {
      const local = `jos-${uid()}`;
      const composed = `${local}\u00e9@example.com`; // "é" as one character
      const decomposed = `${local}e\u0301@example.com`; // "e" and a combining acute accent
      const first = await register(composed).expect(201);
      const second = await register(decomposed.toUpperCase()).expect(409);
      expect(second.body.code).toBe('EMAIL_TAKEN');
      const rows = await t.db.query<Array<{ id: string }>>(
        `SELECT id FROM users WHERE site_id = $1 AND email_normalized = $2`,
        [site, composed],
      );
      expect(rows).toEqual([{ id: first.body.user.id }]);
      const login = await api(t.app)
        .post('/auth/login', { email: decomposed, password: DEFAULT_PASSWORD, site_id: site })
        .expect(200);
      const me = await api(t.app).as(login.body.access_token).get('/users/me').expect(200);
      expect(me.body.id).toBe(first.body.user.id);
      const found = await api(t.app)
        .as(admin.token)
        .get(`/admin/users?email=${encodeURIComponent(decomposed)}`)
        .expect(200);
      expect(found.body.map((u: { id: string }) => u.id)).toEqual([first.body.user.id]);
    });
  });

  it('serves the console with a Content-Security-Policy that loads only its own scripts', async () => {
    const res = await api(t.app).get('/docs/').expect(200);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });
});

describe('private hosts in a site’s settings (production)', () => {
  let t: TestApp;
  let site: string;
  let admin: MadeUser;

  beforeAll(async () => {
    t = await createTestApp({ nodeEnv: 'production', allowedPrivateHosts: ['10.0.0.7'] });
    site = await makeSite(t);
    admin = await makeUser(t, site, { role: 'admin' });
  });
  afterAll(() => t.close());

  it.each([
    ['smtp_host', '127.0.0.1'],
    ['smtp_host', 'localhost'],
    ['frontend_url', 'http://169.254.169.254/latest/meta-data/'],
    ['frontend_url', 'http://10.0.0.5/'],
    ['frontend_url', 'http://[::1]:8080/'],
    // IPv4-mapped, which a URL's host reads as `::ffff:a9fe:a9fe`: the dotted spelling alone was checked.
    ['frontend_url', 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
    ['frontend_url', 'http://[::ffff:127.0.0.1]:8080/'],
    ['frontend_url', 'http://[::ffff:10.0.0.5]/'],
    ['smtp_host', '::ffff:a9fe:a9fe'],
  ])('refuses %s %s', async (field, value) => {
    const res = await api(t.app)
      .as(admin.token)
      .put(`/admin/site-configs/${site}`, { [field]: value })
      .expect(400);
    expect(res.body.errors).toEqual([
      { field, message: `${field} must not name a loopback, link-local or private address` },
    ]);
  });

  it('lets a public host and a listed private one through', async () => {
    await api(t.app)
      .as(admin.token)
      .put(`/admin/site-configs/${site}`, {
        frontend_url: 'https://203.0.113.10/',
        smtp_host: '10.0.0.7',
      })
      .expect(200);
    // An IPv6 SMTP host is named without brackets, and a public one is let through.
    await api(t.app)
      .as(admin.token)
      .put(`/admin/site-configs/${site}`, { smtp_host: '2001:4860:4860::8888' })
      .expect(200);
  });
});
