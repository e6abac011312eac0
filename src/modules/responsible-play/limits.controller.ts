import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { LimitsDto, UpdateLimitsDto } from './dto/limits.dto.js';
import { ResponsiblePlayService } from './responsible-play.service.js';

@ApiTags('users')
@Controller('users/me/limits')
export class LimitsController {
  constructor(private readonly play: ResponsiblePlayService) {}

  @Get()
  @Auth('user')
  @ApiOperation({ summary: 'Your monthly spend limit, self-pause and this month’s spending' })
  @ApiOkResponse({ type: LimitsDto })
  getLimits(@CurrentUser() user: AuthUser): Promise<LimitsDto> {
    return this.play.getLimits(user.id);
  }

  @Put()
  @Auth('user')
  @ApiOperation({
    summary: 'Set your monthly spend limit and self-pause',
    description:
      'Lowering a limit (or setting a first one) applies at once; raising or removing it applies after ' +
      '24 hours (see `pending`). A self-pause starts or extends at once and cannot be cut short.',
  })
  @ApiRequestExample({
    summary: 'At most £100 a month on paid entries',
    description:
      'Authorised as a user. `paused_until` (a date ahead) would also pause paid entries until then.',
    value: { monthly_spend_limit_cents: 10000 },
  })
  @ApiOkResponse({ type: LimitsDto })
  @ApiErrors(400, 'SELF_PAUSE_ACTIVE')
  setLimits(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdateLimitsDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<LimitsDto> {
    return this.play.setLimits(user, body, meta);
  }
}
