import { createHash } from 'node:crypto';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { type MadeUser, makeSite, makeUser, uid } from '../support/factories';
import { days, makeDraft, makePublished, raffleBody } from '../support/raffles';

/** Every field of the spec's Raffle, with the JSON type the spec gives it. */
const RAFFLE_TYPES: Record<string, string> = {
  ...Object.fromEntries(
    ['id', 'item_id', 'name', 'currency', 'start_date', 'end_date', 'created_at', 'updated_at'].map((f) => [
      f,
      'string',
    ]),
  ),
  ...Object.fromEntries(
    [
      'collection_id',
      'locale_id',
      'cms_site_id',
      'slug',
      'campaign_name',
      'giveaway_type',
      'description',
      'long_description',
      'short_teaser',
      'details',
      'hero_header',
      'hero_description',
      'cta_text',
      'final_cta_heading',
      'final_cta_description',
      'main_image',
      'image_gallery',
      'quick_buy_options',
      'quick_wins',
      'what_you_can_win_1',
      'what_you_can_win_2',
      'what_you_can_win_3',
      'what_you_can_win_4',
      'worth_total',
      'worth_subline',
      'winner_names',
      'last_person_who_brought',
      'checkout_description',
      'checkout_success_url',
      'checkout_failure_url',
      'drawn_at',
      'published_on',
      'gatewaytwo_product_id',
      'created_by',
    ].map((f) => [f, 'string|null']),
  ),
  price_display: 'number',
  points_required: 'integer',
  max_entries: 'integer|null',
  total_entries_available: 'integer',
  current_entries: 'integer',
  entries_purchased: 'integer',
  points_enabled: 'boolean',
  points_multiplier: 'number|null',
  ...Object.fromEntries(
    ['active', 'allow_free_entries', 'archived', 'closed', 'draft', 'can_join', 'is_active', 'is_drawn'].map(
      (f) => [f, 'boolean'],
    ),
  ),
  discount_tiers: 'array',
  upsells: 'array',
  mailer_email_params: 'object',
  entries: 'array',
  winners: 'array',
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function expectSpecTypes(body: Record<string, unknown>): void {
  for (const [field, type] of Object.entries(RAFFLE_TYPES)) {
    expect(body).toHaveProperty(field);
    const actual = typeOf(body[field]);
    const allowed = type.split('|').flatMap((t) => (t === 'number' ? ['number', 'integer'] : [t]));
    if (!allowed.includes(actual)) throw new Error(`${field} is ${actual}, the spec says ${type}`);
  }
}

describe('raffles: administration (draft, update, publish, close, list)', () => {
  let t: TestApp;
  let site: string;
  let otherSite: string;
  let admin: MadeUser;
  let otherAdmin: MadeUser;
  let user: MadeUser;
  let superadmin: MadeUser;

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

  const seedOf = async (id: string): Promise<string> => {
    const rows = await t.db.query<Array<{ draw_seed: string }>>(
      `SELECT draw_seed FROM raffles WHERE id = $1`,
      [id],
    );
    return rows[0].draw_seed;
  };

  describe('POST /admin/raffles', () => {
    it('creates a draft carrying every field of the spec’s Raffle, typed as the spec says (201)', async () => {
      const res = await api(t.app)
        .as(admin.token)
        .post(
          '/admin/raffles',
          raffleBody({
            price_display: 12.1,
            max_entries: 50,
            points_required: 100,
            points_enabled: true,
            points_multiplier: 1.5,
            what_you_can_win_1: 'A camper van',
            discount_tiers: [{ discount: 10, min_quantity: 5 }],
            upsells: [{ quantity: 10, percentage: 20 }],
            mailer_email_params: { brand_name: 'Vans & Co', plural: true },
          }),
        )
        .expect(201);
      expectSpecTypes(res.body);
      expect(res.body).toMatchObject({
        site_id: site,
        item_id: res.body.id,
        draft: true,
        active: false,
        closed: false,
        archived: false,
        is_drawn: false,
        can_join: false,
        is_active: false,
        price_display: 12.1,
        current_entries: 0,
        entries_purchased: 0,
        tickets_left: 1000,
        max_entries: 50,
        points_multiplier: 1.5,
        what_you_can_win_1: 'A camper van',
        what_you_can_win_2: null,
        published_on: null,
        draw_seed_hash: null,
        created_by: admin.user.id,
        discount_tiers: [{ discount: 10, min_quantity: 5 }],
        upsells: [{ quantity: 10, qty: 10, percentage: 20, discount: 24.2 }],
        entries: [],
        winners: [],
      });
      expect(res.body.mailer_email_params).toMatchObject({
        brand_name: 'Vans & Co',
        plural: true,
        from_email: null,
      });
      expect(Object.keys(res.body.mailer_email_params)).toHaveLength(21);
      expect(res.body).not.toHaveProperty('draw_seed');
      const [row] = await t.db.query(`SELECT price_cents, draw_seed FROM raffles WHERE id = $1`, [
        res.body.id,
      ]);
      expect(row).toEqual({ price_cents: 1210, draw_seed: null });
    });

    it('keeps item_id unique per site (409 ITEM_ID_TAKEN) while another site may reuse it', async () => {
      const itemId = `item-${uid()}`;
      await makeDraft(t, admin.token, { item_id: itemId });
      const dup = await api(t.app)
        .as(admin.token)
        .post('/admin/raffles', raffleBody({ item_id: itemId }))
        .expect(409);
      expect(dup.body.code).toBe('ITEM_ID_TAKEN');
      await makeDraft(t, otherAdmin.token, { item_id: itemId });
    });

    it.each([
      ['no name', { name: undefined }, 'name'],
      ['a blank name', { name: ' ' }, 'name'],
      ['no price', { price_display: undefined }, 'price_display'],
      ['a negative price', { price_display: -0.01 }, 'price_display'],
      ['a price with three decimals', { price_display: 2.555 }, 'price_display'],
      ['a yen price with decimals', { currency: 'JPY', price_display: 500.5 }, 'price_display'],
      ['a dinar price with four decimals', { currency: 'KWD', price_display: 1.2345 }, 'price_display'],
      ['a price as text', { price_display: '2.50' }, 'price_display'],
      ['no currency', { currency: undefined }, 'currency'],
      ['a lower-case currency', { currency: 'gbp' }, 'currency'],
      ['an unknown currency', { currency: 'ABC' }, 'currency'],
      ['no total', { total_entries_available: undefined }, 'total_entries_available'],
      ['a total of zero', { total_entries_available: 0 }, 'total_entries_available'],
      ['a negative total', { total_entries_available: -1 }, 'total_entries_available'],
      ['max_entries of zero', { max_entries: 0 }, 'max_entries'],
      ['max_entries above the total', { max_entries: 1001 }, 'max_entries'],
      ['negative points', { points_required: -1 }, 'points_required'],
      ['a negative multiplier', { points_multiplier: -1 }, 'points_multiplier'],
      ['no start date', { start_date: undefined }, 'start_date'],
      ['a start date that is not a date', { start_date: 'next tuesday' }, 'start_date'],
      [
        'an end equal to the start',
        { start_date: '2030-01-01T00:00:00Z', end_date: '2030-01-01T00:00:00Z' },
        'end_date',
      ],
      [
        'an end before the start',
        { start_date: '2030-01-02T00:00:00Z', end_date: '2030-01-01T00:00:00Z' },
        'end_date',
      ],
      [
        'a tier discount below 0',
        { discount_tiers: [{ discount: -1, min_quantity: 2 }] },
        'discount_tiers.0.discount',
      ],
      [
        'a tier discount above 100',
        { discount_tiers: [{ discount: 100.01, min_quantity: 2 }] },
        'discount_tiers.0.discount',
      ],
      [
        'a tier discount with five decimals',
        { discount_tiers: [{ discount: 10.00001, min_quantity: 2 }] },
        'discount_tiers.0.discount',
      ],
      [
        'a tier for zero tickets',
        { discount_tiers: [{ discount: 5, min_quantity: 0 }] },
        'discount_tiers.0.min_quantity',
      ],
      ['a tier without min_quantity', { discount_tiers: [{ discount: 5 }] }, 'discount_tiers.0.min_quantity'],
      [
        'a tier with an unknown field',
        { discount_tiers: [{ discount: 5, min_quantity: 1, x: 1 }] },
        'discount_tiers.0.x',
      ],
      ['discount_tiers as an object', { discount_tiers: { discount: 5, min_quantity: 1 } }, 'discount_tiers'],
      ['an upsell above 100 %', { upsells: [{ quantity: 5, percentage: 101 }] }, 'upsells.0.percentage'],
      ['an upsell below 0 %', { upsells: [{ quantity: 5, percentage: -1 }] }, 'upsells.0.percentage'],
      ['an upsell of zero tickets', { upsells: [{ quantity: 0, percentage: 10 }] }, 'upsells.0.quantity'],
      ['an upsell without a size', { upsells: [{ percentage: 10 }] }, 'upsells[0]'],
      ['an upsell whose qty disagrees', { upsells: [{ quantity: 5, qty: 6, percentage: 10 }] }, 'upsells[0]'],
      [
        'two upsells of one size',
        {
          upsells: [
            { quantity: 5, percentage: 10 },
            { qty: 5, percentage: 20 },
          ],
        },
        'upsells',
      ],
      [
        'an unknown mailer parameter',
        { mailer_email_params: { brand_colour: 'red' } },
        'mailer_email_params.brand_colour',
      ],
      ['a non-boolean plural', { mailer_email_params: { plural: 'yes' } }, 'mailer_email_params.plural'],
      ['a checkout URL that is not one', { checkout_success_url: 'thanks' }, 'checkout_success_url'],
      ['a draft flag (publishing is its own route)', { draft: false }, 'draft'],
      ['current_entries (counted, not set)', { current_entries: 5 }, 'current_entries'],
      ['an unknown field', { colour: 'red' }, 'colour'],
    ])('refuses %s (400, naming the field) and creates nothing', async (_what, over, field) => {
      const name = `refused-${uid()}`;
      const res = await api(t.app)
        .as(admin.token)
        .post('/admin/raffles', raffleBody({ name, ...over }))
        .expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(await t.db.query(`SELECT id FROM raffles WHERE name = $1`, [name])).toEqual([]);
    });

    it('accepts the limits themselves: a free raffle, 0 and 100 % discounts, one ticket, qty as the only size', async () => {
      const res = await api(t.app)
        .as(admin.token)
        .post(
          '/admin/raffles',
          raffleBody({
            price_display: 0,
            total_entries_available: 1,
            max_entries: 1,
            discount_tiers: [
              { discount: 0, min_quantity: 1 },
              { discount: 100, min_quantity: 1 },
              { discount: 12.3456, min_quantity: 1 },
            ],
            upsells: [{ qty: 1, percentage: 0 }],
          }),
        )
        .expect(201);
      expect(res.body.upsells).toEqual([{ quantity: 1, qty: 1, percentage: 0, discount: 0 }]);
      // Bundles at the limits of what an entrant may hold: the whole cap, at 0 and at 100 %.
      const bundles = await api(t.app)
        .as(admin.token)
        .post(
          '/admin/raffles',
          raffleBody({
            price_display: 0,
            total_entries_available: 4,
            max_entries: 4,
            upsells: [
              { qty: 3, percentage: 0 },
              { quantity: 4, qty: 4, percentage: 100, discount: 999 },
            ],
          }),
        )
        .expect(201);
      expect(bundles.body.upsells).toEqual([
        { quantity: 3, qty: 3, percentage: 0, discount: 0 },
        { quantity: 4, qty: 4, percentage: 100, discount: 0 },
      ]);
    });

    it('refuses an upsell nobody could buy, on a create and on an update that lowers the cap (400)', async () => {
      const bigger = await api(t.app)
        .as(admin.token)
        .post('/admin/raffles', raffleBody({ max_entries: 5, upsells: [{ quantity: 10, percentage: 20 }] }))
        .expect(400);
      expect(bigger.body.errors).toEqual([
        {
          field: 'upsells',
          message: 'an upsell of 10 tickets is more than max_entries (5): nobody could buy it',
        },
      ]);
      await api(t.app)
        .as(admin.token)
        .post(
          '/admin/raffles',
          raffleBody({
            total_entries_available: 10,
            max_entries: null,
            upsells: [{ quantity: 50, percentage: 20 }],
          }),
        )
        .expect(400);
      const raffle = await makePublished(t, admin.token, { upsells: [{ quantity: 10, percentage: 20 }] });
      await api(t.app).as(admin.token).put(`/admin/raffles/${raffle.id}`, { max_entries: 5 }).expect(400);
      const kept = await api(t.app).get(`/raffles/${raffle.id}`).expect(200);
      expect(kept.body.max_entries).not.toBe(5);
      await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { max_entries: 5, upsells: [{ quantity: 5, percentage: 20 }] })
        .expect(200);
    });

    it('keeps strangers (401), users (403) and other sites’ admins (403) out', async () => {
      await api(t.app).post('/admin/raffles', raffleBody()).expect(401);
      await api(t.app).as(user.token).post('/admin/raffles', raffleBody()).expect(403);
      await api(t.app)
        .as(otherAdmin.token)
        .post('/admin/raffles', raffleBody({ site_id: site }))
        .expect(403);
    });

    it('lets a superadmin draft on any existing site; an unknown site is 404 UNKNOWN_SITE', async () => {
      const res = await api(t.app)
        .as(superadmin.token)
        .post('/admin/raffles', raffleBody({ site_id: site }))
        .expect(201);
      expect(res.body.site_id).toBe(site);
      const missing = await api(t.app)
        .as(superadmin.token)
        .post('/admin/raffles', raffleBody({ site_id: `nowhere-${uid()}` }))
        .expect(404);
      expect(missing.body.code).toBe('UNKNOWN_SITE');
    });
  });

  describe('PUT /admin/raffles/{id}', () => {
    it('changes only the fields sent', async () => {
      const draft = await makeDraft(t, admin.token, { description: 'Old', slug: 'van' });
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${draft.id}`, { description: 'New', price_display: 3 })
        .expect(200);
      expect(res.body).toMatchObject({
        ...draft,
        description: 'New',
        price_display: 3,
        updated_at: expect.any(String),
      });
    });

    it('recomputes the bundles’ displayed savings when the price changes', async () => {
      const draft = await makeDraft(t, admin.token, { upsells: [{ quantity: 10, percentage: 20 }] });
      expect(draft.upsells).toEqual([{ quantity: 10, qty: 10, percentage: 20, discount: 5 }]);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${draft.id}`, { price_display: 1 })
        .expect(200);
      expect(res.body.upsells).toEqual([{ quantity: 10, qty: 10, percentage: 20, discount: 2 }]);
    });

    it('keeps a price in its currency’s own minor unit, with as many decimals as the currency has', async () => {
      const dinars = await makeDraft(t, admin.token, { currency: 'KWD', price_display: 1.234 });
      const yen = await makeDraft(t, admin.token, { currency: 'JPY', price_display: 500 });
      expect([dinars.price_display, yen.price_display]).toEqual([1.234, 500]);
      const rows = await t.db.query(
        `SELECT price_cents FROM raffles WHERE id IN ($1, $2) ORDER BY price_cents`,
        [dinars.id, yen.id],
      );
      expect(rows).toEqual([{ price_cents: 500 }, { price_cents: 1234 }]);
    });

    it('keeps the price shown when only the currency changes, and refuses one the new currency cannot charge', async () => {
      const whole = await makeDraft(t, admin.token, { currency: 'GBP', price_display: 3 });
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${whole.id}`, { currency: 'JPY' })
        .expect(200);
      expect(res.body).toMatchObject({ currency: 'JPY', price_display: 3 });

      const pence = await makeDraft(t, admin.token, { currency: 'GBP', price_display: 2.5 });
      const refused = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${pence.id}`, { currency: 'JPY' })
        .expect(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['price_display']);
      // Judged against the stored currency when the update does not send one.
      const fraction = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${whole.id}`, { price_display: 499.5 })
        .expect(400);
      expect(fraction.body.errors.map((e: { field: string }) => e.field)).toEqual(['price_display']);
      const rows = await t.db.query(
        `SELECT currency, price_cents FROM raffles WHERE id IN ($1, $2) ORDER BY currency`,
        [pence.id, whole.id],
      );
      expect(rows).toEqual([
        { currency: 'GBP', price_cents: 250 },
        { currency: 'JPY', price_cents: 3 },
      ]);

      const both = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${pence.id}`, { currency: 'JPY', price_display: 400 })
        .expect(200);
      expect(both.body).toMatchObject({ currency: 'JPY', price_display: 400 });
    });

    it('merges mailer parameters: keys sent replace, null removes, others stay', async () => {
      const draft = await makeDraft(t, admin.token, {
        mailer_email_params: { brand_name: 'A', color_bg: '#fff', language: 'en' },
      });
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${draft.id}`, { mailer_email_params: { brand_name: 'B', color_bg: null } })
        .expect(200);
      expect(res.body.mailer_email_params).toMatchObject({ brand_name: 'B', color_bg: null, language: 'en' });
    });

    it('clears optional fields with null and refuses null for fields a raffle needs (400)', async () => {
      const draft = await makeDraft(t, admin.token, { description: 'x', max_entries: 5 });
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${draft.id}`, { description: null, max_entries: null })
        .expect(200);
      expect(res.body).toMatchObject({ description: null, max_entries: null });
      for (const field of [
        'name',
        'price_display',
        'currency',
        'total_entries_available',
        'end_date',
        'upsells',
      ]) {
        const refused = await api(t.app)
          .as(admin.token)
          .put(`/admin/raffles/${draft.id}`, { [field]: null })
          .expect(400);
        expect(refused.body.errors).toEqual([{ field, message: `${field} cannot be null` }]);
      }
    });

    it('checks dates against the stored ones: an end moved before the start is 400', async () => {
      const draft = await makeDraft(t, admin.token, { start_date: days(1), end_date: days(10) });
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${draft.id}`, { end_date: days(0) })
        .expect(400);
      expect(res.body.errors[0].field).toBe('end_date');
    });

    it.each([
      ['a negative price', { price_display: -1 }],
      ['a discount above 100', { discount_tiers: [{ discount: 101, min_quantity: 1 }] }],
      ['a negative total', { total_entries_available: -5 }],
      ['an unknown field', { sold: 3 }],
      ['is_drawn (the draw sets it)', { is_drawn: true }],
      ['closed (closing is its own route)', { closed: true }],
    ])('refuses %s (400) and changes nothing', async (_what, body) => {
      const draft = await makeDraft(t, admin.token);
      await api(t.app).as(admin.token).put(`/admin/raffles/${draft.id}`, body).expect(400);
      const [row] = await t.db.query(
        `SELECT price_cents, total_entries_available FROM raffles WHERE id = $1`,
        [draft.id],
      );
      expect(row).toEqual({ price_cents: 250, total_entries_available: 1000 });
    });

    it('refuses an item_id the site already uses (409)', async () => {
      const a = await makeDraft(t, admin.token);
      const b = await makeDraft(t, admin.token);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${b.id}`, { item_id: a.item_id })
        .expect(409);
      expect(res.body.code).toBe('ITEM_ID_TAKEN');
    });

    it('refuses to lower the total below the tickets already taken (422 TOTAL_BELOW_SOLD)', async () => {
      const raffle = await makePublished(t, admin.token, { total_entries_available: 100 });
      await t.db.query(`UPDATE raffles SET current_entries = 40 WHERE id = $1`, [raffle.id]);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { total_entries_available: 39 })
        .expect(422);
      expect(res.body.code).toBe('TOTAL_BELOW_SOLD');
      const ok = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { total_entries_available: 40 })
        .expect(200);
      expect(ok.body).toMatchObject({ total_entries_available: 40, tickets_left: 0, can_join: false });
    });

    /** Tickets through the admin's postal route: a real way in (the cap, the counter, the sell-out close). */
    const postal = (raffleId: string, userId: string, quantity: number) =>
      api(t.app)
        .as(admin.token)
        .post(`/admin/raffles/${raffleId}/entries`, {
          user_id: userId,
          quantity,
          method: 'postal',
          note: 'by post',
        })
        .set('Idempotency-Key', uid());
    const stored = async (id: string) =>
      (
        await t.db.query<Array<Record<string, unknown>>>(
          `SELECT end_date, max_entries, total_entries_available, current_entries, closed FROM raffles WHERE id = $1`,
          [id],
        )
      )[0];

    it('refuses to move a running raffle’s end into the past (422 ENDS_IN_PAST): closing it is the close route’s', async () => {
      const raffle = await makePublished(t, admin.token, { total_entries_available: 100 });
      await postal(raffle.id, user.user.id, 10).expect(201);
      const before = await stored(raffle.id);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { end_date: days(-1) });
      expect([res.status, res.body.code]).toEqual([422, 'ENDS_IN_PAST']);
      expect(await stored(raffle.id)).toEqual(before);
      // Further out stays open to change.
      await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { end_date: days(20) })
        .expect(200);
    });

    it('refuses to lower max_entries below what an entrant already holds (422 MAX_BELOW_HELD)', async () => {
      const raffle = await makePublished(t, admin.token, { total_entries_available: 100, max_entries: 20 });
      await postal(raffle.id, user.user.id, 15).expect(201);
      const res = await api(t.app).as(admin.token).put(`/admin/raffles/${raffle.id}`, { max_entries: 5 });
      expect([res.status, res.body.code]).toEqual([422, 'MAX_BELOW_HELD']);
      expect((await stored(raffle.id)).max_entries).toBe(20);
      await api(t.app).as(admin.token).put(`/admin/raffles/${raffle.id}`, { max_entries: 15 }).expect(200);
    });

    it('keeps what a closed raffle sells final (409 ALREADY_CLOSED); its text stays editable', async () => {
      const raffle = await makePublished(t, admin.token, { total_entries_available: 5 });
      await postal(raffle.id, user.user.id, 5).expect(201); // sold out: closed by the counter
      const full = (await api(t.app).get(`/raffles/${raffle.id}`).expect(200)).body;
      expect(full.closed).toBe(true);
      for (const change of [{ total_entries_available: 10 }, { end_date: days(30) }, { max_entries: 3 }]) {
        const res = await api(t.app).as(admin.token).put(`/admin/raffles/${raffle.id}`, change);
        expect([res.status, res.body.code]).toEqual([409, 'ALREADY_CLOSED']);
      }
      expect(await stored(raffle.id)).toMatchObject({ total_entries_available: 5, closed: true });
      // The same values sent back, as a form does with the whole raffle, are no change; the text is.
      await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, {
          total_entries_available: 5,
          end_date: full.end_date,
          upsells: full.upsells,
          discount_tiers: full.discount_tiers,
          description: 'Sold out in a day',
        })
        .expect(200);
    });

    it('keeps the total up to the range its instant-win tickets were fixed in (422 TOTAL_BELOW_INSTANT_WINS)', async () => {
      const raffle = await makePublished(t, admin.token, {
        total_entries_available: 100,
        instant_wins: [{ prize: 'Mug', count: 3 }],
      });
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { total_entries_available: 99 })
        .expect(422);
      expect(res.body.code).toBe('TOTAL_BELOW_INSTANT_WINS');
      const [row] = await t.db.query(`SELECT total_entries_available FROM raffles WHERE id = $1`, [
        raffle.id,
      ]);
      expect(row.total_entries_available).toBe(100);
      await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { total_entries_available: 150 })
        .expect(200);
      await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { total_entries_available: 100 })
        .expect(200);
    });

    it('switches a published raffle off and on with active, but not a draft (409 NOT_PUBLISHED)', async () => {
      const raffle = await makePublished(t, admin.token);
      const off = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { active: false })
        .expect(200);
      expect(off.body).toMatchObject({ active: false, is_active: false, can_join: false });
      const on = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${raffle.id}`, { active: true })
        .expect(200);
      expect(on.body).toMatchObject({ active: true, is_active: true, can_join: true });
      const draft = await makeDraft(t, admin.token);
      const res = await api(t.app)
        .as(admin.token)
        .put(`/admin/raffles/${draft.id}`, { active: true })
        .expect(409);
      expect(res.body.code).toBe('NOT_PUBLISHED');
    });

    it('answers 404 for another site’s raffle, an unknown id and a malformed id; 403 for users', async () => {
      const theirs = await makeDraft(t, otherAdmin.token);
      await api(t.app).as(admin.token).put(`/admin/raffles/${theirs.id}`, { name: 'Mine now' }).expect(404);
      await api(t.app)
        .as(admin.token)
        .put('/admin/raffles/00000000-0000-4000-8000-000000000000', {})
        .expect(404);
      await api(t.app).as(admin.token).put('/admin/raffles/123', {}).expect(404);
      await api(t.app).as(user.token).put(`/admin/raffles/${theirs.id}`, {}).expect(403);
      await api(t.app).put(`/admin/raffles/${theirs.id}`, {}).expect(401);
      const [row] = await t.db.query(`SELECT name FROM raffles WHERE id = $1`, [theirs.id]);
      expect(row.name).toBe(theirs.name);
      const sup = await api(t.app)
        .as(superadmin.token)
        .put(`/admin/raffles/${theirs.id}`, { slug: 's' })
        .expect(200);
      expect(sup.body.slug).toBe('s');
    });
  });

  describe('POST /admin/raffles/{id}/publish and /close', () => {
    it('publishes a draft: switched on, published_on set, sha256 of a secret seed committed', async () => {
      const draft = await makeDraft(t, admin.token);
      const res = await api(t.app).as(admin.token).post(`/admin/raffles/${draft.id}/publish`).expect(200);
      expect(res.body).toMatchObject({ draft: false, active: true, is_active: true, can_join: true });
      expect(Date.parse(res.body.published_on)).not.toBeNaN();
      const seed = await seedOf(draft.id);
      expect(seed).toMatch(/^[0-9a-f]{64}$/);
      expect(res.body.draw_seed_hash).toBe(
        createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex'),
      );
    });

    it('draws instant-win tickets from the raffle as it is published, whatever edit races the publish', async () => {
      // Each round: a draft of 100 tickets with 40 instant wins, published while an edit halves its total.
      // However the two interleave, every winning ticket lies within the total the raffle ends with.
      for (let round = 0; round < 15; round++) {
        const draft = await makeDraft(t, admin.token, {
          total_entries_available: 100,
          instant_wins: [{ prize: 'Mug', count: 40 }],
        });
        const [edit, publish] = await Promise.all([
          api(t.app).as(admin.token).put(`/admin/raffles/${draft.id}`, { total_entries_available: 50 }),
          api(t.app).as(admin.token).post(`/admin/raffles/${draft.id}/publish`),
        ]);
        expect(publish.status).toBe(200);
        expect([200, 422]).toContain(edit.status); // 422 TOTAL_BELOW_INSTANT_WINS once published
        const [row] = await t.db.query(
          `SELECT r.total_entries_available AS total, r.instant_win_total,
                  (SELECT max(ticket) FROM raffle_instant_tickets WHERE raffle_id = r.id) AS highest,
                  (SELECT count(*)::int FROM raffle_instant_tickets WHERE raffle_id = r.id) AS tickets
             FROM raffles r WHERE r.id = $1`,
          [draft.id],
        );
        expect(row.tickets).toBe(40);
        expect(row.highest).toBeLessThanOrEqual(row.total);
        expect(row.instant_win_total).toBeLessThanOrEqual(row.total);
      }
    });

    it('draws a different seed for every raffle', async () => {
      const a = await makePublished(t, admin.token);
      const b = await makePublished(t, admin.token);
      expect(a.draw_seed_hash).not.toBe(b.draw_seed_hash);
      expect(await seedOf(a.id)).not.toBe(await seedOf(b.id));
    });

    it('never shows the seed in any answer before the draw', async () => {
      const draft = await makeDraft(t, admin.token);
      const published = await api(t.app).as(admin.token).post(`/admin/raffles/${draft.id}/publish`);
      const seed = await seedOf(draft.id);
      const answers = [
        published,
        await api(t.app).as(admin.token).put(`/admin/raffles/${draft.id}`, { slug: 'x' }),
        await api(t.app).as(admin.token).get('/admin/raffles?limit=100'),
        await api(t.app).get(`/raffles/${draft.id}`),
        await api(t.app).get(`/raffles?site_id=${site}&limit=100`),
        await api(t.app).get(`/raffles/item/${draft.item_id}`),
        await api(t.app).get(`/raffles/${draft.id}/quote?quantity=1`),
        await api(t.app).as(admin.token).post(`/admin/raffles/${draft.id}/close`),
        await api(t.app).get('/docs-json'),
      ];
      for (const answer of answers) {
        expect(answer.status).toBeLessThan(300);
        expect(answer.text).not.toContain(seed);
        expect(answer.text).not.toContain('draw_seed"');
      }
    });

    it('refuses to publish twice (409 NOT_DRAFT), keeping the first commitment', async () => {
      const raffle = await makePublished(t, admin.token);
      const res = await api(t.app).as(admin.token).post(`/admin/raffles/${raffle.id}/publish`).expect(409);
      expect(res.body.code).toBe('NOT_DRAFT');
      const [row] = await t.db.query(`SELECT draw_seed_hash FROM raffles WHERE id = $1`, [raffle.id]);
      expect(row.draw_seed_hash).toBe(raffle.draw_seed_hash);
    });

    it('refuses to publish a draft whose end has passed (422 ENDS_IN_PAST)', async () => {
      const draft = await makeDraft(t, admin.token, { start_date: days(-10), end_date: days(-1) });
      const res = await api(t.app).as(admin.token).post(`/admin/raffles/${draft.id}/publish`).expect(422);
      expect(res.body.code).toBe('ENDS_IN_PAST');
    });

    it('closes a published raffle once (409 ALREADY_CLOSED after), and never a draft (409 NOT_PUBLISHED)', async () => {
      const raffle = await makePublished(t, admin.token);
      const closed = await api(t.app).as(admin.token).post(`/admin/raffles/${raffle.id}/close`).expect(200);
      expect(closed.body).toMatchObject({ closed: true, can_join: false, is_active: false, active: true });
      const again = await api(t.app).as(admin.token).post(`/admin/raffles/${raffle.id}/close`).expect(409);
      expect(again.body.code).toBe('ALREADY_CLOSED');
      const draft = await makeDraft(t, admin.token);
      const early = await api(t.app).as(admin.token).post(`/admin/raffles/${draft.id}/close`).expect(409);
      expect(early.body.code).toBe('NOT_PUBLISHED');
    });

    it('keeps both transitions to the raffle’s own site and to admins', async () => {
      const theirs = await makeDraft(t, otherAdmin.token);
      for (const action of ['publish', 'close']) {
        await api(t.app).as(admin.token).post(`/admin/raffles/${theirs.id}/${action}`).expect(404);
        await api(t.app).as(admin.token).post(`/admin/raffles/not-an-id/${action}`).expect(404);
        await api(t.app).as(user.token).post(`/admin/raffles/${theirs.id}/${action}`).expect(403);
        await api(t.app).post(`/admin/raffles/${theirs.id}/${action}`).expect(401);
        await api(t.app)
          .as(admin.token)
          .post(`/admin/raffles/${theirs.id}/${action}?site_id=${otherSite}`)
          .expect(403);
      }
      const [row] = await t.db.query(`SELECT draft, closed FROM raffles WHERE id = $1`, [theirs.id]);
      expect(row).toEqual({ draft: true, closed: false });
    });
  });

  describe('GET /admin/raffles', () => {
    it('lists the site’s raffles, drafts included, newest first, page by page', async () => {
      const listSite = await makeSite(t);
      const listAdmin = await makeUser(t, listSite, { role: 'admin' });
      const a = await makeDraft(t, listAdmin.token);
      const b = await makePublished(t, listAdmin.token);
      const c = await makeDraft(t, listAdmin.token);
      await makeDraft(t, otherAdmin.token);
      const all = await api(t.app).as(listAdmin.token).get('/admin/raffles').expect(200);
      expect(all.body.map((r: { id: string }) => r.id)).toEqual([c.id, b.id, a.id]);
      expectSpecTypes(all.body[0]);
      const first = await api(t.app).as(listAdmin.token).get('/admin/raffles?limit=2').expect(200);
      expect(first.body.map((r: { id: string }) => r.id)).toEqual([c.id, b.id]);
      const next = await api(t.app)
        .as(listAdmin.token)
        .get(`/admin/raffles?limit=2&cursor=${first.headers['x-next-cursor']}`)
        .expect(200);
      expect(next.body.map((r: { id: string }) => r.id)).toEqual([a.id]);
    });

    it('keeps users (403), strangers (401) and other sites’ admins (403) out; superadmins name the site', async () => {
      await api(t.app).as(user.token).get('/admin/raffles').expect(403);
      await api(t.app).get('/admin/raffles').expect(401);
      await api(t.app).as(otherAdmin.token).get(`/admin/raffles?site_id=${site}`).expect(403);
      await api(t.app).as(admin.token).get('/admin/raffles?cursor=nope').expect(400);
      const res = await api(t.app)
        .as(superadmin.token)
        .get(`/admin/raffles?site_id=${site}&limit=100`)
        .expect(200);
      expect(res.body.every((r: { site_id: string }) => r.site_id === site)).toBe(true);
    });
  });
});
