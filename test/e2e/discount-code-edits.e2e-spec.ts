import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { type Named, codeBody, makeBrand, makeTag } from '../support/discounts';
import { type MadeUser, makeSite, makeUser } from '../support/factories';

/** Discount codes under odd input and concurrent edits (found by a review; DECISIONS, fifth session). */
describe('discount codes: odd queries and edits at once', () => {
  let t: TestApp;
  let siteA: string;
  let adminA: MadeUser;
  let brandA: Named;

  beforeAll(async () => {
    t = await createTestApp();
    siteA = await makeSite(t);
    adminA = await makeUser(t, siteA, { role: 'admin' });
    brandA = await makeBrand(t, adminA.token);
    await makeTag(t, adminA.token);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['/discount-codes?tag=a%00b'],
    ['/discount-codes?brand=a%00b'],
    ['/discount-codes?site_id=a%00b'],
    ['/tags?site_id=a%00b'],
    ['/discount-brands?site_id=a%00b'],
    ['/raffles?site_id=a%00b'],
  ])('answers a NUL in the query of %s with 400, not 500', async (path) => {
    const sep = path.includes('site_id') ? '' : `&site_id=${siteA}`;
    const res = await api(t.app).get(`${path}${sep}`).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it('takes six edits of one code’s tag_ids at once, all 200', async () => {
    const tag = await makeTag(t, adminA.token);
    const created = await api(t.app)
      .as(adminA.token)
      .post('/discount-codes', codeBody(brandA.id))
      .expect(201);
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) {
      const res = await Promise.all(
        Array.from({ length: 6 }, () =>
          api(t.app)
            .as(adminA.token)
            .put(`/discount-codes/${created.body.id}`, { tag_ids: [tag.id] }),
        ),
      );
      statuses.push(...res.map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('leaves one of two tag sets sent at once, never their union', async () => {
    const [a, b] = [await makeTag(t, adminA.token), await makeTag(t, adminA.token)];
    const mixed: string[][] = [];
    for (let round = 0; round < 8; round++) {
      const created = await api(t.app)
        .as(adminA.token)
        .post('/discount-codes', codeBody(brandA.id))
        .expect(201);
      const id = created.body.id as string;
      await Promise.all([
        api(t.app)
          .as(adminA.token)
          .put(`/discount-codes/${id}`, { tag_ids: [a.id] })
          .expect(200),
        api(t.app)
          .as(adminA.token)
          .put(`/discount-codes/${id}`, { tag_ids: [b.id] })
          .expect(200),
      ]);
      const rows = await t.db.query<Array<{ tag_id: string }>>(
        'SELECT tag_id FROM discount_code_tags WHERE discount_code_id = $1 ORDER BY tag_id',
        [id],
      );
      if (rows.length !== 1) mixed.push(rows.map((r) => r.tag_id));
    }
    expect(mixed).toEqual([]);
  });
});
