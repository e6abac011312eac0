import { api } from '../support/api';
import { bulkBody, codeBody, makeBrand } from '../support/discounts';
import { makeSite, makeUser, type MadeUser } from '../support/factories';
import { tierOn } from '../support/memberships';
import { type MerchWorld, productOn, startMerchWorld, stopMerchWorld } from '../support/merch';
import { raffleOn } from '../support/payments';
import { makeDraft } from '../support/raffles';

/**
 * Staff actions that set prices and point costs, or move a raffle to its draw, are recorded in the staff
 * member's own activity log once they succeed: who, when, from where, on what, which fields. A refused
 * request records nothing.
 */
describe('staff actions in the activity log', () => {
  let w: MerchWorld;
  let admin: MadeUser;
  let root: MadeUser;

  beforeAll(async () => {
    w = await startMerchWorld();
    admin = await makeUser(w.t, w.site, { role: 'admin' });
    root = await makeUser(w.t, w.site, { role: 'superadmin' });
  });
  afterAll(() => stopMerchWorld(w));

  type Row = {
    user_id: string;
    actor_id: string;
    site_id: string;
    activity_type: string;
    description: string;
    resource_type: string;
    resource_id: string | null;
    metadata: Record<string, unknown>;
    ip_address: string | null;
  };
  const recorded = async (resourceId?: string): Promise<Row[]> =>
    w.t.db.query<Row[]>(
      `SELECT user_id, actor_id, site_id, activity_type, description, resource_type, resource_id, metadata, ip_address
         FROM activity_logs WHERE actor_id = $1 AND ($2::text IS NULL OR resource_id = $2) ORDER BY created_at`,
      [admin.user.id, resourceId ?? null],
    );
  const as = () => api(w.t.app).as(admin.token);

  it('records who published, closed and drew a raffle, on their own record, with where from', async () => {
    const member = await makeUser(w.t, w.site);
    const draft = await makeDraft(w.t, admin.token);
    await as().post(`/admin/raffles/${draft.id}/publish`).expect(200);
    await as()
      .post(`/admin/raffles/${draft.id}/entries`, { user_id: member.user.id, quantity: 2, method: 'postal' })
      .expect(201);
    await as().post(`/admin/raffles/${draft.id}/close`).expect(200);
    await as().post(`/admin/raffles/${draft.id}/draw`, { winners: 1 }).expect(201);
    await as().post(`/admin/raffles/${draft.id}/draw`, { winners: 1 }).expect(409); // refused: nothing recorded
    const rows = (await recorded(draft.id)).filter((r) => r.resource_type === 'raffle');
    expect(rows.map((r) => [r.activity_type, r.description])).toEqual([
      ['raffle_created', expect.stringMatching(/^Raffle created: /)],
      ['raffle_published', 'Raffle published'],
      ['raffle_closed', 'Raffle closed'],
      ['raffle_drawn', 'Raffle drawn: winners'],
    ]);
    for (const row of rows)
      expect(row).toMatchObject({ user_id: admin.user.id, site_id: w.site, ip_address: expect.any(String) });
  });

  it('records the fields of every price and point-cost change, never their values', async () => {
    const tier = await tierOn({ ...w, admin });
    await as().put(`/admin/subscription-tiers/${tier.id}`, { amount_cents: 2500 }).expect(200);
    const raffle = await raffleOn({ ...w, admin });
    await as().put(`/admin/raffles/${raffle.id}`, { price_display: 9.99 }).expect(200);
    const brand = await makeBrand(w.t, admin.token);
    const code = (await as().post('/discount-codes', codeBody(brand.id)).expect(201)).body as { id: string };
    await as().put(`/discount-codes/${code.id}`, { points_required: 1 }).expect(200);
    await as().put(`/discount-codes/${code.id}`, { points_required: -1 }).expect(400); // refused
    await as().delete(`/discount-codes/${code.id}`).expect(204);
    const product = await productOn({ ...w, admin });
    await as().put(`/api/admin/merch/products/${product.id}`, { amount_cents: 1999 }).expect(200);
    const changes = async (id: string) =>
      (await recorded(id)).map((r) => [r.activity_type, r.metadata.fields ?? null]);
    expect(await changes(tier.id)).toEqual(expect.arrayContaining([['tier_updated', ['amount_cents']]]));
    expect(await changes(raffle.id)).toEqual(expect.arrayContaining([['raffle_updated', ['price_display']]]));
    expect((await changes(code.id)).slice(1)).toEqual([
      ['discount_code_updated', ['points_required']],
      ['discount_code_deleted', null],
    ]);
    expect(await changes(product.id)).toEqual(
      expect.arrayContaining([['merch_product_updated', ['amount_cents']]]),
    );
    const text = JSON.stringify(await recorded());
    expect(text).not.toContain('9.99');
    expect(text).not.toContain('1999');
  });

  it('records a raffle sent whole (every field of the form), naming it in its one spelling', async () => {
    const texts = ['slug', 'campaign_name', 'description', 'long_description', 'short_teaser', 'details'];
    const whole = {
      ...Object.fromEntries(
        [
          ...texts,
          'hero_header',
          'hero_description',
          'cta_text',
          'final_cta_heading',
          'final_cta_description',
        ]
          .concat(['what_you_can_win_1', 'what_you_can_win_2', 'what_you_can_win_3', 'worth_total'])
          .concat([
            'worth_subline',
            'checkout_description',
            'quick_wins',
            'quick_buy_options',
            'giveaway_type',
          ])
          .map((k) => [k, `${k}-text`]),
      ),
      points_required: 0,
      max_entries: 50,
    };
    const draft = await makeDraft(w.t, admin.token);
    await as().put(`/admin/raffles/${draft.id.toUpperCase()}`, whole).expect(200);
    const [row] = (await recorded(draft.id)).filter((r) => r.activity_type === 'raffle_updated');
    expect(row.description).toBe(`Raffle changed: ${Object.keys(whole).length} fields`);
    expect(row.metadata.fields).toHaveLength(Object.keys(whole).length);
  });

  it('records a superadmin’s change of another site’s raffle on that site, named or not', async () => {
    const other = await makeSite(w.t);
    const draft = await makeDraft(w.t, (await makeUser(w.t, other, { role: 'admin' })).token);
    await api(w.t.app).as(root.token).put(`/admin/raffles/${draft.id}`, { price_display: 0.5 }).expect(200);
    await api(w.t.app)
      .as(root.token)
      .post(`/admin/raffles/${draft.id}/publish`)
      .set('X-Site-Id', other)
      .expect(200);
    const rows = await w.t.db.query<Array<{ site_id: string }>>(
      `SELECT site_id FROM activity_logs WHERE actor_id = $1 AND resource_id = $2`,
      [root.user.id, draft.id],
    );
    expect(rows.map((r) => r.site_id)).toEqual([other, other]);
  });

  it('records codes generated in bulk, and a job an admin ran by hand', async () => {
    const brand = await makeBrand(w.t, admin.token);
    await as().post('/discount-codes/bulk-generate', bulkBody(brand.id)).expect(201);
    await api(w.t.app).as(root.token).post('/admin/jobs/expiries/run').expect(200);
    const generated = (await recorded()).filter((r) => r.activity_type === 'discount_codes_generated');
    expect(generated).toHaveLength(1);
    const [run] = await w.t.db.query<Row[]>(
      `SELECT activity_type, resource_id FROM activity_logs WHERE actor_id = $1 AND activity_type = 'job_run'`,
      [root.user.id],
    );
    expect(run).toEqual({ activity_type: 'job_run', resource_id: 'expiries' });
  });
});
