import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { PageQueryDto, setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { CreateEntryDto, CreatePostalEntryDto, RaffleEntryDto } from './dto/entries.dto.js';
import { WaysInService } from './ways-in.service.js';

@Controller()
export class EntriesController {
  constructor(private readonly waysIn: WaysInService) {}

  @Post('raffles/:id/entries')
  @ApiTags('raffle entries')
  @Auth('user')
  @Idempotent()
  @ApiOperation({
    summary: 'Enter a raffle with points or by the free route',
    description:
      'Tickets are numbered contiguously. `total_entries_available` and your `max_entries` hold under any ' +
      'concurrency.',
  })
  @ApiRequestExample({
    summary: 'Two tickets for points',
    description:
      'Authorised as a user with 200 points (`POST /admin/rewards/adjust`’s example gives the newcomer ' +
      '500); `{id}`: a published raffle’s id. `{"method": "free", "quantity": 1}` takes the free route.',
    value: { method: 'points', quantity: 2 },
  })
  @ApiCreatedResponse({ type: RaffleEntryDto })
  @ApiErrors(
    400,
    404,
    'RAFFLE_NOT_STARTED',
    'RAFFLE_CLOSED',
    'ALREADY_ENTERED_FREE',
    'SOLD_OUT',
    'MAX_ENTRIES_REACHED',
    'INSUFFICIENT_POINTS',
    'POINTS_NOT_ACCEPTED',
    'PRICE_CHANGED',
    'ACCOUNT_DELETED',
    'FREE_ENTRY_NOT_OFFERED',
    'CREDITS_UNAVAILABLE',
  )
  enter(
    @CurrentUser() user: AuthUser,
    @Param('id', UuidParam) id: string,
    @Body() body: CreateEntryDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<RaffleEntryDto> {
    return this.waysIn.enterByUser(user, id, body, meta);
  }

  @Get('users/me/entries')
  @ApiTags('raffle entries')
  @Auth('user')
  @ApiOperation({ summary: 'My raffle entries, newest first', description: 'Paged: `limit`, `cursor`.' })
  @ApiOkResponse({ type: [RaffleEntryDto] })
  @ApiErrors(400)
  async myEntries(
    @CurrentUser() user: AuthUser,
    @Query() page: PageQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RaffleEntryDto[]> {
    const rows = await this.waysIn.myEntries(user.id, page.limit, page.cursor);
    setNextCursor(res, rows, page.limit);
    return rows;
  }

  @Post('admin/raffles/:id/entries')
  @ApiTags('admin: raffles')
  @Auth('admin')
  @Idempotent()
  @ApiOperation({
    summary: 'Add a postal (no-purchase) entry for a user',
    description: 'Counted like any entry.',
  })
  @ApiRequestExample({
    summary: 'A postal entry for a user of your site',
    description:
      '`{id}`: a published raffle’s id; replace `user_id` with the entrant’s (`GET /admin/users`).',
    value: {
      user_id: '3f1c2d9e-8b7a-4c6d-9e5f-1a2b3c4d5e6f',
      quantity: 1,
      method: 'postal',
      note: 'Postcard received on 2 January',
    },
  })
  @ApiCreatedResponse({ type: RaffleEntryDto })
  @ApiErrors(400, 404, 'RAFFLE_NOT_STARTED', 'RAFFLE_CLOSED', 'SOLD_OUT', 'MAX_ENTRIES_REACHED')
  enterPostal(
    @CurrentUser() admin: AuthUser,
    @Param('id', UuidParam) id: string,
    @Body() body: CreatePostalEntryDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<RaffleEntryDto> {
    return this.waysIn.enterPostal(admin, id, body, meta);
  }
}
