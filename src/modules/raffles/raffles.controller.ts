import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentSite, Public } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { QuoteQueryDto, RaffleListQueryDto, SiteQueryDto } from './dto/raffle-query.dto.js';
import { QuoteDto, RaffleDto } from './dto/raffle.dto.js';
import { RAFFLE_EXAMPLE } from './raffles.examples.js';
import { RafflesService } from './raffles.service.js';

const SITE_HEADER = {
  name: 'X-Site-Id',
  required: false,
  description: 'The site, when no `site_id` is given.',
};

@ApiTags('raffles')
@ApiHeader(SITE_HEADER)
@Controller('raffles')
export class RafflesController {
  constructor(private readonly raffles: RafflesService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'A site’s published raffles, ending soonest first',
    description:
      'Drafts and archived raffles are not listed. Paged: `limit`, `cursor`; next page in `X-Next-Cursor`.',
  })
  @ApiOkResponse({ type: [RaffleDto] })
  @ApiErrors(400)
  async listRaffles(
    @CurrentSite() siteId: string | undefined,
    @Query() query: RaffleListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RaffleDto[]> {
    const rows = await this.raffles.listPublic(siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Get('item/:item_id')
  @Public()
  @ApiOperation({
    summary: 'A published raffle by its item_id',
    description:
      'With `site_id` (or `X-Site-Id`), that site’s raffle. Without a site, the only raffle using this item_id; 409 AMBIGUOUS_ITEM when several sites do. ' +
      '`item` is a literal segment (the spec’s path): a raffle id is a UUID, so `/raffles/item/{item_id}` never means `/raffles/{id}/…`.',
  })
  @ApiParam({ name: 'item_id', example: RAFFLE_EXAMPLE.item_id })
  @ApiOkResponse({ type: RaffleDto })
  @ApiErrors(400, 404, 'AMBIGUOUS_ITEM')
  getRaffleByItem(
    @CurrentSite() siteId: string | undefined,
    @Param('item_id') itemId: string,
    @Query() _query: SiteQueryDto,
  ): Promise<RaffleDto> {
    return this.raffles.getByItem(itemId, siteId);
  }

  @Get(':id')
  @Public()
  @ApiOperation({
    summary: 'A published raffle',
    description: 'Drafts answer 404, as does another site’s raffle when a site is named.',
  })
  @ApiOkResponse({ type: RaffleDto })
  @ApiErrors(400, 404)
  getRaffle(
    @CurrentSite() siteId: string | undefined,
    @Param('id', UuidParam) id: string,
    @Query() _query: SiteQueryDto,
  ): Promise<RaffleDto> {
    return this.raffles.getPublic(id, siteId);
  }

  @Get(':id/quote')
  @Public()
  @ApiOperation({
    summary: 'The server’s price for an order',
    description:
      '`quantity` single tickets at the best discount tier plus each chosen bundle (`upsell=<bundle quantity>`, repeatable) at its own percentage; rounded half-up to the cent once on the total.',
  })
  @ApiOkResponse({ type: QuoteDto })
  @ApiErrors(400, 404, 'UNKNOWN_UPSELL', 'UPSELL_REPEATED', 'NOT_ENOUGH_TICKETS', 'MAX_ENTRIES_EXCEEDED')
  quoteOrder(
    @CurrentSite() siteId: string | undefined,
    @Param('id', UuidParam) id: string,
    @Query() query: QuoteQueryDto,
  ): Promise<QuoteDto> {
    return this.raffles.quote(id, siteId, query.quantity, query.upsell ?? []);
  }
}
