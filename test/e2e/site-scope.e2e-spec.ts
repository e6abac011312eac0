import { randomBytes } from 'node:crypto';
import { api } from '../support/api';
import { bulkBody, codeBody, makeBrand } from '../support/discounts';
import { DEFAULT_PASSWORD, makeSite, makeUser, type MadeUser, uid } from '../support/factories';
import { activeMember, tierOn, withRoot, type MembershipWorld } from '../support/memberships';
import { startPaymentsWorld, stopPaymentsWorld, type PaymentsWorld } from '../support/payments';
import { ADDRESS, productOn } from '../support/merch';
import { makeDraft, makePublished } from '../support/raffles';

/**
 * Site scoping (DESIGN §3) across the routes other suites test on one site only. Site A is the world's site
 * (w.site, w.admin); site B is another site with its own admin and members.
 */
describe('site scope', () => {
  let w: MembershipWorld;
  let b: PaymentsWorld; // the same app, acting as site B
  let adminB: MadeUser;
  let memberB: MadeUser;

  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld());
    const siteB = await makeSite(w.t);
    adminB = await makeUser(w.t, siteB, { role: 'admin' });
    memberB = await makeUser(w.t, siteB);
    b = { ...w, site: siteB, admin: adminB };
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  const as = (user: MadeUser) => api(w.t.app).as(user.token);
  const one = async <T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T> =>
    (await w.t.db.query<T[]>(sql, params))[0];

  /** A closed raffle of site B with one free entry by memberB. */
  async function closedRaffleOfB(): Promise<{ id: string }> {
    const r = await makePublished(w.t, adminB.token, { allow_free_entries: true });
    await as(memberB).post(`/raffles/${r.id}/entries`, { method: 'free', quantity: 1 }).expect(201);
    await as(adminB).post(`/admin/raffles/${r.id}/close`).expect(200);
    return r;
  }

  describe('draws and prizes', () => {
    it('admin of A drawing site B’s closed raffle: 404, B’s raffle stays undrawn', async () => {
      const r = await closedRaffleOfB();
      await as(w.admin).post(`/admin/raffles/${r.id}/draw`, { winners: 1 }).expect(404);
      const row = await one<{ is_drawn: boolean }>(`SELECT is_drawn FROM raffles WHERE id = $1`, [r.id]);
      expect(row.is_drawn).toBe(false);
    });

    it('admin of A listing unclaimed prizes sees none of site B’s winners', async () => {
      const r = await closedRaffleOfB();
      await as(adminB).post(`/admin/raffles/${r.id}/draw`, { winners: 1 }).expect(201);
      const mine = await as(w.admin).get('/admin/raffle-winners/unclaimed?limit=100').expect(200);
      expect((mine.body as Array<{ raffle_id: string }>).filter((x) => x.raffle_id === r.id)).toEqual([]);
      const theirs = await as(adminB).get('/admin/raffle-winners/unclaimed?limit=100').expect(200);
      expect((theirs.body as Array<{ raffle_id: string }>).some((x) => x.raffle_id === r.id)).toBe(true);
    });
  });

  describe('lists that name their site in the query, as every admin list does', () => {
    it('unclaimed prizes and dead letters take ?site_id=: the superadmin’s pick, an admin’s own site, never another', async () => {
      const r = await closedRaffleOfB();
      await as(adminB).post(`/admin/raffles/${r.id}/draw`, { winners: 1 }).expect(201);
      const prizesOfB = await as(w.root)
        .get(`/admin/raffle-winners/unclaimed?site_id=${b.site}&limit=100`)
        .expect(200);
      expect((prizesOfB.body as Array<{ raffle_id: string }>).some((x) => x.raffle_id === r.id)).toBe(true);
      const prizesOfA = await as(w.root)
        .get(`/admin/raffle-winners/unclaimed?site_id=${w.site}&limit=100`)
        .expect(200);
      expect((prizesOfA.body as Array<{ raffle_id: string }>).some((x) => x.raffle_id === r.id)).toBe(false);
      await as(adminB).get(`/admin/raffle-winners/unclaimed?site_id=${b.site}`).expect(200);
      await as(w.admin).get(`/admin/raffle-winners/unclaimed?site_id=${b.site}`).expect(403);

      await as(w.root).get(`/admin/integrations/dead-letters?site_id=${b.site}`).expect(200);
      await as(adminB).get(`/admin/integrations/dead-letters?site_id=${b.site}`).expect(200);
      await as(w.admin).get(`/admin/integrations/dead-letters?site_id=${b.site}`).expect(403);
      const tooLong = await as(w.root)
        .get(`/admin/integrations/dead-letters?site_id=${'x'.repeat(65)}`)
        .expect(400);
      expect(tooLong.body.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('memberships', () => {
    it('admin of A pausing, resuming or upgrading site B’s membership: 404, unchanged', async () => {
      const tierB = await tierOn(b);
      const richerB = await tierOn(b, { amount_cents: 5000 });
      const sub = await activeMember(b, tierB.id);
      await as(w.admin)
        .post('/admin/subscriptions/pause', {
          subscription_id: sub.id,
          paused_until: new Date(Date.now() + 5 * 86_400_000).toISOString(),
          reason: 'x',
        })
        .expect(404);
      await as(w.admin)
        .post('/admin/subscriptions/upgrade', { subscription_id: sub.id, new_tier: richerB.id, reason: 'x' })
        .expect(404);
      // Paused by its own admin, then a resume from A's admin.
      await as(adminB)
        .post('/admin/subscriptions/pause', {
          subscription_id: sub.id,
          paused_until: new Date(Date.now() + 5 * 86_400_000).toISOString(),
          reason: 'own admin',
        })
        .expect(200);
      await as(w.admin)
        .post('/admin/subscriptions/resume', { subscription_id: sub.id, reason: 'x' })
        .expect(404);
      const row = await one<{ status: string; tier_id: string }>(
        `SELECT status, tier_id FROM subscriptions WHERE id = $1`,
        [sub.id],
      );
      expect(row).toEqual({ status: 'paused', tier_id: tierB.id });
    });

    it('admin of A upgrading its own member to site B’s tier (by id or name): 404 Tier', async () => {
      const tierA = await tierOn(w);
      const richerB = await tierOn(b, { amount_cents: 9000, name: `b-only-${uid()}` });
      const sub = await activeMember(w, tierA.id);
      for (const ref of [richerB.id, richerB.name])
        await as(w.admin)
          .post('/admin/subscriptions/upgrade', { subscription_id: sub.id, new_tier: ref, reason: 'x' })
          .expect(404);
      const row = await one<{ tier_id: string }>(`SELECT tier_id FROM subscriptions WHERE id = $1`, [sub.id]);
      expect(row.tier_id).toBe(tierA.id);
    });
  });

  describe('merch', () => {
    it('admin of A editing site B’s product or reading site B’s order: 404, unchanged', async () => {
      const product = await productOn(b);
      await as(w.admin).put(`/api/admin/merch/products/${product.id}`, { amount_cents: 1 }).expect(404);
      const row = await one<{ amount_cents: number }>(
        `SELECT amount_cents FROM merch_products WHERE id = $1`,
        [product.id],
      );
      expect(row.amount_cents).toBe(product.amount_cents);
      const order = await as(memberB)
        .post('/merch/orders', { items: [{ merch_product_id: product.id, copies: 1 }], ...ADDRESS })
        .expect(201);
      const orderId = (order.body as { merch_order: { id: string } }).merch_order.id;
      await as(w.admin).get(`/api/admin/merch/orders/${orderId}`).expect(404);
      await as(adminB).get(`/api/admin/merch/orders/${orderId}`).expect(200);
    });

    it('a member of A ordering site B’s product by POST /merch/orders: refused, nothing written', async () => {
      const product = await productOn(b);
      const memberA = await makeUser(w.t, w.site);
      const res = await as(memberA).post('/merch/orders', {
        items: [{ merch_product_id: product.id, copies: 1 }],
        ...ADDRESS,
      });
      expect([404, 422]).toContain(res.status);
      const rows = await w.t.db.query(`SELECT 1 FROM merch_orders WHERE user_id = $1`, [memberA.user.id]);
      expect(rows).toEqual([]);
    });
  });

  describe('discount codes', () => {
    it('admin of A updating or deleting site B’s code: 404, unchanged and not deleted', async () => {
      const brand = await makeBrand(w.t, adminB.token);
      const code = (await as(adminB).post('/discount-codes', codeBody(brand.id)).expect(201)).body as {
        id: string;
      };
      await as(w.admin).put(`/discount-codes/${code.id}`, { title: 'Hijacked' }).expect(404);
      await as(w.admin).delete(`/discount-codes/${code.id}`).expect(404);
      const row = await one<{ title: string; deleted_at: Date | null }>(
        `SELECT title, deleted_at FROM discount_codes WHERE id = $1`,
        [code.id],
      );
      expect(row).toEqual({ title: 'Ten off', deleted_at: null });
    });

    it('admin of A moving its code to site B’s brand through PUT: 422, brand unchanged', async () => {
      const brandA = await makeBrand(w.t, w.admin.token);
      const brandB = await makeBrand(w.t, adminB.token);
      const code = (await as(w.admin).post('/discount-codes', codeBody(brandA.id)).expect(201)).body as {
        id: string;
      };
      await as(w.admin).put(`/discount-codes/${code.id}`, { discount_brand_id: brandB.id }).expect(422);
      const row = await one<{ discount_brand_id: string }>(
        `SELECT discount_brand_id FROM discount_codes WHERE id = $1`,
        [code.id],
      );
      expect(row.discount_brand_id).toBe(brandA.id);
    });

    it('admin of A exporting site B’s bulk codes as CSV: 404', async () => {
      const brand = await makeBrand(w.t, adminB.token);
      const bulk = (await as(adminB).post('/discount-codes/bulk-generate', bulkBody(brand.id)).expect(201))
        .body as { id: string };
      await as(w.admin).get(`/admin/discount-codes/${bulk.id}/codes.csv`).expect(404);
    });
  });

  describe('a site named twice', () => {
    const twoSites = { status: 400, code: 'VALIDATION_FAILED', field: 'site_id' };
    const refusal = (res: {
      status: number;
      body: { code?: string; errors?: Array<{ field: string }> };
    }) => ({
      status: res.status,
      code: res.body.code,
      field: res.body.errors?.[0]?.field,
    });

    it('admin of A: ?site_id=A with body site_id=B is refused, nothing created on either site', async () => {
      const name = `Smuggled ${uid()}`;
      const res = await as(w.admin).post(`/admin/raffles?site_id=${w.site}`, {
        name,
        currency: 'GBP',
        price_display: 2.5,
        total_entries_available: 10,
        start_date: new Date(Date.now() - 86_400_000).toISOString(),
        end_date: new Date(Date.now() + 86_400_000).toISOString(),
        site_id: b.site,
      });
      expect(refusal(res)).toEqual(twoSites);
      expect(await w.t.db.query(`SELECT site_id FROM raffles WHERE name = $1`, [name])).toEqual([]);
    });

    it('admin of A: ?site_id=A with X-Site-Id B is refused; with X-Site-Id A finds only site A’s users', async () => {
      const res = await as(w.admin)
        .get(`/admin/users?site_id=${w.site}&email=${memberB.email}`)
        .set('X-Site-Id', b.site);
      expect(refusal(res)).toEqual(twoSites);
      const same = await as(w.admin)
        .get(`/admin/users?site_id=${w.site}&email=${memberB.email}`)
        .set('X-Site-Id', w.site)
        .expect(200);
      expect(same.body).toEqual([]);
    });

    it('a member of B naming B in the query and A in the body is refused, nothing ordered', async () => {
      const r = await makePublished(w.t, adminB.token);
      const buyer = await makeUser(w.t, b.site);
      const res = await as(buyer).post(`/gatewayone/create-order?site_id=${b.site}`, {
        item_id: r.item_id,
        quantity: 1,
        site_id: w.site,
      });
      // The order endpoints answer in their own shape (DESIGN §4).
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error_code: 'VALIDATION_FAILED' });
      expect(
        await w.t.db.query(`SELECT id FROM payment_transactions WHERE user_id = $1`, [buyer.user.id]),
      ).toEqual([]);
    });
  });

  describe('account and points by id', () => {
    it('admin of A deleting a member of site B: 404, the member intact', async () => {
      await as(w.admin).delete(`/admin/users/${memberB.user.id}`).expect(404);
      const row = await one<{ deleted_at: Date | null; email: string }>(
        `SELECT deleted_at, email FROM users WHERE id = $1`,
        [memberB.user.id],
      );
      expect(row).toEqual({ deleted_at: null, email: memberB.email });
    });

    it('admin of A entering site B’s member into its own raffle by post: 404', async () => {
      const r = await makePublished(w.t, w.admin.token);
      await as(w.admin)
        .post(`/admin/raffles/${r.id}/entries`, { user_id: memberB.user.id, quantity: 1, method: 'postal' })
        .expect(404);
    });
  });

  describe('website forms replayed by an admin', () => {
    it('admin of A replaying a form that names site B and a member of B: site B’s member untouched', async () => {
      const before = await one(
        `SELECT first_name, last_name, phone_number FROM user_profiles WHERE user_id = $1`,
        [memberB.user.id],
      );
      const res = await as(w.admin).post('/admin/cms/replay-submission', {
        triggerType: 'form_submission',
        payload: {
          id: `sub-${randomBytes(6).toString('hex')}`,
          name: 'Join the club',
          siteId: b.site,
          formId: 'form-1',
          formElementId: 'el-1',
          pageId: 'page-1',
          publishedPath: '/join',
          submittedAt: new Date().toISOString(),
          data: { 'Your E-mail': memberB.email, 'First Name': 'Owned', Phone: '+447700900999' },
          schema: [
            { fieldElementId: 'a', fieldName: 'Your E-mail', fieldType: 'email' },
            { fieldElementId: 'b', fieldName: 'First Name', fieldType: 'plain' },
            { fieldElementId: 'd', fieldName: 'Phone', fieldType: 'tel' },
          ],
        },
      });
      expect([200, 403]).toContain(res.status);
      const after = await one(
        `SELECT first_name, last_name, phone_number FROM user_profiles WHERE user_id = $1`,
        [memberB.user.id],
      );
      expect(after).toEqual(before);
    });
  });

  describe('members across sites', () => {
    it('registering on A with a referral code of site B: 422, no referral recorded', async () => {
      const code = (await as(memberB).get('/rewards/referral-code').expect(200)).body.referral_code as string;
      const email = `ref-${uid()}@example.com`;
      const res = await api(w.t.app).post('/auth/register', {
        email,
        password: DEFAULT_PASSWORD,
        site_id: w.site,
        data_processing_consent: true,
        age_confirmed: true,
        referral_code: code,
      });
      expect(res.status).toBe(422);
      const rows = await w.t.db.query(`SELECT 1 FROM referrals WHERE referrer_user_id = $1`, [
        memberB.user.id,
      ]);
      expect(rows).toEqual([]);
    });

    it('a member of A buying site B’s raffle by item_id (token, no site named): 404', async () => {
      const r = await makePublished(w.t, adminB.token);
      const memberA = await makeUser(w.t, w.site);
      await as(memberA).post('/gatewayone/create-order', { item_id: r.item_id, quantity: 1 }).expect(404);
    });

    it('a member of A subscribing to site B’s tier by id: 404', async () => {
      const tierB = await tierOn(b);
      const memberA = await makeUser(w.t, w.site);
      await as(memberA).post('/subscriptions', { tier_id: tierB.id }).expect(404);
    });

    it('a draft of site B is not reachable by A’s admin publishing it', async () => {
      const d = await makeDraft(w.t, adminB.token);
      await as(w.admin).post(`/admin/raffles/${d.id}/publish`).expect(404);
      const row = await one<{ draft: boolean }>(`SELECT draft FROM raffles WHERE id = $1`, [d.id]);
      expect(row.draft).toBe(true);
    });
  });

  describe('idempotent replays across sites', () => {
    it('an anonymous order on site B with a key and body first used on site A is not answered with site A’s order', async () => {
      const itemId = `shared-${uid()}`;
      await makePublished(w.t, w.admin.token, { item_id: itemId });
      await makePublished(w.t, adminB.token, { item_id: itemId });
      const key = `cart-${uid()}`;
      const body = { item_id: itemId, quantity: 1, customer_email: `guest-${uid()}@example.com` };
      const first = await api(w.t.app)
        .post('/gatewayone/create-order', body)
        .set('X-Site-Id', w.site)
        .set('Idempotency-Key', key)
        .expect(200);
      const firstSite = await one<{ site_id: string }>(
        `SELECT site_id FROM payment_transactions WHERE id = $1`,
        [first.body.order_id],
      );
      expect(firstSite.site_id).toBe(w.site);
      const second = await api(w.t.app)
        .post('/gatewayone/create-order', body)
        .set('X-Site-Id', b.site)
        .set('Idempotency-Key', key);
      // Either refused as a reused key (422) or a new order of site B; never site A's order handed to B's buyer.
      if (second.status === 200) {
        expect(second.body.order_id).not.toBe(first.body.order_id);
        const row = await one<{ site_id: string }>(`SELECT site_id FROM payment_transactions WHERE id = $1`, [
          second.body.order_id,
        ]);
        expect(row.site_id).toBe(b.site);
      } else expect(second.status).toBe(422);
    });
  });

  describe('per-site rate limits (DESIGN §9) follow the site the request acts on', () => {
    /** A site whose admin set order creation to 2 a minute per IP, with a raffle on sale. */
    async function strictSite(): Promise<{ site: string; itemId: string }> {
      const site = await makeSite(w.t, { settings: { rate_limits: { 'order-create-ip': 2 } } });
      const admin = await makeUser(w.t, site, { role: 'admin' });
      const r = await makePublished(w.t, admin.token);
      return { site, itemId: r.item_id };
    }
    /** A site whose admin set order creation to the most allowed. */
    async function laxSite(): Promise<string> {
      return makeSite(w.t, { settings: { rate_limits: { 'order-create-ip': 10_000 } } });
    }
    const order = (ip: string, query: string, body: Record<string, unknown>) =>
      api(w.t.app)
        .from(ip)
        .post(`/gatewayone/create-order${query}`, {
          quantity: 1,
          customer_email: `g-${uid()}@example.com`,
          ...body,
        });

    it('site B’s limit holds when the body names site B', async () => {
      const strict = await strictSite();
      const ip = `198.20.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await order(ip, '', { item_id: strict.itemId, site_id: strict.site })).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
    });

    it('another site’s lax limit named in the body lifts nothing: the request naming two sites is refused', async () => {
      const strict = await strictSite();
      const lax = await laxSite();
      const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await order(ip, `?site_id=${strict.site}`, { item_id: strict.itemId, site_id: lax })).status,
        );
      // Counted at B's limit (the query's site), refused for naming two sites: nothing made anywhere.
      expect(statuses).toEqual([400, 400, 429, 429]);
      const made = await w.t.db.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM payment_transactions WHERE site_id IN ($1, $2)`,
        [strict.site, lax],
      );
      expect(made[0].n).toBe(0);
    });

    it('site B’s limit holds for orders on B named by the query or X-Site-Id instead of the body', async () => {
      const strict = await strictSite();
      const ip = `198.19.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await order(ip, `?site_id=${strict.site}`, { item_id: strict.itemId })).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
      const other = await strictSite();
      const ip2 = `198.21.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const byHeader: number[] = [];
      for (let i = 0; i < 4; i++)
        byHeader.push((await order(ip2, '', { item_id: other.itemId }).set('X-Site-Id', other.site)).status);
      expect(byHeader).toEqual([200, 200, 429, 429]);
    });
  });
});
