import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import {
  CreateMerchProductDto,
  MerchOrderDto,
  MerchOrderListQueryDto,
  MerchProductDto,
  UpdateMerchProductDto,
} from './dto/merch.dto.js';
import { MerchAdminOrdersService } from './merch-admin-orders.service.js';
import { MerchProductsService } from './merch-products.service.js';
import { StaffAction } from '#app/modules/users/staff-action.js';

@ApiTags('admin: merch')
@Controller('api/admin/merch')
export class MerchAdminController {
  constructor(
    private readonly products: MerchProductsService,
    private readonly admin: MerchAdminOrdersService,
  ) {}

  @StaffAction({ type: 'merch_product_created', resource: 'merch_product', what: 'Merch product created' })
  @Post('products')
  @Auth('admin')
  @ApiOperation({
    summary: 'Create a merch product',
    description: 'Printed on demand by the fulfilment provider.',
  })
  @ApiRequestExample({
    summary: 'A T-shirt with one print',
    value: {
      name: 'Winner’s T-shirt',
      description: 'Soft organic cotton, printed on demand.',
      sku: 'GLOBAL-TEE-GIL-64000',
      amount_cents: 1500,
      currency: 'GBP',
      sizing: 'fillPrintArea',
      attributes: { size: 'm', color: 'black' },
      assets: { default: 'https://cdn.example.com/prints/tee-front.png' },
    },
  })
  @ApiCreatedResponse({ type: MerchProductDto })
  @ApiErrors(400, 'UNKNOWN_SITE')
  createMerchProduct(
    @CurrentSite() siteId: string,
    @Body() body: CreateMerchProductDto,
  ): Promise<MerchProductDto> {
    return this.products.create(siteId, body);
  }

  @StaffAction({ type: 'merch_product_updated', resource: 'merch_product', what: 'Merch product changed' })
  @Put('products/:id')
  @Auth('admin')
  @ApiOperation({
    summary: 'Update a merch product (only the fields sent)',
    description: 'Another site’s is 404.',
  })
  @ApiRequestExample({
    summary: 'A new price',
    description: '`{id}`: the product’s id, as its creation answered.',
    value: { amount_cents: 1800 },
  })
  @ApiOkResponse({ type: MerchProductDto })
  @ApiErrors(400, 404)
  updateMerchProduct(
    @CurrentUser() caller: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateMerchProductDto,
  ): Promise<MerchProductDto> {
    return this.products.update(caller, siteId, id, body);
  }

  @Get('orders')
  @Auth('admin')
  @ApiOperation({
    summary: 'Merch orders of a site, newest first, with their items',
    description:
      'Site from `site_id`, else `X-Site-Id`, else your token’s. Filter by `status_stage`. Paged: `limit` ' +
      '(1–100), `cursor`; the next page in `X-Next-Cursor` and `Link: rel="next"`.',
  })
  @ApiOkResponse({ type: [MerchOrderDto] })
  @ApiErrors(400)
  async listMerchOrders(
    @CurrentSite() siteId: string,
    @Query() query: MerchOrderListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MerchOrderDto[]> {
    const rows = await this.admin.list(siteId, query);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Get('orders/:id')
  @Auth('admin')
  @ApiOperation({ summary: 'One merch order with its items', description: 'Another site’s is 404.' })
  @ApiOkResponse({ type: MerchOrderDto })
  @ApiErrors(400, 404)
  getMerchOrder(
    @CurrentUser() caller: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
  ): Promise<MerchOrderDto> {
    return this.admin.get(caller, siteId, id);
  }
}
