import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import {
  DISCOUNT_CODE_FIELDS,
  type Named,
  bulkBody,
  codeBody,
  makeBrand,
  makeTag,
  claimFor,
  uniqueCodesOf,
  without,
} from '../support/discounts';
import { type MadeUser, makeSite, makeUser, uid } from '../support/factories';

const NIL = '00000000-0000-4000-8000-000000000000';
const ALNUM = '[A-HJ-NP-Z2-9]';

describe('bulk discount codes (endpoint 8), their CSV export and claims read side', () => {
  let t: TestApp;
  let siteA: string;
  let siteB: string;
  let adminA: MadeUser;
  let adminB: MadeUser;
  let userA: MadeUser;
  let brandA: Named;
  let tagA: Named;
  let tagB: Named;

  const generate = (body: object, token = adminA.token) =>
    api(t.app).as(token).post('/discount-codes/bulk-generate', body);

  beforeAll(async () => {
    t = await createTestApp();
    [siteA, siteB] = await Promise.all([makeSite(t), makeSite(t)]);
    [adminA, adminB, userA] = await Promise.all([
      makeUser(t, siteA, { role: 'admin' }),
      makeUser(t, siteB, { role: 'admin' }),
      makeUser(t, siteA),
    ]);
    brandA = await makeBrand(t, adminA.token);
    tagA = await makeTag(t, adminA.token);
    tagB = await makeTag(t, adminB.token);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('generating', () => {
    it('makes exactly count distinct codes of prefix and unambiguous characters, stored on the site', async () => {
      const prefix = `P${uid().toUpperCase()}-`;
      const res = await generate(
        bulkBody(brandA.id, { prefix, count: 500, code_length: 10, tag_ids: [tagA.id] }),
      ).expect(201);
      expect(Object.keys(res.body).sort()).toEqual([...DISCOUNT_CODE_FIELDS, 'generated_count'].sort());
      expect(res.body).toMatchObject({
        generated_count: 500,
        is_bulk_code: true,
        code: null,
        code_display: `${prefix}••••••••••`,
        code_pattern: `${prefix}##########`,
        code_length: 10,
        code_required: true,
        alphanumeric: true,
        active: true,
        featured: false,
        is_valid: true,
        claimed_codes: [],
        has_claimed_code: false,
        site_id: siteA,
      });
      expect(res.body.tags.map((x: Named) => x.id)).toEqual([tagA.id]);
      const codes = await uniqueCodesOf(t, res.body.id);
      expect(codes).toHaveLength(500);
      expect(new Set(codes).size).toBe(500);
      const shape = new RegExp(`^${prefix}${ALNUM}{10}$`);
      for (const c of codes) expect(c).toMatch(shape);
      const [sites] = await t.db.query(
        'SELECT array_agg(DISTINCT site_id) AS s FROM discount_unique_codes WHERE discount_code_id = $1',
        [res.body.id],
      );
      expect(sites.s).toEqual([siteA]);
    });

    it('makes digit-only codes when alphanumeric is false, and takes no prefix', async () => {
      const res = await generate(
        bulkBody(brandA.id, { alphanumeric: false, code_length: 12, count: 50 }),
      ).expect(201);
      expect(res.body).toMatchObject({
        alphanumeric: false,
        code_display: '••••••••••••',
        generated_count: 50,
      });
      const codes = await uniqueCodesOf(t, res.body.id);
      expect(codes).toHaveLength(50);
      for (const c of codes) expect(c).toMatch(/^[0-9]{12}$/);
    });

    it('stores the optional fields, active false among them', async () => {
      const res = await generate(
        bulkBody(brandA.id, {
          active: false,
          featured: true,
          allow_multiple_claims: true,
          category: 'Gifts',
          description: 'd',
          partner_logo: 'https://cdn.example.com/l.png',
          partner_url: 'https://p.example.com',
          terms: 't',
          third_party_id: 'ext',
          thumbnail: 'https://cdn.example.com/t.png',
          valid_from: '2020-01-01T00:00:00Z',
          valid_until: '2099-01-01T00:00:00Z',
          discount_percentage: 0,
          max_uses: 3,
        }),
      ).expect(201);
      expect(res.body).toMatchObject({
        active: false,
        featured: true,
        allow_multiple_claims: true,
        category: 'Gifts',
        third_party_id: 'ext',
        discount_percentage: 0,
        max_uses: 3,
        is_valid: false,
        valid_until: '2099-01-01T00:00:00.000Z',
      });
    });

    it.each([
      ['code_length 4', { code_length: 4 }],
      ['code_length 32', { code_length: 32 }],
      ['count 1', { count: 1 }],
      ['points_required 0', { points_required: 0 }],
      ['discount_percentage 0', { discount_percentage: 0 }],
      ['discount_percentage 100', { discount_percentage: 100 }],
    ])('accepts %s', async (_case, extra) => {
      const res = await generate(bulkBody(brandA.id, extra)).expect(201);
      const codes = await uniqueCodesOf(t, res.body.id);
      expect(codes).toHaveLength(res.body.generated_count);
      expect(codes[0]).toHaveLength(res.body.code_length);
    });

    it('generates the largest batch, 10,000 codes, all distinct', async () => {
      const res = await generate(bulkBody(brandA.id, { count: 10000, code_length: 8, prefix: 'BIG' })).expect(
        201,
      );
      expect(res.body.generated_count).toBe(10000);
      const [row] = await t.db.query(
        'SELECT count(*)::int AS n, count(DISTINCT code)::int AS d FROM discount_unique_codes WHERE discount_code_id = $1',
        [res.body.id],
      );
      expect(row).toEqual({ n: 10000, d: 10000 });
    });

    it.each([
      ['code_length 3', { code_length: 3 }, 'code_length'],
      ['code_length 33', { code_length: 33 }, 'code_length'],
      ['code_length 4.5', { code_length: 4.5 }, 'code_length'],
      ['code_length "8"', { code_length: '8' }, 'code_length'],
      ['count 0', { count: 0 }, 'count'],
      ['count 10001', { count: 10001 }, 'count'],
      ['count "5"', { count: '5' }, 'count'],
      ['points_required -1', { points_required: -1 }, 'points_required'],
      ['discount_percentage -0.01', { discount_percentage: -0.01 }, 'discount_percentage'],
      ['discount_percentage 100.01', { discount_percentage: 100.01 }, 'discount_percentage'],
      ['a prefix with a space', { prefix: 'SAVE 10' }, 'prefix'],
      ['a prefix starting with -', { prefix: '-SAVE' }, 'prefix'],
      ['a prefix longer than 32', { prefix: 'P'.repeat(33) }, 'prefix'],
      ['an active that is not a boolean', { active: 'true' }, 'active'],
      ['code, which endpoint 8 does not take', { code: 'X' }, 'code'],
      ['code_required, which endpoint 8 does not take', { code_required: false }, 'code_required'],
      ['an unknown field', { colour: 'red' }, 'colour'],
    ])('refuses %s (400 naming the field)', async (_case, extra, field) => {
      const res = await generate(bulkBody(brandA.id, extra)).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it.each(['code_length', 'count', 'discount_brand_id', 'points_required', 'title'])(
      'refuses a body without %s (400)',
      async (field) => {
        const res = await generate(without(bulkBody(brandA.id), field)).expect(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      },
    );

    it('refuses more than 1% of the code space, counting the codes of that shape already there (422)', async () => {
      const prefix = `D${uid()}`;
      const digits = { alphanumeric: false, code_length: 4, prefix };
      const tooMany = await generate(bulkBody(brandA.id, { ...digits, count: 101 })).expect(422);
      expect(tooMany.body.code).toBe('CODE_SPACE_TOO_SMALL');
      await generate(bulkBody(brandA.id, { ...digits, count: 60 })).expect(201);
      const full = await generate(bulkBody(brandA.id, { ...digits, count: 41 })).expect(422);
      expect(full.body.code).toBe('CODE_SPACE_TOO_SMALL');
      expect(full.body.detail).toContain('60 exist already');
      await generate(bulkBody(brandA.id, { ...digits, count: 40 })).expect(201);
      // Another prefix is another space.
      await generate(bulkBody(brandA.id, { ...digits, prefix: `E${uid()}`, count: 100 })).expect(201);
    });

    it('creates nothing when it refuses', async () => {
      const title = `refused-${uid()}`;
      await generate(bulkBody(brandA.id, { title, alphanumeric: false, code_length: 4, count: 101 })).expect(
        422,
      );
      await generate(bulkBody(brandA.id, { title, tag_ids: [tagB.id] })).expect(422);
      const rows = await t.db.query('SELECT id FROM discount_codes WHERE title = $1', [title]);
      expect(rows).toEqual([]);
    });

    it('refuses an unknown brand or another site’s tag (422)', async () => {
      expect((await generate(bulkBody(NIL)).expect(422)).body.code).toBe('UNKNOWN_DISCOUNT_BRAND');
      expect((await generate(bulkBody(brandA.id, { tag_ids: [tagB.id] })).expect(422)).body.code).toBe(
        'UNKNOWN_TAG',
      );
    });

    it('needs a token (401), the admin role (403) and the admin’s own site (403)', async () => {
      await api(t.app).post('/discount-codes/bulk-generate', bulkBody(brandA.id)).expect(401);
      await generate(bulkBody(brandA.id), userA.token).expect(403);
      await generate(bulkBody(brandA.id, { site_id: siteA }), adminB.token).expect(403);
    });

    it('never hands two concurrent requests on one site the same code, even in a small code space', async () => {
      const site = await makeSite(t);
      const admin = await makeUser(t, site, { role: 'admin' });
      const brand = await makeBrand(t, admin.token);
      const small = { alphanumeric: false, code_length: 4, prefix: 'C', count: 50 };
      const [a, b] = await Promise.all([
        generate(bulkBody(brand.id, small), admin.token),
        generate(bulkBody(brand.id, small), admin.token),
      ]);
      expect([a.status, b.status]).toEqual([201, 201]);
      const [row] = await t.db.query(
        'SELECT count(*)::int AS n, count(DISTINCT code)::int AS d FROM discount_unique_codes WHERE site_id = $1',
        [site],
      );
      expect(row).toEqual({ n: 100, d: 100 });
      expect(await uniqueCodesOf(t, a.body.id)).toHaveLength(50);
      expect(await uniqueCodesOf(t, b.body.id)).toHaveLength(50);
    });
  });

  describe('claims read side and validity of a bulk code', () => {
    it('shows a user its claimed code, hides it from others, and lists it in claimed_codes', async () => {
      const bulk = (await generate(bulkBody(brandA.id, { prefix: 'CL' })).expect(201)).body;
      const claimed = await claimFor(t, adminA.token, userA, bulk.id);
      const mine = await api(t.app).as(userA.token).get(`/discount-codes/${bulk.id}/with-claims`).expect(200);
      expect(mine.body).toMatchObject({
        claimed_codes: [claimed],
        has_claimed_code: true,
        code: claimed,
        code_display: claimed,
      });
      const other = await makeUser(t, siteA);
      const theirs = await api(t.app)
        .as(other.token)
        .get(`/discount-codes/${bulk.id}/with-claims`)
        .expect(200);
      expect(theirs.body).toMatchObject({ claimed_codes: [], has_claimed_code: false, code: null });
      const anonymous = await api(t.app).get(`/discount-codes/${bulk.id}`).expect(200);
      expect(JSON.stringify(anonymous.body)).not.toContain(claimed);
      const listed = await api(t.app).as(userA.token).get('/discount-codes?limit=100').expect(200);
      expect(listed.body.find((c: { id: string }) => c.id === bulk.id)).toMatchObject({
        claimed_codes: [claimed],
      });
    });

    it('is no longer valid once every generated code is claimed', async () => {
      const bulk = (
        await generate(bulkBody(brandA.id, { count: 2, allow_multiple_claims: true })).expect(201)
      ).body;
      await claimFor(t, adminA.token, userA, bulk.id);
      expect((await api(t.app).get(`/discount-codes/${bulk.id}`).expect(200)).body.is_valid).toBe(true);
      await claimFor(t, adminA.token, userA, bulk.id);
      expect((await api(t.app).get(`/discount-codes/${bulk.id}`).expect(200)).body.is_valid).toBe(false);
    });

    it('gives the last generated code to the one claimer who can pay, whoever else clicks at that moment', async () => {
      // Fifteen members without points claim at the same moment as one with enough, ten rounds: the claims
      // that cannot pay must never keep the paying member from the code still there.
      const broke = await Promise.all(Array.from({ length: 15 }, () => makeUser(t, siteA)));
      const told: string[] = [];
      for (let round = 0; round < 10; round++) {
        const payer = await makeUser(t, siteA);
        await api(t.app)
          .as(adminA.token)
          .post('/admin/rewards/adjust', {
            user_id: payer.user.id,
            amount: 1000,
            reason: 'Points to claim with',
          })
          .expect(201);
        const id = (
          (await generate(bulkBody(brandA.id, { count: 1, points_required: 50 })).expect(201)).body as {
            id: string;
          }
        ).id;
        const answers = await Promise.all(
          [...broke, payer].map((u) => api(t.app).as(u.token).post(`/discount-codes/${id}/claim`)),
        );
        const paid = answers[answers.length - 1];
        told.push(
          paid.status === 201 ? 'claimed' : `${paid.status} ${(paid.body as { code?: string }).code}`,
        );
        expect(answers.slice(0, -1).map((a) => (a.body as { code?: string }).code)).toEqual(
          broke.map(() => 'INSUFFICIENT_POINTS'),
        );
      }
      expect(told).toEqual(told.map(() => 'claimed'));
    });

    it('refuses to set a bulk code’s text on update (422) but updates the rest', async () => {
      const bulk = (await generate(bulkBody(brandA.id)).expect(201)).body;
      const path = `/discount-codes/${bulk.id}`;
      for (const body of [{ code: 'X' }, { code_length: 5 }, { code_pattern: 'x' }]) {
        const res = await api(t.app).as(adminA.token).put(path, body).expect(422);
        expect(res.body.code).toBe('NOT_FOR_BULK_CODES');
      }
      const res = await api(t.app).as(adminA.token).put(path, { title: 'Renamed' }).expect(200);
      expect(res.body).toMatchObject({ title: 'Renamed', is_bulk_code: true, code_length: 8 });
    });
  });

  describe('CSV export', () => {
    it('streams every generated code with its claim state as text/csv', async () => {
      const bulk = (await generate(bulkBody(brandA.id, { count: 30, prefix: 'CSV' })).expect(201)).body;
      const claimed = await claimFor(t, adminA.token, userA, bulk.id);
      const res = await api(t.app)
        .as(adminA.token)
        .get(`/admin/discount-codes/${bulk.id}/codes.csv`)
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toContain('attachment');
      const lines = res.text.split('\r\n');
      expect(lines[0]).toBe('code,claimed,claimed_by_user_id,claimed_at');
      expect(lines.at(-1)).toBe('');
      const rows = lines.slice(1, -1).map((l) => l.split(','));
      expect(rows.map((r) => r[0])).toEqual(await uniqueCodesOf(t, bulk.id));
      for (const [code, isClaimed, by, at] of rows) {
        if (code === claimed) {
          expect([isClaimed, by]).toEqual(['true', userA.user.id]);
          expect(new Date(at).getTime()).not.toBeNaN();
        } else expect([isClaimed, by, at]).toEqual(['false', '', '']);
      }
    });

    it('pages through more codes than one database page', async () => {
      const bulk = (await generate(bulkBody(brandA.id, { count: 2500 })).expect(201)).body;
      const res = await api(t.app)
        .as(adminA.token)
        .get(`/admin/discount-codes/${bulk.id}/codes.csv`)
        .expect(200);
      const codes = res.text
        .split('\r\n')
        .slice(1, -1)
        .map((l) => l.split(',')[0]);
      expect(codes).toHaveLength(2500);
      expect(new Set(codes).size).toBe(2500);
    });

    it('answers 422 for a single code, and 404 for unknown, deleted or other sites’ codes', async () => {
      const single = (
        await api(t.app).as(adminA.token).post('/discount-codes', codeBody(brandA.id)).expect(201)
      ).body;
      const res = await api(t.app)
        .as(adminA.token)
        .get(`/admin/discount-codes/${single.id}/codes.csv`)
        .expect(422);
      expect(res.body.code).toBe('NOT_A_BULK_CODE');
      const bulk = (await generate(bulkBody(brandA.id)).expect(201)).body;
      await api(t.app).as(adminB.token).get(`/admin/discount-codes/${bulk.id}/codes.csv`).expect(404);
      await api(t.app).as(adminA.token).get(`/admin/discount-codes/${NIL}/codes.csv`).expect(404);
      await api(t.app).as(adminA.token).delete(`/discount-codes/${bulk.id}`).expect(204);
      await api(t.app).as(adminA.token).get(`/admin/discount-codes/${bulk.id}/codes.csv`).expect(404);
    });

    it('needs a token (401), the admin role (403) and the admin’s own site (403)', async () => {
      const bulk = (await generate(bulkBody(brandA.id)).expect(201)).body;
      const path = `/admin/discount-codes/${bulk.id}/codes.csv`;
      await api(t.app).get(path).expect(401);
      await api(t.app).as(userA.token).get(path).expect(403);
      await api(t.app).as(adminB.token).get(`${path}?site_id=${siteA}`).expect(403);
    });
  });
});
