import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { BRAND_FIELDS, TAG_FIELDS, codeBody, makeBrand, makeTag } from '../support/discounts';
import { type MadeUser, makeSite, makeUser, uid } from '../support/factories';

describe('discount brands and tags', () => {
  let t: TestApp;
  let siteA: string;
  let siteB: string;
  let adminA: MadeUser;
  let adminB: MadeUser;
  let userA: MadeUser;
  let superadmin: MadeUser;

  beforeAll(async () => {
    t = await createTestApp();
    [siteA, siteB] = await Promise.all([makeSite(t), makeSite(t)]);
    [adminA, adminB, userA, superadmin] = await Promise.all([
      makeUser(t, siteA, { role: 'admin' }),
      makeUser(t, siteB, { role: 'admin' }),
      makeUser(t, siteA),
      makeUser(t, siteB, { role: 'superadmin' }),
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('creating a brand', () => {
    it('lets an admin create a brand with every field, answered in full', async () => {
      const res = await api(t.app)
        .as(adminA.token)
        .post('/admin/discount-brands', {
          name: 'Acme Outdoor',
          slug: `acme-${uid()}`,
          description: 'Tents and more',
          collection_id: 'col-1',
          item_id: 'item-1',
          locale_id: 'en-GB',
          logo: 'https://cdn.example.com/acme.png',
          logo_black_and_white: 'https://cdn.example.com/acme-bw.png',
          thumbnail: 'https://cdn.example.com/acme-t.png',
          max_discount: 'Up to 40%',
          published_on: '2025-01-01T00:00:00Z',
          draft: false,
          archived: false,
        })
        .expect(201);
      expect(Object.keys(res.body).sort()).toEqual(BRAND_FIELDS);
      expect(res.body).toMatchObject({
        site_id: siteA,
        name: 'Acme Outdoor',
        max_discount: 'Up to 40%',
        published_on: '2025-01-01T00:00:00.000Z',
        draft: false,
        archived: false,
        discount_codes: [],
      });
      const [row] = await t.db.query('SELECT site_id, name FROM discount_brands WHERE id = $1', [
        res.body.id,
      ]);
      expect(row).toEqual({ site_id: siteA, name: 'Acme Outdoor' });
    });

    it('makes the slug from the name when none is given, and leaves empty fields null', async () => {
      const name = `Summer Sale ${uid()}`;
      const res = await api(t.app).as(adminA.token).post('/admin/discount-brands', { name }).expect(201);
      expect(res.body.slug).toBe(name.toLowerCase().replace(/ /g, '-'));
      expect(res.body).toMatchObject({ description: null, logo: null, published_on: null, draft: false });
    });

    it('refuses a slug the site already uses (409) but allows it on another site', async () => {
      const slug = `dup-${uid()}`;
      await makeBrand(t, adminA.token, { slug });
      const res = await api(t.app)
        .as(adminA.token)
        .post('/admin/discount-brands', { name: 'Other', slug })
        .expect(409);
      expect(res.body.code).toBe('SLUG_TAKEN');
      await makeBrand(t, adminB.token, { slug });
    });

    it.each([
      ['no name', {}],
      ['an empty name', { name: '' }],
      ['a name of the wrong type', { name: 42 }],
      ['a slug that is not lower-case hyphenated', { name: 'X', slug: 'Not A Slug' }],
      ['a published_on that is not a date-time', { name: 'X', published_on: 'soon' }],
      ['a draft that is not a boolean', { name: 'X', draft: 'yes' }],
      ['an unknown field', { name: 'X', colour: 'red' }],
    ])('refuses a brand with %s (400)', async (_case, body) => {
      const res = await api(t.app).as(adminA.token).post('/admin/discount-brands', body).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    });

    it('refuses a name that makes no slug without one (400)', async () => {
      const res = await api(t.app)
        .as(adminA.token)
        .post('/admin/discount-brands', { name: '!!!' })
        .expect(400);
      expect(res.body.errors).toEqual([{ field: 'slug', message: expect.any(String) }]);
    });

    it('needs a token (401) and the admin role (403)', async () => {
      await api(t.app).post('/admin/discount-brands', { name: 'X' }).expect(401);
      await api(t.app).as(userA.token).post('/admin/discount-brands', { name: 'X' }).expect(403);
    });

    it('refuses another site’s admin naming this site (403); a superadmin may', async () => {
      await api(t.app)
        .as(adminB.token)
        .post('/admin/discount-brands', { name: 'X', site_id: siteA })
        .expect(403);
      const res = await api(t.app)
        .as(superadmin.token)
        .post('/admin/discount-brands', { name: `Y ${uid()}`, site_id: siteA })
        .expect(201);
      expect(res.body.site_id).toBe(siteA);
    });

    it('answers 404 UNKNOWN_SITE when a superadmin names a site that does not exist', async () => {
      const res = await api(t.app)
        .as(superadmin.token)
        .post('/admin/discount-brands', { name: 'X', site_id: `nowhere-${uid()}` })
        .expect(404);
      expect(res.body.code).toBe('UNKNOWN_SITE');
    });
  });

  describe('listing brands', () => {
    let site: string;
    let admin: MadeUser;
    beforeAll(async () => {
      site = await makeSite(t);
      admin = await makeUser(t, site, { role: 'admin' });
    });

    it('lists published brands by name with their active codes masked, leaving out drafts and archived ones', async () => {
      const alpha = await makeBrand(t, admin.token, { name: 'Alpha' });
      await makeBrand(t, admin.token, { name: 'Beta (draft)', draft: true });
      await makeBrand(t, admin.token, { name: 'Gamma (archived)', archived: true });
      const zulu = await makeBrand(t, admin.token, { name: 'Zulu' });
      const shown = await api(t.app)
        .as(admin.token)
        .post('/discount-codes', codeBody(alpha.id, { code: 'ALPHA10' }))
        .expect(201);
      const hidden = await api(t.app).as(admin.token).post('/discount-codes', codeBody(alpha.id)).expect(201);
      await api(t.app)
        .as(admin.token)
        .put(`/discount-codes/${hidden.body.id}`, { active: false })
        .expect(200);

      const res = await api(t.app).get(`/discount-brands?site_id=${site}`).expect(200);
      expect(res.body.map((b: { name: string }) => b.name)).toEqual(['Alpha', 'Zulu']);
      const [a, z] = res.body;
      expect(Object.keys(a).sort()).toEqual(BRAND_FIELDS);
      expect(a.discount_codes).toHaveLength(1);
      expect(a.discount_codes[0]).toMatchObject({
        id: shown.body.id,
        code: null,
        code_display: '•••••••',
        discount_brand: null,
        discount_brand_id: alpha.id,
      });
      expect(z).toMatchObject({ id: zulu.id, discount_codes: [] });
    });

    it('pages with limit and X-Next-Cursor', async () => {
      const first = await api(t.app).get(`/discount-brands?site_id=${site}&limit=1`).expect(200);
      expect(first.body).toHaveLength(1);
      const cursor = first.headers['x-next-cursor'];
      expect(cursor).toBe(first.body[0].id);
      const second = await api(t.app)
        .get(`/discount-brands?site_id=${site}&limit=1&cursor=${cursor}`)
        .expect(200);
      expect(second.body.map((b: { name: string }) => b.name)).toEqual(['Zulu']);
    });

    it('takes the site from X-Site-Id or the token, and needs one (400)', async () => {
      const byHeader = await api(t.app).get('/discount-brands').set('X-Site-Id', site).expect(200);
      expect(byHeader.body).toHaveLength(2);
      const byToken = await api(t.app).as(admin.token).get('/discount-brands').expect(200);
      expect(byToken.body).toHaveLength(2);
      const res = await api(t.app).get('/discount-brands').expect(400);
      expect(res.body.errors[0].field).toBe('site_id');
    });

    it('refuses a bad cursor or limit (400), and a user naming another site (403)', async () => {
      await api(t.app).get(`/discount-brands?site_id=${site}&cursor=nope`).expect(400);
      await api(t.app).get(`/discount-brands?site_id=${site}&limit=0`).expect(400);
      await api(t.app).get(`/discount-brands?site_id=${site}&limit=101`).expect(400);
      await api(t.app).as(userA.token).get(`/discount-brands?site_id=${site}`).expect(403);
    });

    it('shows nothing of another site', async () => {
      const res = await api(t.app).get(`/discount-brands?site_id=${siteB}`).expect(200);
      expect(res.body.every((b: { site_id: string }) => b.site_id === siteB)).toBe(true);
    });
  });

  describe('tags', () => {
    it('lets an admin create a tag, active by default, answered in full', async () => {
      const res = await api(t.app)
        .as(adminA.token)
        .post('/admin/tags', { name: 'Outdoor Gear', description: 'Tents', color: '#1e88e5' })
        .expect(201);
      expect(Object.keys(res.body).sort()).toEqual(TAG_FIELDS);
      expect(res.body).toMatchObject({
        site_id: siteA,
        name: 'Outdoor Gear',
        slug: 'outdoor-gear',
        color: '#1e88e5',
        active: true,
      });
    });

    it('refuses a slug the site already uses (409)', async () => {
      const tag = await makeTag(t, adminA.token);
      const res = await api(t.app)
        .as(adminA.token)
        .post('/admin/tags', { name: 'X', slug: tag.slug })
        .expect(409);
      expect(res.body.code).toBe('SLUG_TAKEN');
    });

    it.each([
      ['no name', {}],
      ['an active that is not a boolean', { name: 'X', active: 'no' }],
      ['a colour longer than 32 characters', { name: 'X', color: 'x'.repeat(33) }],
      ['an unknown field', { name: 'X', weight: 3 }],
    ])('refuses a tag with %s (400)', async (_case, body) => {
      await api(t.app).as(adminA.token).post('/admin/tags', body).expect(400);
    });

    it('needs a token (401), the admin role (403) and the admin’s own site (403)', async () => {
      await api(t.app).post('/admin/tags', { name: 'X' }).expect(401);
      await api(t.app).as(userA.token).post('/admin/tags', { name: 'X' }).expect(403);
      await api(t.app).as(adminB.token).post('/admin/tags', { name: 'X', site_id: siteA }).expect(403);
    });

    it('lists the active tags of the site only, by name', async () => {
      const site = await makeSite(t);
      const admin = await makeUser(t, site, { role: 'admin' });
      await makeTag(t, admin.token, { name: 'Zeta' });
      await makeTag(t, admin.token, { name: 'Alpha' });
      await makeTag(t, admin.token, { name: 'Hidden', active: false });
      await makeTag(t, adminB.token, { name: 'Elsewhere' });
      const res = await api(t.app).get(`/tags?site_id=${site}`).expect(200);
      expect(res.body.map((x: { name: string }) => x.name)).toEqual(['Alpha', 'Zeta']);
      await api(t.app).get('/tags').expect(400);
    });
  });
});
