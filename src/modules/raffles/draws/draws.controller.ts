import { Readable } from 'node:stream';
import { Controller, Get, Param, Post, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser, Public } from '#app/common/auth/auth.decorators.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { RaffleWinnerNestedDto } from '#app/modules/raffles/dto/raffle.dto.js';
import { SiteQueryDto, WinnersQueryDto } from '#app/modules/raffles/dto/raffle-query.dto.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { DrawProofDto, PublicWinnerDto } from './dto/draws.dto.js';
import { WinnersService } from './winners.service.js';

/** The public side of a draw: its proof, its ticket list, its winners, and the winner's claim. */
@ApiTags('draws')
@Controller('raffles/:id')
export class DrawsController {
  constructor(private readonly winners: WinnersService) {}

  @Get('draw-proof')
  @Public()
  @ApiOperation({
    summary: 'The proof of a raffle’s draw (DESIGN §6)',
    description:
      '`seed_hash` from publication, `ticket_list_hash` and `ticket_count` from the close, the `seed` and ' +
      'winners once drawn. Check it with `scripts/verify-draw.mjs` (docs/FAIR-DRAWS.md). Another site’s raffle ' +
      'answers 404 when a site is named.',
  })
  @ApiOkResponse({ type: DrawProofDto })
  @ApiErrors(400, 404)
  getDrawProof(
    @CurrentSite() siteId: string | undefined,
    @Param('id', UuidParam) id: string,
    @Query() _query: SiteQueryDto,
  ): Promise<DrawProofDto> {
    return this.winners.proof(id, siteId);
  }

  @Get('draw-proof/tickets.csv')
  @Public()
  @ApiOperation({
    summary: 'The ticket list published at the close',
    description:
      'UTF-8, `\\n` line ends, header `ticket_from,ticket_to,entry_id`, one line per entry in ticket order ' +
      '(postal entries included, no personal data). Its sha256 is the proof’s `ticket_list_hash`. 404 before the ' +
      'close, and for another site’s raffle when a site is named.',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'The CSV file, streamed.',
    content: {
      'text/csv': {
        schema: {
          type: 'string',
          example: 'ticket_from,ticket_to,entry_id\n1,3,0b8f7a52-3c1e-4d7a-9b1e-2f4c6d8e0a11\n',
        },
      },
    },
  })
  @ApiErrors(400, 404)
  async getTicketList(
    @CurrentSite() siteId: string | undefined,
    @Param('id', UuidParam) id: string,
    @Query() _query: SiteQueryDto,
  ): Promise<StreamableFile> {
    const chunks = await this.winners.ticketList(id, siteId);
    return new StreamableFile(Readable.from(chunks), {
      type: 'text/csv; charset=utf-8',
      disposition: `inline; filename="tickets-${id}.csv"`,
    });
  }

  @Get('winners')
  @Public()
  @ApiOperation({
    summary: 'A raffle’s winners, as the public sees them',
    description:
      'First name and county only (CAP Code 8.28.5); draw winners in draw order, then instant wins. Another ' +
      'site’s raffle answers 404 when a site is named. Paged: `limit`, `cursor`; next page in ' +
      '`X-Next-Cursor` and `Link`.',
  })
  @ApiOkResponse({ type: [PublicWinnerDto] })
  @ApiErrors(400, 404)
  async listWinners(
    @CurrentSite() siteId: string | undefined,
    @Param('id', UuidParam) id: string,
    @Query() query: WinnersQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PublicWinnerDto[]> {
    const rows = await this.winners.list(id, siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Post('winners/:winner_id/claim')
  @Auth('user')
  @Idempotent()
  @ApiOperation({
    summary: 'Claim a prize you won',
    description: 'Sets `claimed` and `claimed_at` once; another user’s prize answers 404.',
  })
  @ApiCreatedResponse({ type: RaffleWinnerNestedDto })
  @ApiErrors(404, 'PRIZE_ALREADY_CLAIMED')
  claimPrize(
    @CurrentUser() user: AuthUser,
    @Param('id', UuidParam) id: string,
    @Param('winner_id', UuidParam) winnerId: string,
  ): Promise<RaffleWinnerNestedDto> {
    return this.winners.claim(user, id, winnerId);
  }
}
