import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { type MadeUser, makeSite, makeUser, uid } from '../support/factories';
import { days, makeDraft, makePublished, RAFFLE_ENTRY_FIELDS } from '../support/raffles';

describe('raffles: public reads, endpoint 17 and the quote', () => {
  let t: TestApp;
  let site: string;
  let otherSite: string;
  let admin: MadeUser;
  let otherAdmin: MadeUser;
  let user: MadeUser;

  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
    otherSite = await makeSite(t);
    admin = await makeUser(t, site, { role: 'admin' });
    otherAdmin = await makeUser(t, otherSite, { role: 'admin' });
    user = await makeUser(t, site);
  });
  afterAll(async () => {
    await t.close();
  });

  const ids = (body: Array<{ id: string }>): string[] => body.map((r) => r.id);

  describe('drafts are never public', () => {
    it('answers 404 for a draft by id, by item_id and for its quote, and leaves it out of lists', async () => {
      const draft = await makeDraft(t, admin.token);
      await api(t.app).get(`/raffles/${draft.id}`).expect(404);
      await api(t.app).get(`/raffles/item/${draft.item_id}?site_id=${site}`).expect(404);
      await api(t.app).get(`/raffles/item/${draft.item_id}`).expect(404);
      await api(t.app).get(`/raffles/${draft.id}/quote?quantity=1`).expect(404);
      const list = await api(t.app).get(`/raffles?site_id=${site}&limit=100`).expect(200);
      expect(ids(list.body)).not.toContain(draft.id);
    });

    it('does not show a draft even to its own admin through the public routes', async () => {
      const draft = await makeDraft(t, admin.token);
      await api(t.app).as(admin.token).get(`/raffles/${draft.id}`).expect(404);
    });
  });

  describe('GET /raffles and GET /raffles/{id}', () => {
    it('lists a site’s published, unarchived raffles ending soonest first, paged', async () => {
      const listSite = await makeSite(t);
      const listAdmin = await makeUser(t, listSite, { role: 'admin' });
      const late = await makePublished(t, listAdmin.token, { end_date: days(30) });
      const soon = await makePublished(t, listAdmin.token, { end_date: days(2) });
      const mid = await makePublished(t, listAdmin.token, { end_date: days(10) });
      const archived = await makePublished(t, listAdmin.token, { end_date: days(5) });
      await api(t.app)
        .as(listAdmin.token)
        .put(`/admin/raffles/${archived.id}`, { archived: true })
        .expect(200);
      await makeDraft(t, listAdmin.token);
      const all = await api(t.app).get(`/raffles?site_id=${listSite}`).expect(200);
      expect(ids(all.body)).toEqual([soon.id, mid.id, late.id]);
      const first = await api(t.app).get(`/raffles?site_id=${listSite}&limit=2`).expect(200);
      expect(ids(first.body)).toEqual([soon.id, mid.id]);
      const next = await api(t.app)
        .get(`/raffles?site_id=${listSite}&limit=2&cursor=${first.headers['x-next-cursor']}`)
        .expect(200);
      expect(ids(next.body)).toEqual([late.id]);
      const byHeader = await api(t.app).get('/raffles').set('X-Site-Id', listSite).expect(200);
      expect(ids(byHeader.body)).toEqual([soon.id, mid.id, late.id]);
      const archivedStill = await api(t.app).get(`/raffles/${archived.id}`).expect(200);
      expect(archivedStill.body.archived).toBe(true);
    });

    it('refuses a list naming no site, a malformed cursor and unknown parameters (400)', async () => {
      const res = await api(t.app).get('/raffles').expect(400);
      expect(res.body.errors[0].field).toBe('site_id');
      await api(t.app).get(`/raffles?site_id=${site}&cursor=x`).expect(400);
      await api(t.app).get(`/raffles?site_id=${site}&limit=0`).expect(400);
      await api(t.app).get(`/raffles?site_id=${site}&draft=true`).expect(400);
    });

    it('answers a published raffle to anyone, and 404 when the named site is not its own', async () => {
      const raffle = await makePublished(t, admin.token);
      const res = await api(t.app).get(`/raffles/${raffle.id}`).expect(200);
      expect(res.body).toMatchObject({
        id: raffle.id,
        site_id: site,
        draft: false,
        entries: [],
        winners: [],
      });
      await api(t.app).get(`/raffles/${raffle.id}?site_id=${site}`).expect(200);
      await api(t.app).get(`/raffles/${raffle.id}?site_id=${otherSite}`).expect(404);
      await api(t.app).get(`/raffles/${raffle.id}`).set('X-Site-Id', otherSite).expect(404);
      await api(t.app).get('/raffles/not-a-uuid').expect(404);
      await api(t.app).get('/raffles/00000000-0000-4000-8000-000000000000').expect(404);
    });
  });

  describe('the entries a raffle shows', () => {
    it('are the newest 50 of each raffle, newest first, in a list as by id', async () => {
      const [a, b] = [await makePublished(t, admin.token), await makePublished(t, admin.token)];
      // 60 postal entries on one raffle, 3 on the other, a second apart, with the counters they make (the
      // integrity checks of a shared run database hold).
      await t.db.query(
        `INSERT INTO raffle_entries (raffle_id, user_id, site_id, method, entries_count, ticket_from, ticket_to,
                                     created_at)
         SELECT CASE WHEN g <= 60 THEN $1::uuid ELSE $2::uuid END, $3, $4, 'postal', 1,
                CASE WHEN g <= 60 THEN g ELSE g - 60 END, CASE WHEN g <= 60 THEN g ELSE g - 60 END,
                now() - interval '1 hour' + g * interval '1 second'
           FROM generate_series(1, 63) g`,
        [a.id, b.id, user.user.id, site],
      );
      await t.db.query(
        `UPDATE raffles SET current_entries = CASE WHEN id = $1 THEN 60 ELSE 3 END WHERE id IN ($1, $2)`,
        [a.id, b.id],
      );
      await t.db.query(
        `INSERT INTO raffle_user_entries (raffle_id, user_id, entries_count) VALUES ($1, $3, 60), ($2, $3, 3)`,
        [a.id, b.id, user.user.id],
      );
      const shown = (body: { entries: Array<{ created_at: string }> }) =>
        body.entries.map((e) => e.created_at);
      const newestFirst = (xs: string[]) => [...xs].sort().reverse();
      const one = await api(t.app).get(`/raffles/${a.id}`).expect(200);
      expect(one.body.entries).toHaveLength(50);
      expect(shown(one.body)).toEqual(newestFirst(shown(one.body)));
      const [{ oldest }] = await t.db.query<Array<{ oldest: Date }>>(
        `SELECT min(created_at) AS oldest FROM (SELECT created_at FROM raffle_entries WHERE raffle_id = $1
                                                  ORDER BY created_at DESC LIMIT 50) n`,
        [a.id],
      );
      expect(shown(one.body).at(-1)).toBe(new Date(oldest).toISOString());
      const list = await api(t.app).get(`/raffles?site_id=${site}&limit=100`).expect(200);
      const inList = (id: string) =>
        (list.body as Array<{ id: string; entries: unknown[] }>).find((r) => r.id === id);
      expect(inList(a.id)?.entries).toEqual(one.body.entries);
      expect(inList(b.id)?.entries).toHaveLength(3);
    });

    it('each carries every field of the spec’s Raffle entry, raffle and user null (DESIGN §4)', async () => {
      const raffle = await makePublished(t, admin.token, { allow_free_entries: true });
      const entrant = await makeUser(t, site);
      await api(t.app)
        .as(entrant.token)
        .post(`/raffles/${raffle.id}/entries`, { method: 'free', quantity: 1 })
        .expect(201);

      const one = await api(t.app).get(`/raffles/${raffle.id}`).expect(200);
      const list = await api(t.app).get(`/raffles?site_id=${site}&limit=100`).expect(200);
      const admins = await api(t.app).as(admin.token).get(`/admin/raffles?limit=100`).expect(200);
      const byMember = await api(t.app).as(entrant.token).get(`/raffles/${raffle.id}`).expect(200);
      const nestedIn = (answers: Array<{ id: string; entries: Array<Record<string, unknown>> }>) =>
        answers.filter((r) => r.id === raffle.id).map((r) => r.entries[0]);
      const publicly = nestedIn([one.body, ...list.body, byMember.body]);
      const toStaff = nestedIn(admins.body);
      expect([publicly.length, toStaff.length]).toEqual([3, 1]);
      for (const entry of [...publicly, ...toStaff]) {
        expect(Object.keys(entry).sort()).toEqual(RAFFLE_ENTRY_FIELDS);
        expect(entry).toMatchObject({ raffle: null, user: null });
      }
      // The account behind an entry is staff's to see: to anyone else it would link a named winner (the draw
      // proof names the winning entry) to their entries on every other raffle.
      for (const entry of publicly) expect(entry.user_id).toBeNull();
      expect(toStaff[0].user_id).toBe(entrant.user.id);
    });
  });

  describe('can_join and is_active', () => {
    it('are true for a published raffle running now with tickets left', async () => {
      const raffle = await makePublished(t, admin.token);
      expect(raffle).toMatchObject({ can_join: true, is_active: true, tickets_left: 1000 });
    });

    it('are false before the start date', async () => {
      const raffle = await makePublished(t, admin.token, { start_date: days(1), end_date: days(5) });
      expect(raffle).toMatchObject({ can_join: false, is_active: false, active: true });
    });

    it('are false once the end date has passed, though nobody closed it', async () => {
      const raffle = await makePublished(t, admin.token, { start_date: days(-5), end_date: days(1) });
      await t.db.query(`UPDATE raffles SET end_date = now() - interval '1 second' WHERE id = $1`, [
        raffle.id,
      ]);
      const res = await api(t.app).get(`/raffles/${raffle.id}`).expect(200);
      expect(res.body).toMatchObject({ can_join: false, is_active: false, closed: false });
    });

    it('leave can_join false but is_active true when sold out', async () => {
      const raffle = await makePublished(t, admin.token, { total_entries_available: 10 });
      await t.db.query(`UPDATE raffles SET current_entries = 10, entries_purchased = 7 WHERE id = $1`, [
        raffle.id,
      ]);
      const res = await api(t.app).get(`/raffles/${raffle.id}`).expect(200);
      expect(res.body).toMatchObject({
        can_join: false,
        is_active: true,
        current_entries: 10,
        entries_purchased: 7,
        tickets_left: 0,
      });
    });

    it('are false when drawn or archived', async () => {
      const drawn = await makePublished(t, admin.token);
      await t.db.query(`UPDATE raffles SET is_drawn = true, closed = true WHERE id = $1`, [drawn.id]);
      expect((await api(t.app).get(`/raffles/${drawn.id}`)).body).toMatchObject({
        can_join: false,
        is_active: false,
      });
      const archived = await makePublished(t, admin.token);
      await api(t.app).as(admin.token).put(`/admin/raffles/${archived.id}`, { archived: true }).expect(200);
      expect((await api(t.app).get(`/raffles/${archived.id}`)).body).toMatchObject({
        can_join: false,
        is_active: false,
      });
    });
  });

  describe('GET /raffles/item/{item_id} (endpoint 17)', () => {
    it('finds a site’s raffle by item_id given the site as a query or a header', async () => {
      const itemId = `item-${uid()}`;
      const raffle = await makePublished(t, admin.token, { item_id: itemId });
      const byQuery = await api(t.app).get(`/raffles/item/${itemId}?site_id=${site}`).expect(200);
      expect(byQuery.body.id).toBe(raffle.id);
      const byHeader = await api(t.app).get(`/raffles/item/${itemId}`).set('X-Site-Id', site).expect(200);
      expect(byHeader.body.id).toBe(raffle.id);
      await api(t.app).get(`/raffles/item/${itemId}?site_id=${otherSite}`).expect(404);
    });

    it('answers without a site when the item_id is unique, and 409 AMBIGUOUS_ITEM when two sites share it', async () => {
      const itemId = `shared-${uid()}`;
      const ours = await makePublished(t, admin.token, { item_id: itemId });
      const alone = await api(t.app).get(`/raffles/item/${itemId}`).expect(200);
      expect(alone.body.id).toBe(ours.id);
      const theirs = await makePublished(t, otherAdmin.token, { item_id: itemId });
      const ambiguous = await api(t.app).get(`/raffles/item/${itemId}`).expect(409);
      expect(ambiguous.body.code).toBe('AMBIGUOUS_ITEM');
      expect((await api(t.app).get(`/raffles/item/${itemId}?site_id=${otherSite}`).expect(200)).body.id).toBe(
        theirs.id,
      );
      expect(
        (await api(t.app).get(`/raffles/item/${itemId}`).set('X-Site-Id', site).expect(200)).body.id,
      ).toBe(ours.id);
    });

    it('does not count another site’s draft as a rival', async () => {
      const itemId = `half-${uid()}`;
      const ours = await makePublished(t, admin.token, { item_id: itemId });
      await makeDraft(t, otherAdmin.token, { item_id: itemId });
      expect((await api(t.app).get(`/raffles/item/${itemId}`).expect(200)).body.id).toBe(ours.id);
    });

    it('answers 404 for an unknown item_id and refuses unknown query parameters (400)', async () => {
      await api(t.app).get(`/raffles/item/nothing-${uid()}`).expect(404);
      await api(t.app).get(`/raffles/item/x?page=2`).expect(400);
    });

    it('needs no token, and answers a caller who sends a user token all the same', async () => {
      const raffle = await makePublished(t, admin.token);
      await api(t.app).as(user.token).get(`/raffles/item/${raffle.item_id}?site_id=${site}`).expect(200);
    });
  });

  describe('GET /raffles/{id}/quote', () => {
    const quote = async (id: string, query: string): Promise<Record<string, unknown>> =>
      (await api(t.app).get(`/raffles/${id}/quote?${query}`).expect(200)).body as Record<string, unknown>;

    it('prices single tickets at the unit price, in cents', async () => {
      const raffle = await makePublished(t, admin.token, { price_display: 2.5 });
      expect(await quote(raffle.id, 'quantity=3')).toEqual({
        amount_cents: 750,
        currency: 'GBP',
        unit_cents: 250,
        discount_cents: 0,
        tickets: 3,
        tier_discount: null,
      });
    });

    it('applies the best tier from exactly its min_quantity', async () => {
      const raffle = await makePublished(t, admin.token, {
        price_display: 2,
        discount_tiers: [
          { discount: 10, min_quantity: 5 },
          { discount: 20, min_quantity: 10 },
          { discount: 15, min_quantity: 20 },
        ],
      });
      expect(await quote(raffle.id, 'quantity=4')).toMatchObject({ amount_cents: 800, tier_discount: null });
      expect(await quote(raffle.id, 'quantity=5')).toMatchObject({ amount_cents: 900, discount_cents: 100 });
      expect(await quote(raffle.id, 'quantity=9')).toMatchObject({ amount_cents: 1620, tier_discount: 10 });
      expect(await quote(raffle.id, 'quantity=10')).toMatchObject({ amount_cents: 1600, tier_discount: 20 });
      expect(await quote(raffle.id, 'quantity=25')).toMatchObject({ amount_cents: 4000, tier_discount: 20 });
    });

    it('adds chosen bundles at their own percentage, with the tier on single tickets only, rounded once', async () => {
      const raffle = await makePublished(t, admin.token, {
        price_display: 1.99,
        discount_tiers: [{ discount: 10, min_quantity: 5 }],
        upsells: [
          { quantity: 10, percentage: 25 },
          { quantity: 3, percentage: 5 },
        ],
      });
      // 5 × 1.99 × 0.9 = 8.955 and 10 × 1.99 × 0.75 = 14.925: 23.88 once, 23.89 if rounded per line.
      expect(await quote(raffle.id, 'quantity=5&upsell=10')).toEqual({
        amount_cents: 2388,
        currency: 'GBP',
        unit_cents: 199,
        discount_cents: 597,
        tickets: 15,
        tier_discount: 10,
      });
      // Bundles neither get nor count towards a tier: 1 × 1.99 + 10 × 1.4925 + 3 × 1.8905 = 22.5865.
      expect(await quote(raffle.id, 'quantity=1&upsell=10&upsell=3')).toMatchObject({
        amount_cents: 2259,
        tickets: 14,
        tier_discount: null,
      });
      expect(await quote(raffle.id, 'quantity=0&upsell=3')).toMatchObject({ amount_cents: 567, tickets: 3 });
    });

    it('rounds half-up to the cent', async () => {
      const half = await makePublished(t, admin.token, {
        price_display: 0.05,
        discount_tiers: [{ discount: 10, min_quantity: 1 }],
      });
      expect(await quote(half.id, 'quantity=1')).toMatchObject({ amount_cents: 5, discount_cents: 0 }); // 4.5
      const below = await makePublished(t, admin.token, {
        price_display: 3.33,
        discount_tiers: [{ discount: 12.5, min_quantity: 1 }],
      });
      expect(await quote(below.id, 'quantity=1')).toMatchObject({ amount_cents: 291, discount_cents: 42 }); // 291.375
    });

    it.each([
      ['no quantity', ''],
      ['a negative quantity', 'quantity=-1'],
      ['a fractional quantity', 'quantity=1.5'],
      ['a quantity as words', 'quantity=three'],
      ['an empty quantity', 'quantity='],
      ['an empty order', 'quantity=0'],
      ['a bundle of zero', 'quantity=1&upsell=0'],
      ['a bundle as words', 'quantity=1&upsell=ten'],
      ['an unknown parameter', 'quantity=1&price=1'],
    ])('refuses %s (400)', async (_what, query) => {
      const raffle = await makePublished(t, admin.token, { upsells: [{ quantity: 10, percentage: 25 }] });
      const res = await api(t.app).get(`/raffles/${raffle.id}/quote?${query}`).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    });

    it('refuses a bundle the raffle does not offer (422 UNKNOWN_UPSELL) or one chosen twice (422 UPSELL_REPEATED)', async () => {
      const raffle = await makePublished(t, admin.token, { upsells: [{ quantity: 10, percentage: 25 }] });
      const unknown = await api(t.app).get(`/raffles/${raffle.id}/quote?quantity=1&upsell=5`).expect(422);
      expect(unknown.body.code).toBe('UNKNOWN_UPSELL');
      const twice = await api(t.app)
        .get(`/raffles/${raffle.id}/quote?quantity=1&upsell=10&upsell=10`)
        .expect(422);
      expect(twice.body.code).toBe('UPSELL_REPEATED');
    });

    it('refuses more tickets than are left (422 NOT_ENOUGH_TICKETS) or than one entrant may hold (422 MAX_ENTRIES_EXCEEDED)', async () => {
      const raffle = await makePublished(t, admin.token, {
        total_entries_available: 20,
        max_entries: 15,
        upsells: [{ quantity: 10, percentage: 25 }],
      });
      await api(t.app).get(`/raffles/${raffle.id}/quote?quantity=5&upsell=10`).expect(200);
      const cap = await api(t.app).get(`/raffles/${raffle.id}/quote?quantity=6&upsell=10`).expect(422);
      expect(cap.body.code).toBe('MAX_ENTRIES_EXCEEDED');
      await t.db.query(`UPDATE raffles SET current_entries = 12 WHERE id = $1`, [raffle.id]);
      await api(t.app).get(`/raffles/${raffle.id}/quote?quantity=8`).expect(200);
      const left = await api(t.app).get(`/raffles/${raffle.id}/quote?quantity=9`).expect(422);
      expect(left.body.code).toBe('NOT_ENOUGH_TICKETS');
    });

    it('answers 404 for another site’s raffle when a site is named, and for malformed ids', async () => {
      const raffle = await makePublished(t, admin.token);
      await api(t.app).get(`/raffles/${raffle.id}/quote?quantity=1&site_id=${otherSite}`).expect(404);
      await api(t.app).get('/raffles/nope/quote?quantity=1').expect(404);
    });
  });
});
