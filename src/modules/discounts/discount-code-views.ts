import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { hasRole } from '#app/common/auth/roles.js';
import { CatalogueRepository } from './catalogue.repository.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import { toBrandDto, toDiscountCodeDto } from './discounts.mapper.js';
import type { Viewer } from './discounts.rules.js';
import type { DiscountBrandDto, DiscountCodeDto } from './dto/responses.dto.js';
import type { DiscountCode } from './entities/discount-code.entity.js';
import { ClaimsRepository } from './claims.repository.js';
import { UniqueCodesRepository } from './unique-codes.repository.js';

/** An admin of the site, or a superadmin: sees code texts and inactive codes. */
export function isAdminOf(caller: AuthUser | undefined, siteId: string): boolean {
  if (!caller || !hasRole(caller.role, 'admin')) return false;
  return caller.role === 'superadmin' || caller.siteId === siteId;
}

/**
 * Turns a page of codes into responses: brands, tags, "unclaimed codes left" and the caller's claimed
 * codes are each loaded for the whole page in one query (no N+1). Call it outside any transaction.
 */
@Injectable()
export class DiscountCodeViews {
  constructor(
    private readonly codes: DiscountCodesRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly unique: UniqueCodesRepository,
    private readonly claims: ClaimsRepository,
  ) {}

  /** `withBrand: false` where the codes are nested in their brand (`discount_brand: null`). */
  async present(
    codes: DiscountCode[],
    caller: AuthUser | undefined,
    withBrand = true,
  ): Promise<DiscountCodeDto[]> {
    if (!codes.length) return [];
    const ids = codes.map((c) => c.id);
    const bulkIds = codes.filter((c) => c.is_bulk_code).map((c) => c.id);
    const brandIds = withBrand ? [...new Set(codes.map((c) => c.discount_brand_id))] : [];
    const [tags, unclaimed, claimed, brands] = await Promise.all([
      this.codes.tagsOf(ids),
      this.unique.withUnclaimed(bulkIds),
      caller ? this.claims.claimedBy(caller.id, ids) : new Map<string, string[]>(),
      this.catalogue.findBrandsByIds(brandIds),
    ]);
    const brandById = new Map<string, DiscountBrandDto>(brands.map((b) => [b.id, toBrandDto(b, null)]));
    const now = new Date();
    return codes.map((c) => {
      // `claimed_codes` lists a bulk code's generated codes; a shared code's text shows in `code` once claimed.
      const viewer: Viewer = {
        isAdmin: isAdminOf(caller, c.site_id),
        claimedCodes: c.is_bulk_code ? (claimed.get(c.id) ?? []) : [],
        hasClaimed: claimed.has(c.id),
      };
      return toDiscountCodeDto(c, {
        brand: brandById.get(c.discount_brand_id) ?? null,
        tags: tags.get(c.id) ?? [],
        hasUnclaimedCodes: unclaimed.has(c.id),
        viewer,
        now,
      });
    });
  }

  async presentOne(code: DiscountCode, caller: AuthUser | undefined): Promise<DiscountCodeDto> {
    const [dto] = await this.present([code], caller);
    return dto;
  }
}
