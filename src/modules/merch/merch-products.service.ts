import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { normalizeCurrency } from '#app/common/money.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import type { CreateMerchProductDto, MerchProductDto, UpdateMerchProductDto } from './dto/merch.dto.js';
import type { MerchProduct } from './entities/merch-product.entity.js';
import { toProductDto } from './merch.mapper.js';
import { MerchRepository } from './merch.repository.js';

/** Products: created and updated by a site's admins, listed publicly per site. */
@Injectable()
export class MerchProductsService {
  constructor(
    private readonly merch: MerchRepository,
    private readonly sites: SitesService,
  ) {}

  async create(siteId: string, body: CreateMerchProductDto): Promise<MerchProductDto> {
    await this.sites.requireSite(siteId);
    const product = await this.merch.insertProduct({
      site_id: siteId,
      name: body.name.trim(),
      description: body.description ?? null,
      sku: body.sku.trim(),
      amount_cents: body.amount_cents,
      currency: normalizeCurrency(body.currency),
      sizing: body.sizing ?? 'fillPrintArea',
      attributes: body.attributes ?? {},
      assets: body.assets ?? {},
      active: body.active ?? true,
    });
    return toProductDto(product);
  }

  /** Another site's product is 404 to an admin; a superadmin may edit any site's. */
  async update(
    caller: AuthUser,
    siteId: string,
    id: string,
    body: UpdateMerchProductDto,
  ): Promise<MerchProductDto> {
    const product = await this.merch.findProduct(id);
    if (!product || (product.site_id !== siteId && caller.role !== 'superadmin'))
      throw AppException.notFound('Product');
    const changes: Partial<MerchProduct> = {};
    if (body.name !== undefined) changes.name = body.name.trim();
    if (body.description !== undefined) changes.description = body.description;
    if (body.sku !== undefined) changes.sku = body.sku.trim();
    if (body.amount_cents !== undefined) changes.amount_cents = body.amount_cents;
    if (body.currency !== undefined) changes.currency = normalizeCurrency(body.currency);
    if (body.sizing !== undefined) changes.sizing = body.sizing;
    if (body.attributes !== undefined) changes.attributes = body.attributes;
    if (body.assets !== undefined) changes.assets = body.assets;
    if (body.active !== undefined) changes.active = body.active;
    await this.merch.updateProduct(id, changes);
    return toProductDto((await this.merch.findProduct(id)) ?? product);
  }

  async listPublic(siteId: string | undefined, limit: number, cursor?: string): Promise<MerchProductDto[]> {
    if (!siteId) throw AppException.validation([{ field: 'site_id', message: 'site_id is required' }]);
    return (await this.merch.listProducts(siteId, true, limit, cursor)).map(toProductDto);
  }
}
