import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import {
  AdminCancelDto,
  AdminSubscriptionsQueryDto,
  PauseDto,
  ResumeDto,
  SubscriptionDto,
  UpgradeDto,
} from './dto/subscription.dto.js';
import { SubscriptionChangesService } from './subscription-changes.service.js';
import { SubscriptionPausesService } from './subscription-pauses.service.js';
import { SubscriptionsService } from './subscriptions.service.js';

@ApiTags('admin: subscriptions')
@Controller('admin/subscriptions')
export class AdminSubscriptionsController {
  constructor(
    private readonly reads: SubscriptionsService,
    private readonly changes: SubscriptionChangesService,
    private readonly pauses: SubscriptionPausesService,
  ) {}

  @Get()
  @Auth('admin')
  @ApiOperation({
    summary: 'A site’s memberships, newest first',
    description: 'Filter by `status` and `user_id`; paged: `limit`, `cursor`.',
  })
  @ApiOkResponse({ type: [SubscriptionDto] })
  @ApiErrors(400)
  async listSubscriptions(
    @CurrentSite() siteId: string,
    @Query() query: AdminSubscriptionsQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SubscriptionDto[]> {
    const rows = await this.reads.forAdmin(siteId, {
      status: query.status,
      userId: query.user_id,
      limit: query.limit,
      cursor: query.cursor,
    });
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Post('cancel')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a subscription',
    description:
      '`immediate: true` ends it now. Otherwise the cooling-off window (`cooling_off_expiry`, 14 days from the ' +
      'start and from each renewal) is respected: inside it the membership ends now and the period is refunded ' +
      'less the pro-rata value of the credits spent (the arithmetic is recorded on the payment and in ' +
      '`metadata.history`); outside it the membership runs to `current_period_end` (`pending_cancellation`). ' +
      'Inside the window a refund is due even with `immediate: true`.',
  })
  @ApiRequestExample({
    summary: 'Cancel, respecting the cooling-off window',
    description: '`subscription_id`: from `GET /admin/subscriptions`.',
    value: {
      subscription_id: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34',
      reason: 'Member asked by phone',
      immediate: false,
    },
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 404, 'ALREADY_CANCELLED', 'ALREADY_ENDING')
  cancelSubscription(
    @CurrentUser() admin: AuthUser,
    @Body() body: AdminCancelDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    return this.changes.cancel(admin, body.subscription_id, body, meta);
  }

  @Post('upgrade')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upgrade a subscription',
    description:
      'To a tier of the same site that costs more (by name or id): the tier, amount and credits change now, ' +
      'the difference in credits is granted for the current period at once, and the next renewal charges the ' +
      'new amount.',
  })
  @ApiRequestExample({
    summary: 'Move a member to a dearer tier',
    description:
      '`subscription_id`: from `GET /admin/subscriptions`; `new_tier`: a dearer tier’s name or id.',
    value: {
      subscription_id: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34',
      new_tier: 'platinum',
      reason: 'Member asked for more entries',
    },
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 404, 'NOT_AN_UPGRADE', 'NOT_UPGRADABLE')
  upgradeSubscription(
    @CurrentUser() admin: AuthUser,
    @Body() body: UpgradeDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    return this.changes.upgrade(admin, body.subscription_id, body, meta);
  }

  @Post('pause')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pause a subscription',
    description:
      'No credits while paused; it resumes on `paused_until` (or when resumed) with its period extended by the pause.',
  })
  @ApiRequestExample({
    summary: 'Pause for a month',
    description: '`paused_until`: a date in the future, at most a year ahead.',
    value: {
      subscription_id: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34',
      paused_until: '2030-02-01T00:00:00Z',
      reason: 'Travelling for a month',
    },
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 404, 'NOT_PAUSABLE')
  pauseSubscription(
    @CurrentUser() admin: AuthUser,
    @Body() body: PauseDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    return this.pauses.pause(admin, body.subscription_id, body, meta);
  }

  @Post('resume')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Resume a paused subscription now',
    description: 'Its period is extended by the pause.',
  })
  @ApiRequestExample({
    summary: 'Resume',
    value: { subscription_id: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34', reason: 'Back home' },
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 404, 'NOT_PAUSED')
  resumeSubscription(
    @CurrentUser() admin: AuthUser,
    @Body() body: ResumeDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    return this.pauses.resume(admin, body.subscription_id, body, meta);
  }
}
