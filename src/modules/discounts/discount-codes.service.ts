import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { CatalogueService, checkCursor, requireListSite } from './catalogue.service.js';
import { DiscountCodeViews, isAdminOf } from './discount-code-views.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import type {
  CreateDiscountCodeDto,
  ListDiscountCodesQueryDto,
  UpdateDiscountCodeDto,
} from './dto/discount-code-input.dto.js';
import type { DiscountCodeDto } from './dto/responses.dto.js';
import type { DiscountCode } from './entities/discount-code.entity.js';
import { SINGLE_CODE_ONLY, checkWindow, offerColumns, refuseNulls } from './offer-input.js';

/** Single discount codes (endpoint 7), and reading, updating and deleting any code. */
@Injectable()
export class DiscountCodesService {
  constructor(
    private readonly codes: DiscountCodesRepository,
    private readonly catalogue: CatalogueService,
    private readonly views: DiscountCodeViews,
    private readonly tx: TransactionRunner,
  ) {}

  async create(caller: AuthUser, siteId: string, body: CreateDiscountCodeDto): Promise<DiscountCodeDto> {
    if (body.is_bulk_code)
      throw AppException.unprocessable(
        'USE_BULK_GENERATE',
        'Bulk codes are made by POST /discount-codes/bulk-generate, which generates their unique codes.',
      );
    const columns = offerColumns(body);
    checkWindow(columns.valid_from ?? null, columns.valid_until ?? null);
    const code = await this.tx.run(async (manager) => {
      await this.catalogue.requireBrand(siteId, body.discount_brand_id, manager);
      const tags = await this.catalogue.requireTags(siteId, body.tag_ids ?? [], manager);
      return this.codes.insert(
        {
          ...columns,
          site_id: siteId,
          is_bulk_code: false,
          code_length: body.code_length ?? body.code.length,
          alphanumeric: body.alphanumeric ?? !/^\d+$/.test(body.code),
        } as DiscountCode,
        tags.map((t) => t.id),
        manager,
      );
    });
    return this.views.presentOne(code, caller);
  }

  /** Public (and per-viewer) list; admins of the site also see inactive codes. */
  async list(
    caller: AuthUser | undefined,
    siteId: string | undefined,
    q: ListDiscountCodesQueryDto,
  ): Promise<DiscountCodeDto[]> {
    const site = requireListSite(siteId);
    checkCursor(q.cursor);
    const [brand, tag] = await Promise.all([
      q.brand ? this.catalogue.findBrandRef(site, q.brand) : undefined,
      q.tag ? this.catalogue.findTagRef(site, q.tag) : undefined,
    ]);
    if (brand === null || tag === null) return [];
    const rows = await this.codes.list(
      site,
      { activeOnly: !isAdminOf(caller, site), brandId: brand?.id, tagId: tag?.id, featured: q.featured },
      q.limit,
      q.cursor,
    );
    return this.views.present(rows, caller);
  }

  /** One code (endpoints `GET /discount-codes/{id}` and 9); inactive ones only for admins. */
  async get(caller: AuthUser | undefined, siteId: string | undefined, id: string): Promise<DiscountCodeDto> {
    const code = await this.codes.findLive(id, siteId);
    if (!code || (!code.active && !isAdminOf(caller, code.site_id)))
      throw AppException.notFound('Discount code');
    return this.views.presentOne(code, caller);
  }

  async update(
    caller: AuthUser,
    siteId: string,
    id: string,
    body: UpdateDiscountCodeDto,
  ): Promise<DiscountCodeDto> {
    refuseNulls(body);
    const updated = await this.tx.run(async (manager) => {
      const code = await this.codes.lockLive(id, siteId, manager);
      if (!code) throw AppException.notFound('Discount code');
      if (code.is_bulk_code && SINGLE_CODE_ONLY.some((f) => body[f] !== undefined))
        throw AppException.unprocessable(
          'NOT_FOR_BULK_CODES',
          `A bulk code's ${SINGLE_CODE_ONLY.join(', ')} come from its generated codes and cannot be set.`,
        );
      const changes = offerColumns(body);
      const next = { ...code, ...changes };
      checkWindow(next.valid_from, next.valid_until);
      if (body.discount_brand_id !== undefined)
        await this.catalogue.requireBrand(siteId, body.discount_brand_id, manager);
      if (body.tag_ids !== undefined) {
        const tags = await this.catalogue.requireTags(siteId, body.tag_ids ?? [], manager);
        await this.codes.setTags(
          code.id,
          tags.map((t) => t.id),
          manager,
        );
      }
      await this.codes.update(code.id, { ...changes, updated_at: new Date() }, manager);
      return this.codes.findLive(code.id, siteId, manager);
    });
    if (!updated) throw AppException.notFound('Discount code');
    return this.views.presentOne(updated, caller);
  }

  /** Soft delete: gone from every read; generated codes and (later) claims stay for the records. */
  async remove(siteId: string, id: string): Promise<void> {
    if (!(await this.codes.softDelete(id, siteId))) throw AppException.notFound('Discount code');
  }
}
