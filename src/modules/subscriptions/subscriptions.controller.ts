import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { PageQueryDto, setNextCursor } from '#app/common/pagination/pagination.js';
import {
  CancelOwnDto,
  CardCheckoutDto,
  CreatedSubscriptionDto,
  CreateSubscriptionDto,
  NestedSubscriptionDto,
  SubscriptionDto,
} from './dto/subscription.dto.js';
import { SubscribeService } from './subscribe.service.js';
import { SubscriptionChangesService } from './subscription-changes.service.js';
import { SubscriptionsService } from './subscriptions.service.js';

const ID = { name: 'id', description: 'The subscription’s id.' };

@ApiTags('subscriptions')
// The form the User record nests in its payments (users documents it by name: it cannot import it).
@ApiExtraModels(NestedSubscriptionDto)
@Controller('subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly subscribe: SubscribeService,
    private readonly reads: SubscriptionsService,
    private readonly changes: SubscriptionChangesService,
  ) {}

  @Post()
  @Auth()
  // It opens a checkout, as the create-order endpoints do: a retry replays the membership rather than
  // starting a second one.
  @Idempotent()
  @ApiOperation({
    summary: 'Start a membership',
    description:
      'Opens a gatewayone checkout that registers your card (a tier with a trial only checks it). The ' +
      'membership is `incomplete` until that payment succeeds, then `trialing` or `active`; unpaid, it expires ' +
      'after 24 h. This service charges the registered card at each renewal.',
  })
  @ApiRequestExample({
    summary: 'Subscribe to a tier',
    description: '`tier_id`: an active tier of your site (`GET /subscription-tiers`).',
    value: { tier_id: '3f6c2a0e-8e1b-4d7a-9c55-2b1f0c9d4e11' },
  })
  @ApiCreatedResponse({ type: CreatedSubscriptionDto })
  @ApiErrors(400, 404, 'TIER_NOT_AVAILABLE', 'SELF_PAUSED', 'SPEND_LIMIT_REACHED', 'GATEWAY_UNAVAILABLE')
  subscribeToTier(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateSubscriptionDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<CreatedSubscriptionDto> {
    return this.subscribe.subscribe(user, body, meta);
  }

  @Get()
  @Auth()
  @ApiOperation({ summary: 'Your memberships, newest first', description: 'Paged: `limit`, `cursor`.' })
  @ApiOkResponse({ type: [SubscriptionDto] })
  @ApiErrors(400)
  async listMySubscriptions(
    @CurrentUser() user: AuthUser,
    @Query() query: PageQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SubscriptionDto[]> {
    const rows = await this.reads.mine(user, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Get(':id')
  @Auth()
  @ApiOperation({
    summary: 'A membership',
    description: 'Its owner, or an admin of its site; anyone else gets 404.',
  })
  @ApiParam(ID)
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(404)
  getSubscription(@CurrentUser() caller: AuthUser, @Param('id') id: string): Promise<SubscriptionDto> {
    return this.reads.get(caller, id);
  }

  @Post(':id/cancel')
  @Auth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel your membership',
    description:
      'The same rules as an admin’s cancellation: inside the 14-day cooling-off window it ends now and refunds ' +
      'the period less the credits spent; outside it, it runs to the end of the period unless `immediate`.',
  })
  @ApiParam(ID)
  @ApiRequestExample({ summary: 'Cancel at the end of the period', value: { reason: 'Too many e-mails' } })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 404, 'ALREADY_CANCELLED', 'ALREADY_ENDING')
  cancelMySubscription(
    @CurrentUser() caller: AuthUser,
    @Param('id') id: string,
    @Body() body: CancelOwnDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<SubscriptionDto> {
    return this.changes.cancel(caller, id, body, meta);
  }

  @Post(':id/card')
  @Auth()
  @ApiOperation({
    summary: 'Give your membership another card',
    description:
      'A checkout that registers a new card; once it succeeds the new card replaces the old, and a membership ' +
      'past due is charged with it at once.',
  })
  @ApiParam(ID)
  @ApiCreatedResponse({ type: CardCheckoutDto })
  @ApiErrors(404, 'NOT_RENEWABLE', 'SELF_PAUSED', 'SPEND_LIMIT_REACHED', 'GATEWAY_UNAVAILABLE')
  replaceCard(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @ReqMeta() meta: RequestMeta,
  ): Promise<CardCheckoutDto> {
    return this.subscribe.newCard(user, id, meta);
  }
}
