import { api } from './api';
import type { TestApp } from './app';
import { type MadeUser, uid } from './factories';

/** Every field of the spec's Discount code: responses carry each one, never omitting any. */
export const DISCOUNT_CODE_FIELDS = [
  'id',
  'site_id',
  'title',
  'description',
  'category',
  'terms',
  'code',
  'code_display',
  'code_required',
  'code_length',
  'code_pattern',
  'alphanumeric',
  'is_bulk_code',
  'allow_multiple_claims',
  'claimed_codes',
  'has_claimed_code',
  'current_uses',
  'max_uses',
  'points_required',
  'discount_percentage',
  'active',
  'featured',
  'is_valid',
  'valid_from',
  'valid_until',
  'partner_logo',
  'partner_url',
  'thumbnail',
  'third_party_id',
  'discount_brand_id',
  'discount_brand',
  'tags',
  'created_at',
  'updated_at',
].sort();

export const BRAND_FIELDS = [
  'id',
  'site_id',
  'collection_id',
  'item_id',
  'locale_id',
  'name',
  'slug',
  'description',
  'logo',
  'logo_black_and_white',
  'thumbnail',
  'max_discount',
  'published_on',
  'created_at',
  'updated_at',
  'archived',
  'draft',
  'discount_codes',
].sort();

export const TAG_FIELDS = [
  'id',
  'site_id',
  'name',
  'slug',
  'description',
  'color',
  'created_at',
  'updated_at',
  'active',
].sort();

export interface Named {
  id: string;
  slug: string;
}

export async function makeBrand(t: TestApp, adminToken: string, extra: object = {}): Promise<Named> {
  const res = await api(t.app)
    .as(adminToken)
    .post('/admin/discount-brands', { name: `Brand ${uid()}`, ...extra })
    .expect(201);
  return res.body as Named;
}

export async function makeTag(t: TestApp, adminToken: string, extra: object = {}): Promise<Named> {
  const res = await api(t.app)
    .as(adminToken)
    .post('/admin/tags', { name: `Tag ${uid()}`, ...extra })
    .expect(201);
  return res.body as Named;
}

/** The body without one of its fields. */
export function without(body: Record<string, unknown>, field: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => key !== field));
}

/** The smallest valid body of endpoint 7. */
export function codeBody(brandId: string, extra: object = {}): Record<string, unknown> {
  return {
    code: `SAVE${uid().toUpperCase()}`,
    discount_brand_id: brandId,
    points_required: 100,
    title: 'Ten off',
    ...extra,
  };
}

/** The smallest valid body of endpoint 8. */
export function bulkBody(brandId: string, extra: object = {}): Record<string, unknown> {
  return {
    code_length: 8,
    count: 5,
    discount_brand_id: brandId,
    points_required: 50,
    title: 'Bulk offer',
    ...extra,
  };
}

/**
 * A real claim of a discount code by `user` (endpoint `POST /discount-codes/{id}/claim`), with the points
 * it needs granted first by the site's admin: the code the claim handed out.
 */
export async function claimFor(
  t: TestApp,
  adminToken: string,
  user: MadeUser,
  discountCodeId: string,
): Promise<string> {
  await api(t.app)
    .as(adminToken)
    .post('/admin/rewards/adjust', { user_id: user.user.id, amount: 1000, reason: 'Points to claim with' })
    .expect(201);
  const res = await api(t.app).as(user.token).post(`/discount-codes/${discountCodeId}/claim`).expect(201);
  return (res.body as { code: string }).code;
}

export async function uniqueCodesOf(t: TestApp, discountCodeId: string): Promise<string[]> {
  const rows = await t.db.query<Array<{ code: string }>>(
    `SELECT code FROM discount_unique_codes WHERE discount_code_id = $1 ORDER BY code`,
    [discountCodeId],
  );
  return rows.map((r) => r.code);
}
