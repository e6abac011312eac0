import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser, NamedSite } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { PaymentListQueryDto, PaymentTransactionDto, RefundDto } from './dto/payment.dto.js';
import { InboundEventDto, InboundEventsQueryDto } from './dto/inbound-event.dto.js';
import { InboxService } from './inbox.service.js';
import { PaymentsService } from './payments.service.js';
import { StaffAction } from '#app/modules/users/staff-action.js';

@ApiTags('admin: payments')
@Controller('admin')
export class AdminPaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly inbox: InboxService,
  ) {}

  @Get('payments')
  @Auth('admin')
  @ApiOperation({ summary: 'Payments of a site, newest first', description: 'Paged: `limit`, `cursor`.' })
  @ApiOkResponse({ type: [PaymentTransactionDto] })
  @ApiErrors(400)
  async listPayments(
    @CurrentSite() siteId: string,
    @Query() query: PaymentListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PaymentTransactionDto[]> {
    const rows = await this.payments.list(siteId, query.status, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Post('payments/:id/refund')
  @Auth('admin')
  // Money leaves here: a panel's retry after a timeout must replay the refund, not make a second one.
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Refund a payment, whole or in part, at its gateway',
    description: 'Points the payment earned are reversed pro rata.',
  })
  @ApiRequestExample({
    summary: 'Give back £2.50 of a paid order',
    description: '`{id}`: a succeeded payment’s id (an order’s `order_id`, or `GET /admin/payments`).',
    value: { amount_cents: 250, reason: 'Goodwill refund' },
  })
  @ApiOkResponse({ type: PaymentTransactionDto })
  @ApiErrors(400, 404, 'NOT_REFUNDABLE', 'REFUND_TOO_LARGE', {
    code: 'GATEWAY_UNAVAILABLE',
    detail: 'The refund was not made: the gateway declined it.',
  })
  refundPayment(
    @CurrentUser() admin: AuthUser,
    @Param('id', UuidParam) id: string,
    @Body() body: RefundDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<PaymentTransactionDto> {
    return this.payments.refund(admin, id, body.amount_cents, body.reason, meta);
  }

  @Get('inbound-events')
  @Auth('admin')
  @ApiOperation({
    summary: 'The webhook inbox: what providers sent, and what became of it',
    description:
      'Admins see their site’s events; events not yet matched to a payment only a superadmin sees.',
  })
  @ApiOkResponse({ type: [InboundEventDto] })
  @ApiErrors(400)
  async listInboundEvents(
    @CurrentUser() caller: AuthUser,
    @NamedSite() named: string | undefined,
    @Query() query: InboundEventsQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<InboundEventDto[]> {
    const rows = await this.inbox.list(caller, named, query);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @StaffAction({ type: 'inbound_event_replayed', resource: 'inbound_event', what: 'Provider event replayed' })
  @Post('inbound-events/:id/replay')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Process a stored event again (safe: fulfilment happens once)' })
  @ApiOkResponse({ type: InboundEventDto })
  @ApiErrors(404)
  replayInboundEvent(
    @CurrentUser() caller: AuthUser,
    @Param('id', UuidParam) id: string,
  ): Promise<InboundEventDto> {
    return this.inbox.replay(caller, id);
  }
}
