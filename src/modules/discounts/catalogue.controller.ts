import { Body, Controller, Get, HttpCode, HttpStatus, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser, OptionalAuth } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { CatalogueService } from './catalogue.service.js';
import { CreateDiscountBrandDto, CreateTagDto, SiteListQueryDto } from './dto/catalogue.dto.js';
import { DiscountBrandDto, TagDto } from './dto/responses.dto.js';

const PAGED = 'Paged: `limit`, `cursor`; next page in `X-Next-Cursor`.';

@Controller()
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Post('admin/discount-brands')
  @ApiTags('admin: discounts')
  @HttpCode(HttpStatus.CREATED)
  @Auth('admin')
  @ApiOperation({ summary: 'Create a discount brand' })
  @ApiRequestExample({
    summary: 'A partner brand on your site',
    value: {
      name: 'Acme Outdoor',
      description: 'Tents, boots and everything for the trail.',
      logo: 'https://cdn.example.com/acme.png',
      max_discount: 'Up to 40%',
    },
  })
  @ApiCreatedResponse({ type: DiscountBrandDto })
  @ApiErrors(400, 'UNKNOWN_SITE', 'SLUG_TAKEN')
  createBrand(
    @CurrentSite() siteId: string,
    @Body() body: CreateDiscountBrandDto,
  ): Promise<DiscountBrandDto> {
    return this.catalogue.createBrand(siteId, body);
  }

  @Get('discount-brands')
  @ApiTags('discounts')
  @OptionalAuth()
  @ApiOperation({
    summary: 'Published discount brands of a site, by name, each with its active codes',
    description: PAGED,
  })
  @ApiOkResponse({ type: [DiscountBrandDto] })
  @ApiErrors(400)
  async listBrands(
    @CurrentUser() caller: AuthUser | undefined,
    @CurrentSite() siteId: string | undefined,
    @Query() query: SiteListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DiscountBrandDto[]> {
    const rows = await this.catalogue.listBrands(caller, siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Post('admin/tags')
  @ApiTags('admin: discounts')
  @HttpCode(HttpStatus.CREATED)
  @Auth('admin')
  @ApiOperation({ summary: 'Create a tag for discount codes' })
  @ApiRequestExample({
    summary: 'An "Outdoor" tag',
    value: { name: 'Outdoor', color: '#2e7d32' },
  })
  @ApiCreatedResponse({ type: TagDto })
  @ApiErrors(400, 'UNKNOWN_SITE', {
    code: 'SLUG_TAKEN',
    detail: 'The site already has a tag with slug "outdoor".',
  })
  createTag(@CurrentSite() siteId: string, @Body() body: CreateTagDto): Promise<TagDto> {
    return this.catalogue.createTag(siteId, body);
  }

  @Get('tags')
  @ApiTags('discounts')
  @OptionalAuth()
  @ApiOperation({ summary: 'Active tags of a site, by name', description: PAGED })
  @ApiOkResponse({ type: [TagDto] })
  @ApiErrors(400)
  async listTags(
    @CurrentSite() siteId: string | undefined,
    @Query() query: SiteListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TagDto[]> {
    const rows = await this.catalogue.listTags(siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }
}
