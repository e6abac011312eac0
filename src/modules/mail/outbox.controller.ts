import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth, CurrentSite } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { OutboxEntryDto, OutboxMessageDto, OutboxQueryDto, OutboxSiteQueryDto } from './dto/outbox.dto.js';
import { OutboxService } from './outbox.service.js';

@ApiTags('admin: mail')
@Controller('admin/outbox')
export class OutboxController {
  constructor(private readonly outbox: OutboxService) {}

  @Get()
  @Auth('admin')
  @ApiOperation({
    summary: 'Messages the log transport wrote instead of sending, newest first',
    description:
      'For sites whose `email_provider` is `log`, or every site when MAIL_TRANSPORT is `log` (the sandbox’s ' +
      'default). A job sends each e-mail shortly after what caused it: purchase e-mails appear within a ' +
      'second or two of the payment. Kept on the instance that sent them. Paged: `limit`, `cursor`; next ' +
      'page in `X-Next-Cursor`.',
  })
  @ApiOkResponse({ type: [OutboxEntryDto] })
  @ApiErrors(400)
  async listOutbox(
    @CurrentSite() siteId: string,
    @Query() query: OutboxQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OutboxEntryDto[]> {
    const rows = await this.outbox.list(siteId, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Get(':id')
  @Auth('admin')
  @ApiOperation({ summary: 'One message of the outbox, whole' })
  @ApiParam({ name: 'id', description: 'The `id` the list gave.' })
  @ApiOkResponse({ type: OutboxMessageDto })
  @ApiErrors(404)
  getOutboxMessage(
    @CurrentSite() siteId: string,
    @Param('id') id: string,
    @Query() _query: OutboxSiteQueryDto,
  ): Promise<OutboxMessageDto> {
    return this.outbox.read(siteId, id);
  }
}
