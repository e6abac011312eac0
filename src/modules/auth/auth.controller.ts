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
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { RateLimit } from '#app/common/rate-limit/rate-limit.decorator.js';
import { RATE_LIMITS } from '#app/common/rate-limit/rate-limit.rules.js';
import {
  EXAMPLE_ADMIN,
  EXAMPLE_MAIL_TOKEN,
  EXAMPLE_NEWCOMER,
  EXAMPLE_NEWCOMER_NEW_PASSWORD,
  EXAMPLE_REFRESH_TOKEN,
} from './auth.examples.js';
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
  @ApiOperation({
    summary: 'Create an account on a site and sign in',
    description:
      'The 18+ declaration `age_confirmed` is required unless the site’s `additional_settings.age_check` ' +
      'is `"none"`. A `spin_token` from `POST /gaming/spin` is claimed with the account; a token that ' +
      'cannot be claimed refuses the registration (nothing is created).',
  })
  @ApiRequestExample({
    summary: 'A newcomer on site main',
    description: 'Its token is the one the user examples (entries, profile, limits) are authorised with.',
    value: {
      email: EXAMPLE_NEWCOMER.email,
      password: EXAMPLE_NEWCOMER.password,
      site_id: 'main',
      name: 'Jane Newcomer',
      data_processing_consent: true,
      age_confirmed: true,
      marketing_consent: false,
    },
  })
  @ApiCreatedResponse({ type: RegisteredDto })
  @ApiErrors(
    400,
    'UNKNOWN_SITE',
    'EMAIL_TAKEN',
    'AGE_REQUIRED',
    'UNDER_AGE',
    'CONSENT_REQUIRED',
    'REFERRAL_CODE_UNKNOWN',
    'SPIN_TOKEN_INVALID',
    'SPIN_TOKEN_EXPIRED',
    'SPIN_TOKEN_OTHER_SITE',
    'SPIN_ALREADY_CLAIMED',
  )
  register(@Body() body: RegisterDto, @ReqMeta() meta: RequestMeta): Promise<RegisteredDto> {
    return this.auth.register(body, meta);
  }

  @Post('login')
  @Public()
  @HttpCode(200)
  @RateLimit(...RATE_LIMITS.login)
  @ApiOperation({
    summary: 'Sign in with e-mail and password',
    description:
      'Copy `access_token` and paste it into **Authorize**. Five failures lock the account for 15 minutes.',
  })
  @ApiRequestExample({
    summary: 'The README’s first admin',
    description:
      'As started by the README: `ADMIN_EMAIL=admin@example.com ADMIN_PASSWORD=… ADMIN_SITE_ID=main`.',
    value: { email: EXAMPLE_ADMIN.email, password: EXAMPLE_ADMIN.password, site_id: 'main' },
  })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiErrors(400, {
    code: 'UNAUTHENTICATED',
    detail: 'The e-mail or password is not correct, or the account is locked.',
  })
  login(@Body() body: LoginDto, @ReqMeta() meta: RequestMeta): Promise<TokenPairDto> {
    return this.auth.login(body, meta);
  }

  @Post('refresh')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a refresh token for a new pair (the old one stops working)' })
  @ApiRequestExample({
    summary: 'A refresh token',
    description: 'Replace it with the `refresh_token` that login or registration answered.',
    value: { refresh_token: EXAMPLE_REFRESH_TOKEN },
  })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiErrors(400, { code: 'UNAUTHENTICATED', detail: 'The refresh token is not valid.' })
  refresh(@Body() body: RefreshDto, @ReqMeta() meta: RequestMeta): Promise<TokenPairDto> {
    return this.sessions.refresh(body.refresh_token, meta);
  }

  @Post('logout')
  @Public()
  @HttpCode(204)
  @ApiOperation({ summary: 'End the session a refresh token belongs to' })
  @ApiRequestExample({
    summary: 'A refresh token',
    description: 'Replace it with the `refresh_token` to end; an unknown one also answers 204.',
    value: { refresh_token: EXAMPLE_REFRESH_TOKEN },
  })
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
    description:
      'Answers the same whether or not the account or the site exists. The e-mail links to the site’s ' +
      '`frontend_url`, or in the sandbox to this service’s own page for setting a password.',
  })
  @ApiRequestExample({
    summary: 'The newcomer forgot its password',
    value: { email: EXAMPLE_NEWCOMER.email, site_id: 'main' },
  })
  @ApiOkResponse({ type: EmailSentDto })
  @ApiErrors(400, 429)
  passwordReset(@Body() body: EmailSiteDto, @ReqMeta() meta: RequestMeta): Promise<EmailSentDto> {
    return this.flows.requestPasswordReset(body.email, body.site_id, meta);
  }

  @Post('password-set/confirm')
  @Public()
  @HttpCode(200)
  @RateLimit(...RATE_LIMITS.passwordSetConfirm)
  @ApiOperation({
    summary: 'Set a password with a reset or set token',
    description: 'Activates the account, ends its other sessions and answers a one-time sign-in link.',
  })
  @ApiRequestExample({
    summary: 'A token from a password e-mail',
    description:
      'Replace `token` with the one in the link of a password-reset or password-set e-mail (`GET /admin/outbox`).',
    value: { token: EXAMPLE_MAIL_TOKEN, password: EXAMPLE_NEWCOMER_NEW_PASSWORD },
  })
  @ApiOkResponse({ type: PasswordSetDto })
  @ApiErrors(400, 'INVALID_TOKEN')
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
  @ApiRequestExample({
    summary: 'A sign-in link for the newcomer',
    value: { email: EXAMPLE_NEWCOMER.email, site_id: 'main' },
  })
  @ApiOkResponse({ type: EmailSentDto })
  @ApiErrors(400, 429)
  magicLink(@Body() body: EmailSiteDto, @ReqMeta() meta: RequestMeta): Promise<EmailSentDto> {
    return this.flows.requestMagicLink(body.email, body.site_id, meta);
  }

  @Post('magic-link/verify')
  @Public()
  @HttpCode(200)
  @RateLimit(...RATE_LIMITS.magicLinkVerify)
  @ApiOperation({ summary: 'Exchange a sign-in link’s token for tokens' })
  @ApiRequestExample({
    summary: 'A token from a sign-in link',
    description:
      'Replace `token` with the one in a sign-in e-mail’s link, or in endpoint 1’s `activation_link`.',
    value: { token: EXAMPLE_MAIL_TOKEN },
  })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiErrors(400, {
    code: 'UNAUTHENTICATED',
    detail: 'The link is not valid: it may have expired or been used already.',
  })
  magicLinkVerify(@Body() body: TokenDto, @ReqMeta() meta: RequestMeta): Promise<TokenPairDto> {
    return this.flows.verifyMagicLink(body.token, meta);
  }
}
