import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { PointTransactionDto } from './dto/point-transaction.dto.js';
import { ReferralCodeDto, ReferralDto, RewardsSummaryDto } from './dto/referral.dto.js';
import { PointsLedgerQueryDto, ReferralsQueryDto, RewardsSiteQueryDto } from './dto/rewards-requests.dto.js';
import { ReferralsService } from './referrals.service.js';
import { RewardsSummaryService } from './rewards-summary.service.js';
import { RewardsService } from './rewards.service.js';

const SITE_HEADER = {
  name: 'X-Site-Id',
  required: false,
  description: 'The site, when no `site_id` is given; else your token’s site.',
};

@ApiTags('rewards')
@Controller('rewards')
export class RewardsController {
  constructor(
    private readonly rewards: RewardsService,
    private readonly summaries: RewardsSummaryService,
    private readonly referrals: ReferralsService,
  ) {}

  @Get('summary')
  @Auth('user')
  @ApiOperation({
    summary: 'Your rewards summary',
    description:
      'Points, loyalty streak and milestones, discount claims, referrals, and what the next bonuses need. ' +
      'Site from `site_id`, else the `X-Site-Id` header, else your token’s site (another site: 403).',
  })
  @ApiHeader(SITE_HEADER)
  @ApiOkResponse({ type: RewardsSummaryDto })
  @ApiErrors(400)
  rewardsSummary(
    @CurrentUser() user: AuthUser,
    @CurrentSite() siteId: string | undefined,
    @Query() _query: RewardsSiteQueryDto,
  ): Promise<RewardsSummaryDto> {
    return this.summaries.summaryOf(user, siteId ?? user.siteId);
  }

  @Get('referrals')
  @Auth('user')
  @ApiOperation({
    summary: 'The referrals you made',
    description:
      'Newest first. Site as for the summary. Paged: `limit`, `cursor`; next page in `X-Next-Cursor` and `Link`.',
  })
  @ApiHeader(SITE_HEADER)
  @ApiOkResponse({ type: [ReferralDto] })
  @ApiErrors(400)
  async listMyReferrals(
    @CurrentUser() user: AuthUser,
    @CurrentSite() siteId: string | undefined,
    @Query() query: ReferralsQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReferralDto[]> {
    const rows = await this.referrals.listOf(user, siteId ?? user.siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Get('referral-code')
  @Auth('user')
  @ApiOperation({
    summary: 'Your referral code',
    description:
      'Made on first request and the same ever after; a friend gives it as `referral_code` when registering.',
  })
  @ApiOkResponse({ type: ReferralCodeDto })
  myReferralCode(@CurrentUser() user: AuthUser): Promise<ReferralCodeDto> {
    return this.referrals.codeOf(user);
  }

  @Get('points')
  @Auth('user')
  @ApiOperation({
    summary: 'Your points ledger, newest first',
    description: 'Paged: `limit`, `cursor`; next page in `X-Next-Cursor` and `Link`.',
  })
  @ApiOkResponse({ type: [PointTransactionDto] })
  @ApiErrors(400)
  async points(
    @CurrentUser() user: AuthUser,
    @Query() query: PointsLedgerQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PointTransactionDto[]> {
    const rows = await this.rewards.ledgerOf(user.id, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }
}
