import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { CurrentSite, CurrentUser, OptionalAuth } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { RateLimit } from '#app/common/rate-limit/rate-limit.decorator.js';
import { RATE_LIMITS } from '#app/common/rate-limit/rate-limit.rules.js';
import { ConfirmationService } from './confirmation.service.js';
import {
  GatewayOneOrderDto,
  GatewayOneOrderResultDto,
  GatewayTwoOrderDto,
  GatewayTwoOrderResultDto,
  SHIPPING_FIELDS,
} from './dto/order.dto.js';
import { RAFFLE_EXAMPLE } from '#app/modules/raffles/raffles.examples.js';
import { OrdersService } from './orders.service.js';

const FAILURES =
  'Failures answer `{success: false, error, error_code, message}` with the HTTP status of the same failure ' +
  'elsewhere; each status below lists its codes.';

/** What creating an order can answer at either gateway. */
const ORDER_ERRORS = [
  400,
  404,
  { code: 'FORBIDDEN', detail: 'You may not buy on another site.' },
  'UNKNOWN_SITE',
  'RAFFLE_NOT_STARTED',
  'RAFFLE_CLOSED',
  'USER_MISMATCH',
  'AMOUNT_MISMATCH',
  'CURRENCY_MISMATCH',
  'UNKNOWN_UPSELL',
  'UPSELL_REPEATED',
  'NOT_ENOUGH_TICKETS',
  'MAX_ENTRIES_EXCEEDED',
  'MAX_ENTRIES_REACHED',
  'AMOUNT_TOO_LARGE',
  'AMOUNT_TOO_SMALL',
  'SPEND_LIMIT_REACHED',
  'SELF_PAUSED',
  'GATEWAY_UNAVAILABLE',
] as const;

@ApiTags('payments')
@Controller()
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly confirmations: ConfirmationService,
  ) {}

  @Post('gatewayone/create-order')
  @OptionalAuth()
  @HttpCode(200)
  @Idempotent()
  @RateLimit(...RATE_LIMITS.orderCreate)
  @ApiOperation({
    summary: 'Create an order at gatewayone, or process a completed one',
    description:
      'Creation (any body without `confirmation_only: true`): the server prices `quantity` tickets and the ' +
      'chosen `upsells` of the raffle named by `item_id`; a differing `amount` is refused. When no raffle of ' +
      'the site has that `item_id` and it is one of the site’s merch products’ `id`, the order buys ' +
      '`quantity` copies of it (price × copies, no upsells, no shipping charge), needs the Merch order’s ' +
      'address fields (`recipient_name`, `address_line1`, `town_or_city`, `postal_or_zip_code`, ' +
      '`country_code`; 400 naming each one missing) and, once paid, goes to the print provider as ' +
      '`POST /merch/orders`’ orders do. With a Bearer token ' +
      'the token names the buyer; without one `customer_email` names or creates the account (a guest ' +
      'purchase). Confirmation (`confirmation_only: true` with `order_id` and/or `payment_id`): the server ' +
      'asks the gateway and fulfils; `result_code`/`status` are only recorded. A paid order that can no ' +
      'longer be entered (sold out, or the buyer’s cap reached meanwhile) answers that refusal and is ' +
      'refunded whole. In the sandbox, open the answer’s `checkout_url` in a browser to pay. ' +
      FAILURES,
  })
  @ApiRequestExample({
    summary: 'A guest buys two tickets',
    description:
      'No token: `customer_email` names the buyer, and a new one gets an account and a password-set ' +
      'e-mail. Needs the published raffle of `POST /admin/raffles`’s example.',
    value: {
      item_id: RAFFLE_EXAMPLE.item_id,
      site_id: 'main',
      quantity: 2,
      customer_email: 'buyer@example.com',
      customer_name: 'Sam Buyer',
      user_exists: false,
    },
  })
  @ApiOkResponse({ type: GatewayOneOrderResultDto })
  @ApiErrors(...ORDER_ERRORS, 'SOLD_OUT', 'PAYMENT_DECLINED', 'PRODUCT_NOT_AVAILABLE', 'ACCOUNT_DELETED')
  async gatewayOneCreateOrder(
    @Body() body: GatewayOneOrderDto,
    @CurrentUser() caller: AuthUser | undefined,
    @CurrentSite() siteId: string | undefined,
    @ReqMeta() meta: RequestMeta,
  ): Promise<GatewayOneOrderResultDto> {
    if (body.confirmation_only) {
      const payment = await this.confirmations.confirm({
        orderId: body.order_id,
        paymentId: body.payment_id,
        clientResultCode: body.result_code,
        clientStatus: body.status,
      });
      return {
        success:
          payment.status === 'succeeded' || payment.status === 'pending' || payment.status === 'review',
        checkout_id: payment.checkout_id,
        checkout_url: payment.checkout_url,
        order_id: payment.id,
        payment_id: payment.gateway_transaction_id ?? payment.checkout_id,
        order_state: payment.status,
        status: payment.status,
        environment: this.orders.environment(),
        integrity: null,
        message: confirmedMessage(payment.status, payment.purpose),
        error: null,
        error_code: null,
      };
    }
    const { payment, checkout } = await this.orders.create(
      caller,
      {
        gateway: 'gatewayone',
        siteId,
        buyer: { email: body.customer_email, name: body.customer_name, userIdHint: body.user_id },
        itemId: body.item_id,
        itemFields: shippingOf(body),
        quantity: body.quantity,
        upsells: body.upsells,
        amountMajor: body.amount,
        currency: body.currency,
        description: body.description,
        paymentMethod: body.payment_brand ?? 'card',
        integrity: body.integrity,
        returnUrl: body.success_url ?? body.redirect_url ?? null,
        metadata: utmOf(body),
      },
      meta,
    );
    return {
      success: true,
      checkout_id: checkout.checkoutId,
      checkout_url: checkout.checkoutUrl,
      order_id: payment.id,
      payment_id: checkout.checkoutId,
      order_state: payment.status,
      status: payment.status,
      environment: this.orders.environment(),
      integrity: checkout.integrity,
      message:
        this.orders.environment() === 'sandbox'
          ? 'Checkout created; open checkout_url in a browser to pay.'
          : 'Checkout created; complete the payment on the hosted form.',
      error: null,
      error_code: null,
    };
  }

  @Post('gatewaytwo/create-order')
  @OptionalAuth()
  @HttpCode(200)
  @Idempotent()
  @RateLimit(...RATE_LIMITS.orderCreate)
  @ApiOperation({
    summary: 'Create an order at gatewaytwo',
    description:
      'With `item_id` the server prices the raffle order like gatewayone’s (`amount` must match); without it, ' +
      'a generic payment of `amount`. Answers the gateway’s `checkout_url` (in the sandbox, a page to open ' +
      'in a browser). ' +
      FAILURES,
  })
  @ApiRequestExample({
    summary: 'A guest buys two tickets at gatewaytwo',
    description:
      '`amount` must be the server’s price: 2 × £2.50. Needs the published raffle of the examples.',
    value: {
      amount: 5,
      currency: 'GBP',
      description: '2 tickets for Win a camper van',
      item_id: RAFFLE_EXAMPLE.item_id,
      site_id: 'main',
      quantity: 2,
      customer_email: 'buyer@example.com',
    },
  })
  @ApiOkResponse({ type: GatewayTwoOrderResultDto })
  @ApiErrors(...ORDER_ERRORS)
  async gatewayTwoCreateOrder(
    @Body() body: GatewayTwoOrderDto,
    @CurrentUser() caller: AuthUser | undefined,
    @CurrentSite() siteId: string | undefined,
    @ReqMeta() meta: RequestMeta,
  ): Promise<GatewayTwoOrderResultDto> {
    const { payment, checkout } = await this.orders.create(
      caller,
      {
        gateway: 'gatewaytwo',
        siteId,
        buyer: { email: body.customer_email, userIdHint: body.user_id },
        itemId: body.item_id,
        quantity: body.quantity,
        amountMajor: body.amount,
        currency: body.currency,
        description: body.description,
        paymentMethod: 'revolut_pay',
        returnUrl: body.success_url ?? null,
        metadata: utmOf(body),
      },
      meta,
    );
    return {
      success: true,
      checkout_url: checkout.checkoutUrl,
      environment: this.orders.environment(),
      error: null,
      error_code: null,
      order_id: payment.id,
      order_state: payment.status,
    };
  }
}

/** What a confirmation tells the buyer: entries only for a raffle's order. */
function confirmedMessage(status: string, purpose: string): string {
  if (status !== 'succeeded') return `Payment is ${status}.`;
  if (purpose === 'raffle') return 'Payment confirmed; your entries are in.';
  if (purpose === 'merch') return 'Payment confirmed; your order goes to print and ships soon.';
  return 'Payment confirmed.';
}

/** The address fields a merch product's order needs (sent only when the client sent them). */
function shippingOf(body: GatewayOneOrderDto): Record<string, unknown> {
  return Object.fromEntries(SHIPPING_FIELDS.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
}

/** Campaign fields kept on the payment's metadata for reporting. */
function utmOf(body: object): Record<string, unknown> {
  const keys = [
    'utm',
    'utm_campaign',
    'utm_content',
    'utm_medium',
    'utm_source',
    'utm_term',
    'utm_params',
    'custom_data',
    'metadata',
  ];
  const fields = body as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]]));
}
