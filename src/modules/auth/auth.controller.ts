import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ProblemDto } from '#app/common/openapi/problem.dto.js';
import { RateLimit } from '#app/common/rate-limit/rate-limit.decorator.js';
import { RATE_LIMITS } from '#app/common/rate-limit/rate-limit.rules.js';
import { ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AuthService } from './auth.service.js';
import {
  EmailSentDto,
  EmailSiteDto,
  LoginDto,
  PasswordSetConfirmDto,
  PasswordSetDto,
  RefreshDto,
  RegisterDto,
  RegisteredDto,
  TokenDto,
  TokenPairDto,
} from './dto/auth.dto.js';
import { PasswordFlowsService } from './password-flows.service.js';
import { SessionService } from './session.service.js';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionService,
    private readonly flows: PasswordFlowsService,
  ) {}

  @Post('register')
  @Public()
  @RateLimit(...RATE_LIMITS.register)
  @ApiOperation({ summary: 'Create an account on a site (18+ declaration required) and sign in' })
  @ApiCreatedResponse({ type: RegisteredDto })
  @ApiErrors(400, {
    404: 'UNKNOWN_SITE',
    409: 'EMAIL_TAKEN',
    422: 'AGE_REQUIRED, UNDER_AGE or CONSENT_REQUIRED',
  })
  register(@Body() body: RegisterDto, @ReqMeta() meta: RequestMeta): Promise<RegisteredDto> {
    return this.auth.register(body, meta);
  }

  @Post('login')
  @Public()
  @HttpCode(200)
  @RateLimit(...RATE_LIMITS.login)
  @ApiOperation({
    summary: 'Sign in with e-mail and password',
    description: 'Five failures lock the account for 15 minutes.',
  })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiUnauthorizedResponse({
    type: ProblemDto,
    description: 'Unknown e-mail, wrong password or locked account.',
  })
  @ApiErrors(400)
  login(@Body() body: LoginDto, @ReqMeta() meta: RequestMeta): Promise<TokenPairDto> {
    return this.auth.login(body, meta);
  }

  @Post('refresh')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a refresh token for a new pair (the old one stops working)' })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: 'Unknown, expired, revoked or reused token.' })
  @ApiErrors(400)
  refresh(@Body() body: RefreshDto, @ReqMeta() meta: RequestMeta): Promise<TokenPairDto> {
    return this.sessions.refresh(body.refresh_token, meta);
  }

  @Post('logout')
  @Public()
  @HttpCode(204)
  @ApiOperation({ summary: 'End the session a refresh token belongs to' })
  @ApiNoContentResponse({ description: 'Done (also for an unknown token).' })
  @ApiErrors(400)
  async logout(@Body() body: RefreshDto): Promise<void> {
    await this.sessions.logout(body.refresh_token);
  }

  @Post('password-reset')
  @Public()
  @HttpCode(200)
  @RateLimit(...RATE_LIMITS.passwordReset)
  @ApiOperation({
    summary: 'Send a password-reset e-mail',
    description: 'Answers the same whether or not the account or the site exists.',
  })
  @ApiOkResponse({ type: EmailSentDto })
  @ApiErrors(400, 429)
  passwordReset(@Body() body: EmailSiteDto, @ReqMeta() meta: RequestMeta): Promise<EmailSentDto> {
    return this.flows.requestPasswordReset(body.email, body.site_id, meta);
  }

  @Post('password-set/confirm')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a password with a reset or set token',
    description: 'Activates the account, ends its other sessions and answers a one-time sign-in link.',
  })
  @ApiOkResponse({ type: PasswordSetDto })
  @ApiErrors(400, { 422: 'INVALID_TOKEN: unknown, used or expired' })
  passwordSetConfirm(
    @Body() body: PasswordSetConfirmDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<PasswordSetDto> {
    return this.flows.confirmPasswordSet(body.token, body.password, meta);
  }

  @Post('magic-link')
  @Public()
  @HttpCode(200)
  @RateLimit(...RATE_LIMITS.magicLink)
  @ApiOperation({ summary: 'E-mail a one-time sign-in link', description: 'Same answer for any e-mail.' })
  @ApiOkResponse({ type: EmailSentDto })
  @ApiErrors(400, 429)
  magicLink(@Body() body: EmailSiteDto, @ReqMeta() meta: RequestMeta): Promise<EmailSentDto> {
    return this.flows.requestMagicLink(body.email, body.site_id, meta);
  }

  @Post('magic-link/verify')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a sign-in link’s token for tokens' })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: 'Unknown, used or expired link.' })
  @ApiErrors(400)
  magicLinkVerify(@Body() body: TokenDto, @ReqMeta() meta: RequestMeta): Promise<TokenPairDto> {
    return this.flows.verifyMagicLink(body.token, meta);
  }
}
