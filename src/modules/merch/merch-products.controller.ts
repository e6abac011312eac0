import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentSite, Public } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { MerchProductDto, MerchProductListQueryDto } from './dto/merch.dto.js';
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
}
