import { type Viewer, isCodeValid, presentCode } from './discounts.rules.js';
import type { DiscountBrandDto, DiscountCodeDto, TagDto } from './dto/responses.dto.js';
import type { DiscountBrand } from './entities/discount-brand.entity.js';
import type { DiscountCode } from './entities/discount-code.entity.js';
import type { Tag } from './entities/tag.entity.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The one place catalogue entities become responses. */
export function toTagDto(t: Tag): TagDto {
  return {
    id: t.id,
    site_id: t.site_id,
    name: t.name,
    slug: t.slug,
    description: t.description,
    color: t.color,
    active: t.active,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

/** `codes` null where the brand is nested in a code (the back-reference is not expanded). */
export function toBrandDto(b: DiscountBrand, codes: DiscountCodeDto[] | null): DiscountBrandDto {
  return {
    id: b.id,
    site_id: b.site_id,
    collection_id: b.collection_id,
    item_id: b.item_id,
    locale_id: b.locale_id,
    name: b.name,
    slug: b.slug,
    description: b.description,
    logo: b.logo,
    logo_black_and_white: b.logo_black_and_white,
    thumbnail: b.thumbnail,
    max_discount: b.max_discount,
    published_on: iso(b.published_on),
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
    archived: b.archived,
    draft: b.draft,
    discount_codes: codes,
  };
}

/** Everything about a code that is not in its row: loaded for a whole page at once. */
export interface CodeContext {
  brand: DiscountBrandDto | null;
  tags: Tag[];
  hasUnclaimedCodes: boolean;
  viewer: Viewer;
  now: Date;
}

export function toDiscountCodeDto(c: DiscountCode, ctx: CodeContext): DiscountCodeDto {
  const shown = presentCode(c, ctx.viewer);
  return {
    id: c.id,
    site_id: c.site_id,
    title: c.title,
    description: c.description,
    category: c.category,
    terms: c.terms,
    code: shown.code,
    code_display: shown.code_display,
    code_required: c.code_required,
    code_length: c.code_length,
    code_pattern: c.code_pattern,
    alphanumeric: c.alphanumeric,
    is_bulk_code: c.is_bulk_code,
    allow_multiple_claims: c.allow_multiple_claims,
    claimed_codes: ctx.viewer.claimedCodes,
    has_claimed_code: ctx.viewer.hasClaimed,
    current_uses: c.current_uses,
    max_uses: c.max_uses,
    points_required: c.points_required,
    discount_percentage: c.discount_percentage,
    active: c.active,
    featured: c.featured,
    is_valid: isCodeValid({ ...c, has_unclaimed_codes: ctx.hasUnclaimedCodes }, ctx.now),
    valid_from: iso(c.valid_from),
    valid_until: iso(c.valid_until),
    partner_logo: c.partner_logo,
    partner_url: c.partner_url,
    thumbnail: c.thumbnail,
    third_party_id: c.third_party_id,
    discount_brand_id: c.discount_brand_id,
    discount_brand: ctx.brand,
    tags: ctx.tags.map(toTagDto),
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}
