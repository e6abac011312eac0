import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor, SitePageQueryDto } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { RaffleWinnerNestedDto } from '#app/modules/raffles/dto/raffle.dto.js';
import { DrawService } from './draw.service.js';
import { DrawRequestDto, DrawResultDto } from './dto/draws.dto.js';
import { WinnersService } from './winners.service.js';
import { StaffAction } from '#app/modules/users/staff-action.js';

@ApiTags('admin: raffles')
@Controller('admin')
export class AdminDrawsController {
  constructor(
    private readonly drawing: DrawService,
    private readonly winners: WinnersService,
  ) {}

  @StaffAction({ type: 'raffle_drawn', resource: 'raffle', what: 'Raffle drawn' })
  @Post('raffles/:id/draw')
  @Auth('admin')
  @ApiOperation({
    summary: 'Draw a closed raffle’s winners, once',
    description:
      'DESIGN §6 step 3: HMAC-SHA256 of the committed seed over the published ticket list (and the `beacon`: ' +
      'the value of the round the raffle announced before its close, `draw_beacon_round`; none when it ' +
      'announced none), rejection sampling, distinct winning entries. The seed is revealed in the proof; ' +
      'winners are e-mailed. A raffle still open, or drawn already (concurrent calls included), answers 409.',
  })
  @ApiRequestExample({
    summary: 'One winner, with the value of the drand round the raffle announced',
    description: '`{id}`: a closed raffle’s id.',
    value: { winners: 1, beacon: 'drand-quicknet-12345678' },
  })
  @ApiCreatedResponse({ type: DrawResultDto })
  @ApiErrors(400, 404, 'RAFFLE_NOT_CLOSED', 'ALREADY_DRAWN', 'BEACON_NOT_ANNOUNCED', 'BEACON_REQUIRED')
  drawRaffle(
    @CurrentUser() actor: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
    @Body() body: DrawRequestDto,
  ): Promise<DrawResultDto> {
    return this.drawing.draw(actor, siteId, id, body);
  }

  @Get('raffle-winners/unclaimed')
  @Auth('admin')
  @ApiOperation({
    summary: 'Prizes not claimed yet, oldest first',
    description: 'Paged: `limit`, `cursor`; next page in `X-Next-Cursor`.',
  })
  @ApiOkResponse({ type: [RaffleWinnerNestedDto] })
  @ApiErrors(400)
  async listUnclaimedPrizes(
    @CurrentSite() siteId: string,
    @Query() query: SitePageQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RaffleWinnerNestedDto[]> {
    const rows = await this.winners.unclaimed(siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }
}
