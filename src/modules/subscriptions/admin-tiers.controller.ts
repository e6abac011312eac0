import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { CreateTierDto, TierDto, TierListQueryDto, UpdateTierDto } from './dto/tier.dto.js';
import { TiersService } from './tiers.service.js';
import { StaffAction } from '#app/modules/users/staff-action.js';

@ApiTags('admin: subscription tiers')
@Controller('admin/subscription-tiers')
export class AdminTiersController {
  constructor(private readonly tiers: TiersService) {}

  @StaffAction({ type: 'tier_created', resource: 'subscription_tier', what: 'Membership tier created' })
  @Post()
  @Auth('admin')
  @ApiOperation({ summary: 'Create a subscription tier' })
  @ApiRequestExample({
    summary: 'A Gold tier on your site',
    value: {
      name: 'gold',
      display_name: 'Gold membership',
      description: 'Five entries into every draw, every month.',
      amount_cents: 999,
      currency: 'GBP',
      entry_credits_per_period: 5,
      features: ['5 entries a month', 'Members-only draws'],
      sort_order: 10,
    },
  })
  @ApiCreatedResponse({ type: TierDto })
  @ApiErrors(400, 'UNKNOWN_SITE', 'TIER_NAME_TAKEN')
  createTier(@CurrentSite() siteId: string, @Body() body: CreateTierDto): Promise<TierDto> {
    return this.tiers.create(siteId, body);
  }

  @Get()
  @Auth('admin')
  @ApiOperation({
    summary: 'All tiers of a site, inactive ones included',
    description: 'Paged: `limit`, `cursor`; next page in `X-Next-Cursor`.',
  })
  @ApiOkResponse({ type: [TierDto] })
  @ApiErrors(400)
  async listAllTiers(
    @CurrentSite() siteId: string,
    @Query() query: TierListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TierDto[]> {
    const rows = await this.tiers.list(siteId, false, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @StaffAction({ type: 'tier_updated', resource: 'subscription_tier', what: 'Membership tier changed' })
  @Put(':id')
  @Auth('admin')
  @ApiOperation({
    summary: 'Update a subscription tier (only the fields sent)',
    description: 'Another site’s tier answers 404. Optional text fields take `null` to clear them.',
  })
  @ApiRequestExample({
    summary: 'A new price and more credits',
    description: '`{id}`: the tier’s id, as its creation answered.',
    value: { amount_cents: 1299, entry_credits_per_period: 8 },
  })
  @ApiOkResponse({ type: TierDto })
  @ApiErrors(400, 404, 'TIER_NAME_TAKEN')
  updateTier(
    @CurrentUser() caller: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateTierDto,
  ): Promise<TierDto> {
    return this.tiers.update(caller, siteId, id, body);
  }
}
