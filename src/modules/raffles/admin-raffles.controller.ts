import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { CreateRaffleDto, UpdateRaffleDto } from './dto/raffle-input.dto.js';
import { RaffleListQueryDto } from './dto/raffle-query.dto.js';
import { RaffleDto } from './dto/raffle.dto.js';
import { RaffleAdminService } from './raffle-admin.service.js';
import { RAFFLE_EXAMPLE } from './raffles.examples.js';
import { StaffAction } from '#app/modules/users/staff-action.js';

@ApiTags('admin: raffles')
@Controller('admin/raffles')
export class AdminRafflesController {
  constructor(private readonly raffles: RaffleAdminService) {}

  @StaffAction({ type: 'raffle_created', resource: 'raffle', what: 'Raffle created' })
  @Post()
  @Auth('admin')
  @ApiOperation({
    summary: 'Create a raffle, as a draft',
    description:
      'Then publish it (`POST /admin/raffles/{id}/publish`) to open it for orders at its start date.',
  })
  @ApiRequestExample({
    summary: 'A camper van draw, open as soon as it is published',
    description:
      'The dates are fixed: `start_date` is already past, so the raffle takes orders as soon as it is ' +
      'published, and `end_date` is years ahead. For a real draw set your own; a raffle whose start is ' +
      'ahead refuses orders with 409 RAFFLE_NOT_STARTED until then. `item_id` is what orders name.',
    value: RAFFLE_EXAMPLE,
  })
  @ApiCreatedResponse({ type: RaffleDto })
  @ApiErrors(400, 'UNKNOWN_SITE', 'ITEM_ID_TAKEN')
  createRaffle(
    @CurrentUser() actor: AuthUser,
    @CurrentSite() siteId: string,
    @Body() body: CreateRaffleDto,
  ): Promise<RaffleDto> {
    return this.raffles.create(actor, siteId, body);
  }

  @Get()
  @Auth('admin')
  @ApiOperation({
    summary: 'All raffles of a site, drafts included, newest first',
    description: 'Paged: `limit`, `cursor`; next page in `X-Next-Cursor`.',
  })
  @ApiOkResponse({ type: [RaffleDto] })
  @ApiErrors(400)
  async listAdminRaffles(
    @CurrentSite() siteId: string,
    @Query() query: RaffleListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RaffleDto[]> {
    const rows = await this.raffles.list(siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @StaffAction({ type: 'raffle_updated', resource: 'raffle', what: 'Raffle changed' })
  @Put(':id')
  @Auth('admin')
  @ApiOperation({
    summary: 'Update a raffle (only the fields sent)',
    description: 'Optional text fields take `null` to clear them. Another site’s raffle answers 404.',
  })
  @ApiRequestExample({
    summary: 'A teaser and more tickets',
    description: '`{id}`: the raffle’s id, as its creation answered.',
    value: {
      short_teaser: 'A fully fitted camper van, and £5,000 for the road.',
      total_entries_available: 12000,
    },
  })
  @ApiOkResponse({ type: RaffleDto })
  @ApiErrors(
    400,
    404,
    'ITEM_ID_TAKEN',
    { code: 'NOT_PUBLISHED', detail: 'A draft is switched on by publishing it.' },
    'TOTAL_BELOW_SOLD',
    'TOTAL_BELOW_INSTANT_WINS',
    'INSTANT_WINS_FIXED',
    'MAX_BELOW_HELD',
    {
      code: 'ENDS_IN_PAST',
      detail: 'A running raffle’s end_date cannot move into the past; close it to end it now.',
    },
    { code: 'ALREADY_CLOSED', detail: 'The raffle is closed: total_entries_available can no longer change.' },
    'SALES_ENDED',
  )
  updateRaffle(
    @CurrentUser() actor: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateRaffleDto,
  ): Promise<RaffleDto> {
    return this.raffles.update(actor, siteId, id, body);
  }

  @StaffAction({ type: 'raffle_published', resource: 'raffle', what: 'Raffle published' })
  @Post(':id/publish')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Publish a draft',
    description:
      'Switches it on and commits the draw: a secret seed is drawn and its sha256 published as `draw_seed_hash`.',
  })
  @ApiOkResponse({ type: RaffleDto })
  @ApiErrors(404, 'NOT_DRAFT', 'ENDS_IN_PAST', 'INSTANT_WINS_EXCEED_TICKETS')
  publishRaffle(
    @CurrentUser() actor: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
  ): Promise<RaffleDto> {
    return this.raffles.publish(actor, siteId, id);
  }

  @StaffAction({ type: 'raffle_closed', resource: 'raffle', what: 'Raffle closed' })
  @Post(':id/close')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Close a published raffle to entries' })
  @ApiOkResponse({ type: RaffleDto })
  @ApiErrors(404, 'ALREADY_CLOSED', 'NOT_PUBLISHED')
  closeRaffle(
    @CurrentUser() actor: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
  ): Promise<RaffleDto> {
    return this.raffles.close(actor, siteId, id);
  }
}
