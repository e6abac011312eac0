import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentSite, Public } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { TierDto, TierListQueryDto } from './dto/tier.dto.js';
import { TiersService } from './tiers.service.js';

@ApiTags('subscription tiers')
@Controller('subscription-tiers')
export class TiersController {
  constructor(private readonly tiers: TiersService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'A site’s active tiers, by sort_order',
    description:
      'Site from `site_id`, else the `X-Site-Id` header (400 without either). Paged: `limit`, `cursor`; next page in `X-Next-Cursor`.',
  })
  @ApiHeader({ name: 'X-Site-Id', required: false, description: 'The site, when no `site_id` is given.' })
  @ApiOkResponse({ type: [TierDto] })
  @ApiErrors(400)
  async listTiers(
    @CurrentSite() siteId: string | undefined,
    @Query() query: TierListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TierDto[]> {
    const rows = await this.tiers.list(siteId, true, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }
}
