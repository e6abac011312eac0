import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser, Public } from '#app/common/auth/auth.decorators.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { RateLimit } from '#app/common/rate-limit/rate-limit.decorator.js';
import { RATE_LIMITS } from '#app/common/rate-limit/rate-limit.rules.js';
import { ClaimSpinDto, SpinClaimedDto, SpinDto, SpinResultDto } from './dto/spin.dto.js';
import { SpinService } from './spin.service.js';

@ApiTags('gaming')
@Controller('gaming/spin')
export class SpinController {
  constructor(private readonly spins: SpinService) {}

  @Post()
  @Public()
  @HttpCode(200)
  @RateLimit(...RATE_LIMITS.spin)
  @ApiOperation({
    summary: 'Spin a site’s wheel',
    description:
      'Lands on a segment of the site’s wheel (`additional_settings.spin`, else the default wheel) at random, ' +
      'weighted. The `token` proves the result for 24 hours: claim it once signed in, or at sign-up. ' +
      '10 spins an hour per address.',
  })
  @ApiRequestExample({ summary: 'A spin on site main', value: { site_id: 'main' } })
  @ApiOkResponse({ type: SpinResultDto })
  @ApiErrors(400, 'UNKNOWN_SITE')
  spin(@CurrentSite() siteId: string | undefined, @Body() _body: SpinDto): Promise<SpinResultDto> {
    if (!siteId)
      throw AppException.validation([
        { field: 'site_id', message: 'is required: pass site_id or X-Site-Id' },
      ]);
    return this.spins.spin(siteId);
  }

  @Post('claim')
  @Auth('user')
  @Idempotent()
  @ApiOperation({
    summary: 'Claim a spin result',
    description:
      'Its credits become your bonus entry credits, spent by raffle entries with `method: "credits"` after a ' +
      'membership’s. Each token is claimed once, and each user claims one spin reward (a result worth 0 ' +
      'credits is not a reward).',
  })
  @ApiRequestExample({
    summary: 'A spin result’s token',
    description: 'Replace `token` with the one `POST /gaming/spin` answered for your site.',
    value: {
      token:
        'eyJ2IjoxLCJzaXRlIjoibWFpbiIsInNlZyI6NCwiY3JlZGl0cyI6NSwianRpIjoiN2QxZjNhMmMtOWI0ZS00YzZhLThlMWQtMmY1YjZjN2Q4ZTlmIiwiZXhwIjoxNzgwNDAxNjAwfQ.x3hL0o0kqY7wqg3sV0yZ3oKxq2p0n1l7b9w4m1u0tSs',
    },
  })
  @ApiCreatedResponse({ type: SpinClaimedDto })
  @ApiErrors(
    400,
    'SPIN_TOKEN_OTHER_SITE',
    'SPIN_ALREADY_CLAIMED',
    'SPIN_REWARD_TAKEN',
    'SPIN_TOKEN_INVALID',
    'SPIN_TOKEN_EXPIRED',
  )
  claimSpin(@CurrentUser() user: AuthUser, @Body() body: ClaimSpinDto): Promise<SpinClaimedDto> {
    return this.spins.claim(user, body.token);
  }
}
