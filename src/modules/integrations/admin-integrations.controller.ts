import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { setNextCursor, SitePageQueryDto } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { DeadLettersService } from './dead-letters.service.js';
import { DeadLetterDto } from './dto/dead-letter.dto.js';

@ApiTags('admin: integrations')
@Controller('admin/integrations/dead-letters')
export class AdminIntegrationsController {
  constructor(private readonly deadLetters: DeadLettersService) {}

  @Get()
  @Auth('admin')
  @ApiOperation({
    summary: 'Deliveries to the contact-list and analytics providers that failed every retry',
    description:
      'Of your site (a superadmin names one with `site_id`), newest first. Paged: `limit`, `cursor`.',
  })
  @ApiOkResponse({ type: [DeadLetterDto] })
  @ApiErrors(400)
  async listDeadLetters(
    @CurrentSite() siteId: string,
    @Query() query: SitePageQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeadLetterDto[]> {
    const rows = await this.deadLetters.list(siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Post(':id/replay')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a dead letter again',
    description: 'Queued again with its retries; a delivery the provider already has is dropped by it.',
  })
  @ApiOkResponse({ type: DeadLetterDto })
  @ApiErrors(400, 404)
  replayDeadLetter(
    @CurrentUser() caller: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
  ): Promise<DeadLetterDto> {
    return this.deadLetters.replay(siteId, caller.role === 'superadmin', id);
  }
}
