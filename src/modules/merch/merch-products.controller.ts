import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser, Public } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import {
  CreateMerchProductDto,
  MerchProductDto,
  MerchProductListQueryDto,
  UpdateMerchProductDto,
} from './dto/merch.dto.js';
import { MerchProductsService } from './merch-products.service.js';

@ApiTags('merch')
@Controller()
export class MerchProductsController {
  constructor(private readonly products: MerchProductsService) {}

  @Get('merch/products')
  @Public()
  @ApiOperation({
    summary: 'A site’s merchandise on sale, newest first',
    description:
      'Site from `site_id`, else the `X-Site-Id` header (400 without either). Paged: `limit`, `cursor`.',
  })
  @ApiHeader({ name: 'X-Site-Id', required: false, description: 'The site, when no `site_id` is given.' })
  @ApiOkResponse({ type: [MerchProductDto] })
  @ApiErrors(400)
  async listMerchProducts(
    @CurrentSite() siteId: string | undefined,
    @Query() query: MerchProductListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MerchProductDto[]> {
    const rows = await this.products.listPublic(siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Post('api/admin/merch/products')
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

  @Put('api/admin/merch/products/:id')
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
}
