import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { PointTransactionDto } from './dto/point-transaction.dto.js';
import { PointsLedgerQueryDto } from './dto/rewards-requests.dto.js';
import { RewardsService } from './rewards.service.js';

@ApiTags('rewards')
@Controller('rewards')
export class RewardsController {
  constructor(private readonly rewards: RewardsService) {}

  @Get('points')
  @Auth('user')
  @ApiOperation({
    summary: 'Your points ledger, newest first',
    description: 'Paged: `limit`, `cursor`; next page in `X-Next-Cursor` and `Link`.',
  })
  @ApiOkResponse({ type: [PointTransactionDto] })
  @ApiErrors(400)
  async points(
    @CurrentUser() user: AuthUser,
    @Query() query: PointsLedgerQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PointTransactionDto[]> {
    const rows = await this.rewards.ledgerOf(user.id, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }
}
