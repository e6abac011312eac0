import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { CreateRaffleDto, UpdateRaffleDto } from './dto/raffle-input.dto.js';
import { RaffleListQueryDto } from './dto/raffle-query.dto.js';
import { RaffleDto } from './dto/raffle.dto.js';
import { RaffleAdminService } from './raffle-admin.service.js';

@ApiTags('admin: raffles')
@Controller('admin/raffles')
export class AdminRafflesController {
  constructor(private readonly raffles: RaffleAdminService) {}

  @Post()
  @Auth('admin')
  @ApiOperation({ summary: 'Create a raffle, as a draft' })
  @ApiCreatedResponse({ type: RaffleDto })
  @ApiErrors(400, { 404: 'The named site does not exist (UNKNOWN_SITE).', 409: 'ITEM_ID_TAKEN' })
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

  @Put(':id')
  @Auth('admin')
  @ApiOperation({
    summary: 'Update a raffle (only the fields sent)',
    description: 'Optional text fields take `null` to clear them. Another site’s raffle answers 404.',
  })
  @ApiOkResponse({ type: RaffleDto })
  @ApiErrors(400, 404, {
    409: 'ITEM_ID_TAKEN, or NOT_PUBLISHED when `active` is sent for a draft.',
    422: 'TOTAL_BELOW_SOLD: fewer tickets than are already taken.',
  })
  updateRaffle(
    @CurrentUser() actor: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateRaffleDto,
  ): Promise<RaffleDto> {
    return this.raffles.update(actor, siteId, id, body);
  }

  @Post(':id/publish')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Publish a draft',
    description:
      'Switches it on and commits the draw: a secret seed is drawn and its sha256 published as `draw_seed_hash`.',
  })
  @ApiOkResponse({ type: RaffleDto })
  @ApiErrors(404, { 409: 'NOT_DRAFT: already published.', 422: 'ENDS_IN_PAST: the end date has passed.' })
  publishRaffle(
    @CurrentUser() actor: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
  ): Promise<RaffleDto> {
    return this.raffles.publish(actor, siteId, id);
  }

  @Post(':id/close')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Close a published raffle to entries' })
  @ApiOkResponse({ type: RaffleDto })
  @ApiErrors(404, { 409: 'ALREADY_CLOSED, or NOT_PUBLISHED for a draft.' })
  closeRaffle(
    @CurrentUser() actor: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
  ): Promise<RaffleDto> {
    return this.raffles.close(actor, siteId, id);
  }
}
