import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { CatalogueRepository } from './catalogue.repository.js';
import { DiscountCodeViews } from './discount-code-views.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import { toBrandDto, toTagDto } from './discounts.mapper.js';
import { isUuid, slugify } from './discounts.rules.js';
import type { CreateDiscountBrandDto, CreateTagDto } from './dto/catalogue.dto.js';
import type { DiscountBrandDto, DiscountCodeDto, TagDto } from './dto/responses.dto.js';
import type { DiscountBrand } from './entities/discount-brand.entity.js';
import type { Tag } from './entities/tag.entity.js';

/** A list needs a site: from the query, the `X-Site-Id` header or the caller's token. */
export function requireListSite(siteId: string | undefined): string {
  if (!siteId)
    throw AppException.validation([
      { field: 'site_id', message: 'is required: pass site_id, the X-Site-Id header or a token' },
    ]);
  return siteId;
}

/** A paging cursor is the id of the previous page's last row. */
export function checkCursor(cursor: string | undefined): void {
  if (cursor !== undefined && !isUuid(cursor))
    throw AppException.validation([{ field: 'cursor', message: 'is not a cursor this list gave' }]);
}

function slugFor(given: string | undefined, name: string): string {
  const slug = given ?? slugify(name);
  if (!slug)
    throw AppException.validation([{ field: 'slug', message: 'cannot be made from name; give one' }]);
  return slug;
}

const slugTaken = (what: string, slug: string): AppException =>
  AppException.conflict('SLUG_TAKEN', `The site already has a ${what} with slug "${slug}".`);

/** Brands and tags: creation, public lists, and the checks codes make against them. */
@Injectable()
export class CatalogueService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly codes: DiscountCodesRepository,
    private readonly views: DiscountCodeViews,
    private readonly sites: SitesService,
  ) {}

  async createBrand(siteId: string, body: CreateDiscountBrandDto): Promise<DiscountBrandDto> {
    await this.sites.requireSite(siteId);
    const { site_id: _site, published_on, ...fields } = body;
    const slug = slugFor(body.slug, body.name);
    const brand = await this.catalogue.createBrand({
      ...fields,
      site_id: siteId,
      slug,
      published_on: published_on ? new Date(published_on) : null,
    });
    if (!brand) throw slugTaken('brand', slug);
    return toBrandDto(brand, []);
  }

  /** Published brands (not draft, not archived), each with its active codes as the caller may see them. */
  async listBrands(
    caller: AuthUser | undefined,
    siteId: string | undefined,
    limit: number,
    cursor?: string,
  ): Promise<DiscountBrandDto[]> {
    const site = requireListSite(siteId);
    checkCursor(cursor);
    const brands = await this.catalogue.listPublishedBrands(site, limit, cursor);
    const codes = await this.codes.findByBrands(
      brands.map((b) => b.id),
      true,
    );
    const dtos = await this.views.present(codes, caller, false);
    const byBrand = new Map<string, DiscountCodeDto[]>();
    // Appended in place: copying the brand's array per code was quadratic (500 codes a brand, bench:explain).
    for (const dto of dtos) {
      const list = byBrand.get(dto.discount_brand_id);
      if (list) list.push(dto);
      else byBrand.set(dto.discount_brand_id, [dto]);
    }
    return brands.map((b) => toBrandDto(b, byBrand.get(b.id) ?? []));
  }

  async createTag(siteId: string, body: CreateTagDto): Promise<TagDto> {
    await this.sites.requireSite(siteId);
    const { site_id: _site, ...fields } = body;
    const slug = slugFor(body.slug, body.name);
    const tag = await this.catalogue.createTag({ ...fields, site_id: siteId, slug });
    if (!tag) throw slugTaken('tag', slug);
    return toTagDto(tag);
  }

  /** Active tags of the site, by name. */
  async listTags(siteId: string | undefined, limit: number, cursor?: string): Promise<TagDto[]> {
    const site = requireListSite(siteId);
    checkCursor(cursor);
    return (await this.catalogue.listActiveTags(site, limit, cursor)).map(toTagDto);
  }

  /** The brand a code names must be one of the same site (422 otherwise: the body names it). */
  async requireBrand(siteId: string, id: string, manager: EntityManager): Promise<DiscountBrand> {
    const brand = isUuid(id) ? await this.catalogue.findBrand(siteId, id, manager) : null;
    if (!brand)
      throw AppException.unprocessable('UNKNOWN_DISCOUNT_BRAND', `No discount brand "${id}" on this site.`);
    return brand;
  }

  /** Every tag id must name a tag of the same site (422 listing the unknown ones). */
  async requireTags(siteId: string, ids: string[], manager: EntityManager): Promise<Tag[]> {
    const wanted = [...new Set(ids)];
    const tags = await this.catalogue.findTagsOnSite(siteId, wanted.filter(isUuid), manager);
    const unknown = wanted.filter((id) => !tags.some((t) => t.id === id));
    if (unknown.length)
      throw AppException.unprocessable('UNKNOWN_TAG', `No tag on this site with id ${unknown.join(', ')}.`);
    return tags;
  }

  /** A list filter by slug or id; undefined when nothing on the site matches. */
  async findBrandRef(siteId: string, ref: string): Promise<DiscountBrand | null> {
    if (isUuid(ref)) return this.catalogue.findBrand(siteId, ref);
    return this.catalogue.findBrandBySlug(siteId, ref);
  }

  async findTagRef(siteId: string, ref: string): Promise<Tag | null> {
    if (isUuid(ref)) return (await this.catalogue.findTagsOnSite(siteId, [ref]))[0] ?? null;
    return this.catalogue.findTagBySlug(siteId, ref);
  }
}
