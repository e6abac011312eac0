import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import {
  DISCOUNT_CODE_FIELDS,
  type Named,
  bulkBody,
  codeBody,
  makeBrand,
  makeTag,
  without,
} from '../support/discounts';
import { type MadeUser, makeSite, makeUser } from '../support/factories';

const NIL = '00000000-0000-4000-8000-000000000000';

describe('discount codes (endpoint 7, reads, update, delete, endpoint 9)', () => {
  let t: TestApp;
  let siteA: string;
  let siteB: string;
  let adminA: MadeUser;
  let adminB: MadeUser;
  let userA: MadeUser;
  let superadmin: MadeUser;
  let brandA: Named;
  let brandB: Named;
  let tagA: Named;
  let tagA2: Named;
  let tagB: Named;

  const create = (body: object, token = adminA.token) => api(t.app).as(token).post('/discount-codes', body);

  beforeAll(async () => {
    t = await createTestApp();
    [siteA, siteB] = await Promise.all([makeSite(t), makeSite(t)]);
    [adminA, adminB, userA, superadmin] = await Promise.all([
      makeUser(t, siteA, { role: 'admin' }),
      makeUser(t, siteB, { role: 'admin' }),
      makeUser(t, siteA),
      makeUser(t, siteB, { role: 'superadmin' }),
    ]);
    brandA = await makeBrand(t, adminA.token);
    brandB = await makeBrand(t, adminB.token);
    tagA = await makeTag(t, adminA.token);
    tagA2 = await makeTag(t, adminA.token);
    tagB = await makeTag(t, adminB.token);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('creating a code (endpoint 7)', () => {
    it('creates a code from the required fields, with every spec field and the documented defaults', async () => {
      const res = await create(codeBody(brandA.id, { code: 'SUMMER20' })).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(DISCOUNT_CODE_FIELDS);
      expect(res.body).toMatchObject({
        site_id: siteA,
        title: 'Ten off',
        code: 'SUMMER20',
        code_display: 'SUMMER20',
        code_required: true,
        featured: false,
        active: true,
        is_bulk_code: false,
        allow_multiple_claims: false,
        alphanumeric: true,
        code_length: 8,
        current_uses: 0,
        max_uses: null,
        points_required: 100,
        discount_percentage: null,
        description: null,
        valid_from: null,
        valid_until: null,
        claimed_codes: [],
        has_claimed_code: false,
        is_valid: true,
        tags: [],
        discount_brand_id: brandA.id,
      });
      expect(res.body.discount_brand).toMatchObject({ id: brandA.id, site_id: siteA, discount_codes: null });
      const [row] = await t.db.query('SELECT code, site_id, deleted_at FROM discount_codes WHERE id = $1', [
        res.body.id,
      ]);
      expect(row).toEqual({ code: 'SUMMER20', site_id: siteA, deleted_at: null });
    });

    it('stores every optional field and links the tags', async () => {
      const body = codeBody(brandA.id, {
        code: '12345678',
        allow_multiple_claims: true,
        alphanumeric: false,
        code_required: false,
        featured: true,
        is_bulk_code: false,
        category: 'Outdoor',
        code_pattern: 'NNNNNNNN',
        description: 'Twenty off tents',
        partner_logo: 'https://cdn.example.com/p.png',
        partner_url: 'https://acme.example.com',
        terms: 'One per order',
        third_party_id: 'ext-1',
        thumbnail: 'https://cdn.example.com/t.png',
        valid_from: '2020-01-01T00:00:00Z',
        valid_until: '2099-12-31T23:59:59Z',
        code_length: 8,
        max_uses: 500,
        discount_percentage: 12.5,
        tag_ids: [tagA.id, tagA2.id, tagA.id],
      });
      const res = await create(body).expect(201);
      expect(res.body).toMatchObject({
        allow_multiple_claims: true,
        alphanumeric: false,
        code_required: false,
        featured: true,
        category: 'Outdoor',
        code_pattern: 'NNNNNNNN',
        terms: 'One per order',
        third_party_id: 'ext-1',
        valid_from: '2020-01-01T00:00:00.000Z',
        valid_until: '2099-12-31T23:59:59.000Z',
        max_uses: 500,
        discount_percentage: 12.5,
        is_valid: true,
      });
      expect(res.body.tags.map((x: Named) => x.id).sort()).toEqual([tagA.id, tagA2.id].sort());
      const links = await t.db.query('SELECT tag_id FROM discount_code_tags WHERE discount_code_id = $1', [
        res.body.id,
      ]);
      expect(links).toHaveLength(2);
    });

    it('lets several codes share a third_party_id', async () => {
      await create(codeBody(brandA.id, { third_party_id: 'shared-ext' })).expect(201);
      await create(codeBody(brandA.id, { third_party_id: 'shared-ext' })).expect(201);
    });

    it.each([0, 0.0, 100, 99.99])('accepts discount_percentage %p', async (value) => {
      const res = await create(codeBody(brandA.id, { discount_percentage: value })).expect(201);
      expect(res.body.discount_percentage).toBe(value);
    });

    it.each([-0.01, 100.01, '10', true])('refuses discount_percentage %p (400)', async (value) => {
      const res = await create(codeBody(brandA.id, { discount_percentage: value })).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('discount_percentage');
    });

    it.each([0, 1, 2147483647])('accepts points_required %p', async (value) => {
      const res = await create(codeBody(brandA.id, { points_required: value })).expect(201);
      expect(res.body.points_required).toBe(value);
    });

    it.each([-1, 1.5, '5', 2147483648])('refuses points_required %p (400)', async (value) => {
      const res = await create(codeBody(brandA.id, { points_required: value })).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('points_required');
    });

    it.each(['code', 'discount_brand_id', 'points_required', 'title'])(
      'refuses a body without %s (400 naming it)',
      async (field) => {
        const res = await create(without(codeBody(brandA.id), field)).expect(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      },
    );

    it.each([
      ['a numeric code', { code: 123 }],
      ['an empty code', { code: '' }],
      ['a code longer than 64 characters', { code: 'X'.repeat(65) }],
      ['a featured that is not a boolean', { featured: 'yes' }],
      ['tag_ids that are not an array', { tag_ids: 'x' }],
      ['a valid_from that is not a date-time', { valid_from: 'tomorrow' }],
      ['a max_uses of 0', { max_uses: 0 }],
      ['an unknown field', { colour: 'red' }],
      ['active, which endpoint 7 does not take', { active: false }],
      ['prefix, which endpoint 7 does not take', { prefix: 'X' }],
    ])('refuses %s (400)', async (_case, extra) => {
      await create(codeBody(brandA.id, extra)).expect(400);
    });

    it('refuses malformed JSON (400)', async () => {
      await api(t.app).as(adminA.token).post('/discount-codes', '{"code": ').expect(400);
    });

    it.each([
      ['an unknown brand', () => NIL],
      ['a malformed brand id', () => 'not-an-id'],
      ['another site’s brand', () => brandB.id],
    ])('refuses %s (422 UNKNOWN_DISCOUNT_BRAND)', async (_case, brand) => {
      const res = await create(codeBody(brand())).expect(422);
      expect(res.body.code).toBe('UNKNOWN_DISCOUNT_BRAND');
    });

    it('refuses an unknown tag or another site’s tag (422 UNKNOWN_TAG) and creates nothing', async () => {
      const before = await t.db.query('SELECT count(*)::int AS n FROM discount_codes WHERE site_id = $1', [
        siteA,
      ]);
      for (const tagIds of [[NIL], [tagA.id, tagB.id], ['nope']]) {
        const res = await create(codeBody(brandA.id, { tag_ids: tagIds })).expect(422);
        expect(res.body.code).toBe('UNKNOWN_TAG');
      }
      const after = await t.db.query('SELECT count(*)::int AS n FROM discount_codes WHERE site_id = $1', [
        siteA,
      ]);
      expect(after[0].n).toBe(before[0].n);
    });

    it('refuses a window that starts after it ends (422)', async () => {
      const res = await create(
        codeBody(brandA.id, { valid_from: '2030-01-02T00:00:00Z', valid_until: '2030-01-01T00:00:00Z' }),
      ).expect(422);
      expect(res.body.code).toBe('INVALID_VALIDITY_WINDOW');
    });

    it('refuses ISO 8601 dates nothing could store (400 naming the field) on create, bulk, update and brands', async () => {
      const unreadable = [
        '+2026-06-01T00:00:00Z',
        '2026-06-01T10:00:00,5Z',
        '2026-W23-1',
        '20260601',
        '2026-06-01T10Z',
      ];
      const fieldsOf = (body: unknown) =>
        (body as { errors: Array<{ field: string }> }).errors.map((e) => e.field);
      for (const d of unreadable) {
        const res = await create(codeBody(brandA.id, { valid_until: d })).expect(400);
        expect(fieldsOf(res.body)).toEqual(['valid_until']);
      }
      const id = ((await create(codeBody(brandA.id)).expect(201)).body as { id: string }).id;
      const admin = api(t.app).as(adminA.token);
      const answers = [
        await admin.post('/discount-codes/bulk-generate', bulkBody(brandA.id, { valid_from: '2026-W23-1' })),
        await admin.put(`/discount-codes/${id}`, { valid_until: '2026-W23-1' }),
        await admin.post('/admin/discount-brands', { name: 'Week brand', published_on: '2026-W23-1' }),
      ];
      expect(answers.map((a) => a.status)).toEqual([400, 400, 400]);
      // The forms a Date reads are still taken.
      await admin.put(`/discount-codes/${id}`, { valid_until: '2031-06-01T10:00:00.5+01:00' }).expect(200);
    });

    it('sends bulk codes to bulk-generate (422 USE_BULK_GENERATE)', async () => {
      const res = await create(codeBody(brandA.id, { is_bulk_code: true })).expect(422);
      expect(res.body.code).toBe('USE_BULK_GENERATE');
    });

    it('needs a token (401), the admin role (403) and the admin’s own site (403)', async () => {
      await api(t.app).post('/discount-codes', codeBody(brandA.id)).expect(401);
      await create(codeBody(brandA.id), userA.token).expect(403);
      await create(codeBody(brandA.id, { site_id: siteA }), adminB.token).expect(403);
      // Without naming the site, another site's admin acts on its own site, where brand A does not exist.
      await create(codeBody(brandA.id), adminB.token).expect(422);
    });

    it('lets a superadmin create a code on any site', async () => {
      const res = await create(codeBody(brandA.id, { site_id: siteA }), superadmin.token).expect(201);
      expect(res.body.site_id).toBe(siteA);
    });
  });

  describe('reading codes: masking and visibility', () => {
    let visible: { id: string; code: string };
    let inactive: { id: string };

    beforeAll(async () => {
      visible = (await create(codeBody(brandA.id, { code: 'SECRET42' })).expect(201)).body;
      inactive = (await create(codeBody(brandA.id)).expect(201)).body;
      await api(t.app).as(adminA.token).put(`/discount-codes/${inactive.id}`, { active: false }).expect(200);
    });

    it('hides the code from anonymous callers and users, leaving its length in bullets', async () => {
      for (const token of [undefined, userA.token]) {
        const res = await api(t.app)
          .as(token)
          .get(`/discount-codes/${visible.id}?site_id=${siteA}`)
          .expect(200);
        expect(Object.keys(res.body).sort()).toEqual(DISCOUNT_CODE_FIELDS);
        expect(res.body).toMatchObject({ code: null, code_display: '••••••••', has_claimed_code: false });
        expect(JSON.stringify(res.body)).not.toContain('SECRET42');
      }
    });

    it('shows the code to an admin of the site and to a superadmin', async () => {
      for (const token of [adminA.token, superadmin.token]) {
        const res = await api(t.app)
          .as(token)
          .get(`/discount-codes/${visible.id}?site_id=${siteA}`)
          .expect(200);
        expect(res.body).toMatchObject({ code: 'SECRET42', code_display: 'SECRET42' });
      }
    });

    it('finds a code by id alone, but not through another site (404)', async () => {
      await api(t.app).get(`/discount-codes/${visible.id}`).expect(200);
      await api(t.app).get(`/discount-codes/${visible.id}?site_id=${siteB}`).expect(404);
      await api(t.app).as(adminB.token).get(`/discount-codes/${visible.id}`).expect(404);
    });

    it('answers 404 for unknown and malformed ids', async () => {
      await api(t.app).get(`/discount-codes/${NIL}`).expect(404);
      await api(t.app).get('/discount-codes/not-an-id').expect(404);
    });

    it('shows an inactive code to admins only', async () => {
      await api(t.app).get(`/discount-codes/${inactive.id}`).expect(404);
      await api(t.app).as(userA.token).get(`/discount-codes/${inactive.id}`).expect(404);
      const res = await api(t.app).as(adminA.token).get(`/discount-codes/${inactive.id}`).expect(200);
      expect(res.body).toMatchObject({ active: false, is_valid: false });
    });

    it('refuses a bad token on the public reads (401) and a user naming another site (403)', async () => {
      await api(t.app).as('not-a-token').get(`/discount-codes/${visible.id}`).expect(401);
      await api(t.app).as(userA.token).get(`/discount-codes?site_id=${siteB}`).expect(403);
    });
  });

  describe('listing codes', () => {
    let site: string;
    let admin: MadeUser;
    let brand: Named;
    let otherBrand: Named;
    let tag: Named;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      site = await makeSite(t);
      admin = await makeUser(t, site, { role: 'admin' });
      brand = await makeBrand(t, admin.token);
      otherBrand = await makeBrand(t, admin.token);
      tag = await makeTag(t, admin.token);
      const make = async (name: string, extra: object): Promise<void> => {
        ids[name] = (
          await create(codeBody(brand.id, { title: name, ...extra }), admin.token).expect(201)
        ).body.id;
      };
      await make('plain', {});
      await make('featured', { featured: true, tag_ids: [tag.id] });
      await make('other-brand', { discount_brand_id: otherBrand.id, tag_ids: [tag.id] });
      await make('inactive', {});
      await api(t.app).as(admin.token).put(`/discount-codes/${ids.inactive}`, { active: false }).expect(200);
    });

    const titles = (body: Array<{ title: string }>): string[] => body.map((c) => c.title);

    it('lists the site’s active codes newest first, masked, each with its brand and tags', async () => {
      const res = await api(t.app).get(`/discount-codes?site_id=${site}`).expect(200);
      expect(titles(res.body)).toEqual(['other-brand', 'featured', 'plain']);
      for (const c of res.body) {
        expect(Object.keys(c).sort()).toEqual(DISCOUNT_CODE_FIELDS);
        expect(c.code).toBeNull();
        expect(c.discount_brand.id).toBe(c.discount_brand_id);
      }
      expect(res.body[1].tags.map((x: Named) => x.id)).toEqual([tag.id]);
    });

    it('lists inactive codes too, with their text, for an admin of the site', async () => {
      const res = await api(t.app).as(admin.token).get('/discount-codes').expect(200);
      expect(titles(res.body)).toEqual(['inactive', 'other-brand', 'featured', 'plain']);
      expect(res.body.every((c: { code: string | null }) => c.code !== null)).toBe(true);
    });

    it('filters by tag (slug or id), brand (slug or id) and featured', async () => {
      const get = async (q: string): Promise<string[]> =>
        titles((await api(t.app).get(`/discount-codes?site_id=${site}&${q}`).expect(200)).body);
      expect(await get(`tag=${tag.slug}`)).toEqual(['other-brand', 'featured']);
      expect(await get(`tag=${tag.id}`)).toEqual(['other-brand', 'featured']);
      expect(await get(`brand=${otherBrand.slug}`)).toEqual(['other-brand']);
      expect(await get(`brand=${brand.id}`)).toEqual(['featured', 'plain']);
      expect(await get('featured=true')).toEqual(['featured']);
      expect(await get('featured=false')).toEqual(['other-brand', 'plain']);
      expect(await get(`tag=${tag.slug}&brand=${brand.slug}&featured=true`)).toEqual(['featured']);
      expect(await get('tag=no-such-tag')).toEqual([]);
      expect(await get(`brand=${brandA.id}`)).toEqual([]);
    });

    it('refuses a featured that is not true or false, an unknown parameter and a bad cursor (400)', async () => {
      await api(t.app).get(`/discount-codes?site_id=${site}&featured=yes`).expect(400);
      await api(t.app).get(`/discount-codes?site_id=${site}&colour=red`).expect(400);
      await api(t.app).get(`/discount-codes?site_id=${site}&cursor=abc`).expect(400);
    });

    it('pages with limit and X-Next-Cursor without repeating or skipping a code', async () => {
      const first = await api(t.app).get(`/discount-codes?site_id=${site}&limit=2`).expect(200);
      expect(titles(first.body)).toEqual(['other-brand', 'featured']);
      expect(first.headers.link).toContain('cursor=');
      const next = first.headers['x-next-cursor'];
      const second = await api(t.app)
        .get(`/discount-codes?site_id=${site}&limit=2&cursor=${next}`)
        .expect(200);
      expect(titles(second.body)).toEqual(['plain']);
      expect(second.headers['x-next-cursor']).toBeUndefined();
    });

    it('needs a site (400)', async () => {
      await api(t.app).get('/discount-codes').expect(400);
    });
  });

  describe('is_valid', () => {
    const validity = async (extra: object, sql?: string): Promise<boolean> => {
      const res = await create(codeBody(brandA.id, extra)).expect(201);
      if (!sql) return res.body.is_valid as boolean;
      await t.db.query(sql, [res.body.id]);
      const read = await api(t.app).as(adminA.token).get(`/discount-codes/${res.body.id}`).expect(200);
      return read.body.is_valid as boolean;
    };

    it('holds inside the window and fails before it starts or after it ends', async () => {
      expect(
        await validity({ valid_from: '2000-01-01T00:00:00Z', valid_until: '2999-01-01T00:00:00Z' }),
      ).toBe(true);
      expect(await validity({ valid_from: '2999-01-01T00:00:00Z' })).toBe(false);
      expect(await validity({ valid_until: '2000-01-01T00:00:00Z' })).toBe(false);
    });

    it('reads a date alone in valid_until as the whole of that day (UTC)', async () => {
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      const today = await create(codeBody(brandA.id, { valid_until: day(0) })).expect(201);
      expect(today.body).toMatchObject({ is_valid: true, valid_until: `${day(0)}T23:59:59.999Z` });
      expect(await validity({ valid_until: day(-1) })).toBe(false);
      const id = (today.body as { id: string }).id;
      const admin = api(t.app).as(adminA.token);
      const moved = await admin.put(`/discount-codes/${id}`, { valid_until: day(-1) }).expect(200);
      expect(moved.body).toMatchObject({ is_valid: false, valid_until: `${day(-1)}T23:59:59.999Z` });
    });

    it('fails once max_uses is reached', async () => {
      expect(
        await validity({ max_uses: 2 }, 'UPDATE discount_codes SET current_uses = 1 WHERE id = $1'),
      ).toBe(true);
      expect(
        await validity({ max_uses: 2 }, 'UPDATE discount_codes SET current_uses = 2 WHERE id = $1'),
      ).toBe(false);
    });
  });

  describe('endpoint 9: a code with the current user’s claims', () => {
    it('answers the code with no claims and the text hidden, until claims exist', async () => {
      const code = (await create(codeBody(brandA.id)).expect(201)).body;
      const res = await api(t.app).as(userA.token).get(`/discount-codes/${code.id}/with-claims`).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(DISCOUNT_CODE_FIELDS);
      expect(res.body).toMatchObject({ id: code.id, claimed_codes: [], has_claimed_code: false, code: null });
    });

    it('shows an admin the text', async () => {
      const code = (await create(codeBody(brandA.id, { code: 'ADMINSEE' })).expect(201)).body;
      const res = await api(t.app).as(adminA.token).get(`/discount-codes/${code.id}/with-claims`).expect(200);
      expect(res.body.code).toBe('ADMINSEE');
    });

    it('needs a token (401) and answers 404 for another site’s, unknown or malformed codes', async () => {
      const code = (await create(codeBody(brandA.id)).expect(201)).body;
      await api(t.app).get(`/discount-codes/${code.id}/with-claims`).expect(401);
      const userB = await makeUser(t, siteB);
      await api(t.app).as(userB.token).get(`/discount-codes/${code.id}/with-claims`).expect(404);
      await api(t.app).as(userA.token).get(`/discount-codes/${NIL}/with-claims`).expect(404);
      await api(t.app).as(userA.token).get('/discount-codes/xyz/with-claims').expect(404);
    });
  });

  describe('updating a code', () => {
    it('changes only the fields sent, clears with null and replaces the tags', async () => {
      const code = (
        await create(codeBody(brandA.id, { description: 'old', category: 'c', tag_ids: [tagA.id] })).expect(
          201,
        )
      ).body;
      const res = await api(t.app)
        .as(adminA.token)
        .put(`/discount-codes/${code.id}`, {
          title: 'New title',
          featured: true,
          description: null,
          discount_percentage: 0,
          points_required: 0,
          tag_ids: [tagA2.id],
          code: 'NEWCODE1',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        title: 'New title',
        featured: true,
        description: null,
        category: 'c',
        discount_percentage: 0,
        points_required: 0,
        code: 'NEWCODE1',
      });
      expect(res.body.tags.map((x: Named) => x.id)).toEqual([tagA2.id]);
      expect(new Date(res.body.updated_at).getTime()).toBeGreaterThanOrEqual(
        new Date(code.updated_at).getTime(),
      );
      const [row] = await t.db.query('SELECT title, code, description FROM discount_codes WHERE id = $1', [
        code.id,
      ]);
      expect(row).toEqual({ title: 'New title', code: 'NEWCODE1', description: null });
    });

    it('moves a code to another brand of the site, and refuses another site’s brand (422)', async () => {
      const code = (await create(codeBody(brandA.id)).expect(201)).body;
      const other = await makeBrand(t, adminA.token);
      const res = await api(t.app)
        .as(adminA.token)
        .put(`/discount-codes/${code.id}`, { discount_brand_id: other.id })
        .expect(200);
      expect(res.body.discount_brand.id).toBe(other.id);
      await api(t.app)
        .as(adminA.token)
        .put(`/discount-codes/${code.id}`, { discount_brand_id: brandB.id })
        .expect(422);
      await api(t.app)
        .as(adminA.token)
        .put(`/discount-codes/${code.id}`, { tag_ids: [tagB.id] })
        .expect(422);
    });

    it.each([
      ['points_required -1', { points_required: -1 }],
      ['discount_percentage 100.01', { discount_percentage: 100.01 }],
      ['discount_percentage -0.01', { discount_percentage: -0.01 }],
      ['a null title', { title: null }],
      ['a null points_required', { points_required: null }],
      ['an active that is not a boolean', { active: 1 }],
      ['an unknown field', { is_bulk_code: true }],
    ])('refuses %s (400)', async (_case, body) => {
      const code = (await create(codeBody(brandA.id)).expect(201)).body;
      await api(t.app).as(adminA.token).put(`/discount-codes/${code.id}`, body).expect(400);
    });

    it('refuses a window that would start after it ends (422)', async () => {
      const code = (await create(codeBody(brandA.id, { valid_until: '2030-01-01T00:00:00Z' })).expect(201))
        .body;
      const res = await api(t.app)
        .as(adminA.token)
        .put(`/discount-codes/${code.id}`, { valid_from: '2031-01-01T00:00:00Z' })
        .expect(422);
      expect(res.body.code).toBe('INVALID_VALIDITY_WINDOW');
    });

    it('needs a token (401), the admin role (403), the admin’s site (403 naming it, 404 otherwise)', async () => {
      const code = (await create(codeBody(brandA.id)).expect(201)).body;
      const path = `/discount-codes/${code.id}`;
      await api(t.app).put(path, { title: 'x' }).expect(401);
      await api(t.app).as(userA.token).put(path, { title: 'x' }).expect(403);
      await api(t.app).as(adminB.token).put(path, { title: 'x', site_id: siteA }).expect(403);
      await api(t.app).as(adminB.token).put(path, { title: 'x' }).expect(404);
      await api(t.app).as(adminA.token).put(`/discount-codes/${NIL}`, { title: 'x' }).expect(404);
    });
  });

  describe('deleting a code', () => {
    it('removes it from every read but keeps the row (soft delete), once', async () => {
      const code = (await create(codeBody(brandA.id, { title: 'To delete' })).expect(201)).body;
      await api(t.app).as(adminA.token).delete(`/discount-codes/${code.id}`).expect(204);
      await api(t.app).get(`/discount-codes/${code.id}`).expect(404);
      await api(t.app).as(adminA.token).get(`/discount-codes/${code.id}`).expect(404);
      await api(t.app).as(userA.token).get(`/discount-codes/${code.id}/with-claims`).expect(404);
      await api(t.app).as(adminA.token).put(`/discount-codes/${code.id}`, { title: 'x' }).expect(404);
      const list = await api(t.app).as(adminA.token).get('/discount-codes?limit=100').expect(200);
      expect(list.body.map((c: { id: string }) => c.id)).not.toContain(code.id);
      const [row] = await t.db.query('SELECT deleted_at FROM discount_codes WHERE id = $1', [code.id]);
      expect(row.deleted_at).toBeInstanceOf(Date);
      await api(t.app).as(adminA.token).delete(`/discount-codes/${code.id}`).expect(404);
    });

    it('needs a token (401), the admin role (403) and the admin’s site (403 naming it, 404 otherwise)', async () => {
      const code = (await create(codeBody(brandA.id)).expect(201)).body;
      const path = `/discount-codes/${code.id}`;
      await api(t.app).delete(path).expect(401);
      await api(t.app).as(userA.token).delete(path).expect(403);
      await api(t.app).as(adminB.token).delete(`${path}?site_id=${siteA}`).expect(403);
      await api(t.app).as(adminB.token).delete(path).expect(404);
      await api(t.app).as(adminA.token).delete('/discount-codes/nope').expect(404);
      await api(t.app).as(adminA.token).get(path).expect(200);
    });
  });
});
