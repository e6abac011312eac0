import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { PageQueryDto, setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { CreateEntryDto, CreatePostalEntryDto, RaffleEntryDto } from './dto/entries.dto.js';
import { WaysInService } from './ways-in.service.js';

@ApiTags('raffle entries')
@Controller()
export class EntriesController {
  constructor(private readonly waysIn: WaysInService) {}

  @Post('raffles/:id/entries')
  @Auth('user')
  @Idempotent()
  @ApiOperation({
    summary: 'Enter a raffle with points or by the free route',
    description:
      'Tickets are numbered contiguously. `total_entries_available` and your `max_entries` hold under any ' +
      'concurrency. Errors: SOLD_OUT, MAX_ENTRIES_REACHED (422), RAFFLE_CLOSED (409), INSUFFICIENT_POINTS, ' +
      'POINTS_NOT_ACCEPTED, FREE_ENTRY_NOT_OFFERED, CREDITS_UNAVAILABLE (422), ALREADY_ENTERED_FREE (409).',
  })
  @ApiCreatedResponse({ type: RaffleEntryDto })
  @ApiErrors(400, 404, 409, 422)
  enter(
    @CurrentUser() user: AuthUser,
    @Param('id', UuidParam) id: string,
    @Body() body: CreateEntryDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<RaffleEntryDto> {
    return this.waysIn.enterByUser(user, id, body, meta);
  }

  @Get('users/me/entries')
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
  @Auth('admin')
  @ApiOperation({
    summary: 'Add a postal (no-purchase) entry for a user',
    description: 'Counted like any entry.',
  })
  @ApiCreatedResponse({ type: RaffleEntryDto })
  @ApiErrors(400, 404, 409, 422)
  enterPostal(
    @CurrentUser() admin: AuthUser,
    @Param('id', UuidParam) id: string,
    @Body() body: CreatePostalEntryDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<RaffleEntryDto> {
    return this.waysIn.enterPostal(admin, id, body, meta);
  }
}
