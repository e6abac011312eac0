import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { PointAdjustmentDto } from './dto/point-transaction.dto.js';
import { AdjustPointsDto } from './dto/rewards-requests.dto.js';
import { RewardsService } from './rewards.service.js';

@ApiTags('admin: rewards')
@Controller('admin/rewards')
export class AdminRewardsController {
  constructor(private readonly rewards: RewardsService) {}

  @Post('adjust')
  @Auth('admin')
  @Idempotent()
  @ApiOperation({
    summary: 'Add or remove points of a user of your site',
    description: 'Recorded in the ledger as an `adjustment` by you, and in the user’s activity log.',
  })
  @ApiRequestExample({
    summary: 'A welcome bonus of 500 points',
    description:
      'Replace `user_id` with the user’s id (`GET /admin/users?email=…`, or registration’s answer).',
    value: { user_id: '3f1c2d9e-8b7a-4c6d-9e5f-1a2b3c4d5e6f', amount: 500, reason: 'Welcome bonus' },
  })
  @ApiCreatedResponse({ type: PointAdjustmentDto, description: 'The ledger entry and the new balance.' })
  @ApiErrors(400, 404, 'INSUFFICIENT_POINTS')
  adjust(
    @CurrentUser() admin: AuthUser,
    @CurrentSite() siteId: string,
    @Body() body: AdjustPointsDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<PointAdjustmentDto> {
    return this.rewards.adjust(admin, siteId, body, meta);
  }
}
