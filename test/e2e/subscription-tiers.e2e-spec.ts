import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { type MadeUser, makeSite, makeUser, uid } from '../support/factories';

const TIER_FIELDS = [
  'id',
  'site_id',
  'name',
  'display_name',
  'description',
  'active',
  'amount_cents',
  'currency',
  'entry_credits_per_period',
  'features',
  'sort_order',
  'image_url',
  'billing_interval',
  'trial_days',
  'created_at',
  'updated_at',
];

describe('subscription tiers: create, public list and endpoint 12', () => {
  let t: TestApp;
  let site: string;
  let otherSite: string;
  let admin: MadeUser;
  let otherAdmin: MadeUser;
  let user: MadeUser;
  let superadmin: MadeUser;

  const tierBody = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
    name: `gold-${uid()}`,
    amount_cents: 999,
    currency: 'GBP',
    ...over,
  });
  const createTier = async (
    token: string,
    over: Record<string, unknown> = {},
  ): Promise<Record<string, unknown> & { id: string; name: string }> =>
    (await api(t.app).as(token).post('/admin/subscription-tiers', tierBody(over)).expect(201)).body as Record<
      string,
      unknown
    > & { id: string; name: string };

  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
    otherSite = await makeSite(t);
    admin = await makeUser(t, site, { role: 'admin' });
    otherAdmin = await makeUser(t, otherSite, { role: 'admin' });
    user = await makeUser(t, site);
    superadmin = await makeUser(t, otherSite, { role: 'superadmin' });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /admin/subscription-tiers', () => {
    it('creates a tier on the admin’s site with every field, defaults filled in (201)', async () => {
      const res = await api(t.app)
        .as(admin.token)
        .post('/admin/subscription-tiers', {
          name: 'Gold',
          display_name: 'Gold membership',
          amount_cents: 1999,
          currency: 'EUR',
          entry_credits_per_period: 5,
          features: ['5 entries a month', 'Members-only draws'],
          sort_order: 2,
          image_url: 'https://cdn.example.com/gold.png',
        })
        .expect(201);
      expect(Object.keys(res.body).sort()).toEqual([...TIER_FIELDS].sort());
      expect(res.body).toMatchObject({
        site_id: site,
        name: 'Gold',
        display_name: 'Gold membership',
        description: null,
        active: true,
        amount_cents: 1999,
        currency: 'EUR',
        entry_credits_per_period: 5,
        features: ['5 entries a month', 'Members-only draws'],
        sort_order: 2,
        billing_interval: 'month',
        trial_days: 0,
      });
      const [row] = await t.db.query(
        `SELECT site_id, amount_cents, features FROM subscription_tiers WHERE id = $1`,
        [res.body.id],
      );
      expect(row).toEqual({
        site_id: site,
        amount_cents: 1999,
        features: ['5 entries a month', 'Members-only draws'],
      });
    });

    it('keeps names unique per site regardless of case (409), while another site may reuse one', async () => {
      const name = `Platinum-${uid()}`;
      await createTier(admin.token, { name });
      const dup = await api(t.app)
        .as(admin.token)
        .post('/admin/subscription-tiers', tierBody({ name: ` ${name.toLowerCase()} ` }))
        .expect(409);
      expect(dup.body.code).toBe('TIER_NAME_TAKEN');
      expect(dup.headers['content-type']).toContain('application/problem+json');
      await createTier(otherAdmin.token, { name });
    });

    it.each([
      ['no name', { name: undefined }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
      ['no amount', { amount_cents: undefined }, 'amount_cents'],
      ['a negative amount', { amount_cents: -1 }, 'amount_cents'],
      // Every period is charged at the gateway, which takes no payment of nothing.
      ['an amount of 0', { amount_cents: 0 }, 'amount_cents'],
      ['a fractional amount', { amount_cents: 9.99 }, 'amount_cents'],
      ['an amount as text', { amount_cents: '999' }, 'amount_cents'],
      ['an amount past the limit', { amount_cents: 100_000_001 }, 'amount_cents'],
      ['no currency', { currency: undefined }, 'currency'],
      ['a lower-case currency', { currency: 'gbp' }, 'currency'],
      ['a two-letter currency', { currency: 'GB' }, 'currency'],
      ['an unknown currency', { currency: 'XYZ' }, 'currency'],
      ['negative credits', { entry_credits_per_period: -1 }, 'entry_credits_per_period'],
      ['features that are not strings', { features: ['ok', 3] }, 'features'],
      ['features as one string', { features: 'five entries' }, 'features'],
      ['an image that is not a URL', { image_url: 'not a url' }, 'image_url'],
      ['an unknown billing interval', { billing_interval: 'week' }, 'billing_interval'],
      ['negative trial days', { trial_days: -1 }, 'trial_days'],
      ['an unknown field', { colour: 'gold' }, 'colour'],
    ])('refuses %s (400, naming the field)', async (_what, over, field) => {
      const res = await api(t.app)
        .as(admin.token)
        .post('/admin/subscription-tiers', tierBody(over))
        .expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('accepts the limits themselves: the least amount, no credits, the largest amount, 100-character names', async () => {
      await createTier(admin.token, { amount_cents: 1, entry_credits_per_period: 0 });
      await createTier(admin.token, { amount_cents: 100_000_000, name: `${uid()}${'n'.repeat(90)}` });
    });

    it('keeps users out (403), strangers out (401) and admins to their own site (403), creating nothing', async () => {
      const name = `refused-${uid()}`;
      await api(t.app).post('/admin/subscription-tiers', tierBody({ name })).expect(401);
      await api(t.app).as(user.token).post('/admin/subscription-tiers', tierBody({ name })).expect(403);
      await api(t.app)
        .as(otherAdmin.token)
        .post('/admin/subscription-tiers', tierBody({ name, site_id: site }))
        .expect(403);
      const rows = await t.db.query(`SELECT id FROM subscription_tiers WHERE name = $1`, [name]);
      expect(rows).toEqual([]);
    });

    it('lets a superadmin create on any existing site, and answers 404 UNKNOWN_SITE for a site that does not exist', async () => {
      const res = await api(t.app)
        .as(superadmin.token)
        .post('/admin/subscription-tiers', tierBody({ site_id: site }))
        .expect(201);
      expect(res.body.site_id).toBe(site);
      const missing = await api(t.app)
        .as(superadmin.token)
        .post('/admin/subscription-tiers', tierBody({ site_id: `nowhere-${uid()}` }))
        .expect(404);
      expect(missing.body.code).toBe('UNKNOWN_SITE');
    });
  });

  describe('GET /subscription-tiers (public)', () => {
    let listSite: string;
    let listAdmin: MadeUser;
    beforeAll(async () => {
      listSite = await makeSite(t);
      listAdmin = await makeUser(t, listSite, { role: 'admin' });
      await createTier(listAdmin.token, { name: 'silver', sort_order: 2 });
      await createTier(listAdmin.token, { name: 'bronze', sort_order: 1 });
      await createTier(listAdmin.token, { name: 'gold', sort_order: 3 });
      await createTier(listAdmin.token, { name: 'retired', sort_order: 0, active: false });
    });

    it('lists the site’s active tiers by sort_order, without a token', async () => {
      const res = await api(t.app).get(`/subscription-tiers?site_id=${listSite}`).expect(200);
      expect(res.body.map((tier: { name: string }) => tier.name)).toEqual(['bronze', 'silver', 'gold']);
      expect(Object.keys(res.body[0]).sort()).toEqual([...TIER_FIELDS].sort());
    });

    it('takes the site from the X-Site-Id header, and refuses a request naming none (400)', async () => {
      const res = await api(t.app).get('/subscription-tiers').set('X-Site-Id', listSite).expect(200);
      expect(res.body).toHaveLength(3);
      const none = await api(t.app).get('/subscription-tiers').expect(400);
      expect(none.body.errors[0].field).toBe('site_id');
    });

    it('pages with limit and X-Next-Cursor, in the same order', async () => {
      const first = await api(t.app).get(`/subscription-tiers?site_id=${listSite}&limit=2`).expect(200);
      expect(first.body.map((tier: { name: string }) => tier.name)).toEqual(['bronze', 'silver']);
      const cursor = first.headers['x-next-cursor'];
      expect(first.headers.link).toContain('rel="next"');
      const second = await api(t.app)
        .get(`/subscription-tiers?site_id=${listSite}&limit=2&cursor=${cursor}`)
        .expect(200);
      expect(second.body.map((tier: { name: string }) => tier.name)).toEqual(['gold']);
      expect(second.headers['x-next-cursor']).toBeUndefined();
    });

    it.each(['limit=0', 'limit=101', 'limit=abc', 'cursor=not-a-cursor', 'extra=1'])(
      'refuses the query %s (400)',
      async (query) => {
        await api(t.app).get(`/subscription-tiers?site_id=${listSite}&${query}`).expect(400);
      },
    );

    it('answers an empty list for a site with no tiers', async () => {
      const empty = await makeSite(t);
      await api(t.app).get(`/subscription-tiers?site_id=${empty}`).expect(200, []);
    });

    it('shows admins inactive tiers too, on their own site only', async () => {
      const res = await api(t.app).as(listAdmin.token).get('/admin/subscription-tiers').expect(200);
      expect(res.body.map((tier: { name: string }) => tier.name)).toEqual([
        'retired',
        'bronze',
        'silver',
        'gold',
      ]);
      await api(t.app).as(user.token).get('/admin/subscription-tiers').expect(403);
      await api(t.app).as(admin.token).get(`/admin/subscription-tiers?site_id=${listSite}`).expect(403);
    });
  });

  describe('PUT /admin/subscription-tiers/{id} (endpoint 12)', () => {
    it('changes only the fields sent and answers the whole tier', async () => {
      const tier = await createTier(admin.token, { description: 'Monthly', features: ['a'] });
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/subscription-tiers/${tier.id}`, { amount_cents: 1499 })
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual([...TIER_FIELDS].sort());
      expect(res.body).toMatchObject({ ...tier, amount_cents: 1499, updated_at: expect.any(String) });
    });

    it('updates every field the spec lists at once', async () => {
      const tier = await createTier(admin.token);
      const name = `diamond-${uid()}`;
      const body = {
        active: false,
        amount_cents: 1,
        currency: 'USD',
        description: 'Top tier',
        display_name: 'Diamond',
        entry_credits_per_period: 50,
        features: ['everything'],
        name,
        sort_order: -5,
      };
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/subscription-tiers/${tier.id}`, body)
        .expect(200);
      expect(res.body).toMatchObject(body);
      const [row] = await t.db.query(`SELECT name_normalized, active FROM subscription_tiers WHERE id = $1`, [
        tier.id,
      ]);
      expect(row).toEqual({ name_normalized: name, active: false });
    });

    it('clears an optional text with null, but refuses null for a field a tier needs (400)', async () => {
      const tier = await createTier(admin.token, { description: 'x', display_name: 'X' });
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/subscription-tiers/${tier.id}`, { description: null })
        .expect(200);
      expect(res.body.description).toBeNull();
      expect(res.body.display_name).toBe('X');
      for (const field of ['name', 'amount_cents', 'currency', 'features', 'active', 'sort_order']) {
        const refused = await api(t.app)
          .as(admin.token)
          .put(`/admin/subscription-tiers/${tier.id}`, { [field]: null })
          .expect(400);
        expect(refused.body.errors).toEqual([{ field, message: `${field} cannot be null` }]);
      }
    });

    it.each([
      ['an unknown field', { tier_colour: 'gold' }],
      ['a negative amount', { amount_cents: -1 }],
      ['negative credits', { entry_credits_per_period: -5 }],
      ['features with a number', { features: ['a', 1] }],
      ['features as an object', { features: { a: 1 } }],
      ['a lower-case currency', { currency: 'usd' }],
      ['a four-letter currency', { currency: 'USDT' }],
      ['active as text', { active: 'yes' }],
      ['sort_order as a fraction', { sort_order: 1.5 }],
    ])('refuses %s (400) and changes nothing', async (_what, body) => {
      const tier = await createTier(admin.token);
      await api(t.app).as(admin.token).put(`/admin/subscription-tiers/${tier.id}`, body).expect(400);
      const [row] = await t.db.query(`SELECT amount_cents, currency FROM subscription_tiers WHERE id = $1`, [
        tier.id,
      ]);
      expect(row).toEqual({ amount_cents: 999, currency: 'GBP' });
    });

    it('refuses to move a tier to a site, even its own (site_id is not a field of the update: 400)', async () => {
      const tier = await createTier(admin.token);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/subscription-tiers/${tier.id}`, { site_id: site })
        .expect(400);
      expect(res.body.errors[0].field).toBe('site_id');
    });

    it('refuses a name another tier of the site has (409)', async () => {
      const a = await createTier(admin.token);
      const b = await createTier(admin.token);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/subscription-tiers/${b.id}`, { name: a.name.toUpperCase() })
        .expect(409);
      expect(res.body.code).toBe('TIER_NAME_TAKEN');
      await api(t.app).as(admin.token).put(`/admin/subscription-tiers/${b.id}`, { name: b.name }).expect(200);
    });

    it('answers 404 for another site’s tier, an unknown id and a malformed id', async () => {
      const theirs = await createTier(otherAdmin.token);
      await api(t.app)
        .as(admin.token)
        .put(`/admin/subscription-tiers/${theirs.id}`, { amount_cents: 1 })
        .expect(404);
      await api(t.app)
        .as(admin.token)
        .put('/admin/subscription-tiers/00000000-0000-4000-8000-000000000000', { amount_cents: 1 })
        .expect(404);
      await api(t.app)
        .as(admin.token)
        .put('/admin/subscription-tiers/not-a-uuid', { amount_cents: 1 })
        .expect(404);
      const [row] = await t.db.query(`SELECT amount_cents FROM subscription_tiers WHERE id = $1`, [
        theirs.id,
      ]);
      expect(row.amount_cents).toBe(999);
    });

    it('keeps users (403) and strangers (401) out, and an admin naming another site gets 403', async () => {
      const tier = await createTier(admin.token);
      await api(t.app).put(`/admin/subscription-tiers/${tier.id}`, { amount_cents: 1 }).expect(401);
      await api(t.app)
        .as(user.token)
        .put(`/admin/subscription-tiers/${tier.id}`, { amount_cents: 1 })
        .expect(403);
      await api(t.app)
        .as(otherAdmin.token)
        .put(`/admin/subscription-tiers/${tier.id}?site_id=${site}`, { amount_cents: 1 })
        .expect(403);
    });

    it('lets a superadmin update any site’s tier', async () => {
      const tier = await createTier(admin.token);
      const res = await api(t.app)
        .as(superadmin.token)
        .put(`/admin/subscription-tiers/${tier.id}`, { amount_cents: 5 })
        .expect(200);
      expect(res.body).toMatchObject({ site_id: site, amount_cents: 5 });
    });
  });
});
