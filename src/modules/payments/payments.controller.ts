import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { CreatePaymentDto, PaymentTransactionDto } from './dto/payment.dto.js';
import { PaymentsService } from './payments.service.js';

@ApiTags('payments')
@Controller('payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @Post('create')
  @Auth('user')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a payment transaction',
    description:
      'Records a pending payment for the caller (`user_id` from the token) and opens a checkout: `card`, ' +
      '`apple_pay`, `google_pay` at gatewayone, `revolut_pay` at gatewaytwo. `metadata.checkout_id` and ' +
      '`metadata.checkout_url` tell where to pay (in the sandbox, a page to open in a browser). Counts ' +
      'against your monthly spend limit.',
  })
  @ApiRequestExample({
    summary: 'A £15 card payment',
    description: 'Authorised as a user (the newcomer `POST /auth/register` made).',
    value: {
      amount_cents: 1500,
      currency: 'GBP',
      payment_method: 'card',
      description: 'A gift to the prize fund',
      metadata: { campaign: 'spring' },
    },
  })
  @ApiOkResponse({ type: PaymentTransactionDto })
  @ApiErrors(400, 'AMOUNT_TOO_LARGE', 'SPEND_LIMIT_REACHED', 'SELF_PAUSED', 'GATEWAY_UNAVAILABLE')
  createPayment(
    @CurrentUser() user: AuthUser,
    @Body() body: CreatePaymentDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<PaymentTransactionDto> {
    return this.payments.create(user, body, meta);
  }

  @Get(':id')
  @Auth('user')
  @ApiOperation({ summary: 'A payment: your own, or (admins) one of your site’s' })
  @ApiOkResponse({ type: PaymentTransactionDto })
  @ApiErrors(404)
  getPayment(
    @CurrentUser() user: AuthUser,
    @Param('id', UuidParam) id: string,
  ): Promise<PaymentTransactionDto> {
    return this.payments.get(user, id);
  }
}
