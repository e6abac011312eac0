import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser, Public } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiCalledBy, ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { CallbackReceivedDto, CreatedMerchOrderDto, CreateMerchOrderDto } from './dto/merch.dto.js';
import { MerchFulfilmentService } from './merch-fulfilment.service.js';
import { MerchOrdersService } from './merch-orders.service.js';

@ApiTags('merch')
@Controller()
export class MerchOrdersController {
  constructor(
    private readonly orders: MerchOrdersService,
    private readonly fulfilment: MerchFulfilmentService,
  ) {}

  @Post('merch/orders')
  @Auth()
  // It opens a checkout, as the create-order endpoints do: a retry replays the order rather than opening another.
  @Idempotent()
  @ApiOperation({
    summary: 'Order merchandise',
    description:
      'Priced by the server from your site’s products (price × copies, no shipping charge) and paid on ' +
      'gatewayone’s hosted form (`checkout_id`). Once paid, the order goes to the fulfilment provider.',
  })
  @ApiRequestExample({
    summary: 'Two T-shirts to a London address',
    description: '`merch_product_id`: a product of your site (`GET /merch/products`).',
    value: {
      items: [{ merch_product_id: '3f6c2a0e-8e1b-4d7a-9c55-2b1f0c9d4e11', copies: 2 }],
      recipient_name: 'Jane Doe',
      recipient_email: 'jane@example.com',
      recipient_phone: '+447700900123',
      address_line1: '1 High Street',
      town_or_city: 'London',
      state_or_county: 'Greater London',
      postal_or_zip_code: 'SW1A 1AA',
      country_code: 'GB',
      shipping_method: 'Standard',
    },
  })
  @ApiCreatedResponse({ type: CreatedMerchOrderDto })
  @ApiErrors(
    400,
    'PRODUCT_NOT_AVAILABLE',
    'MIXED_CURRENCIES',
    'AMOUNT_TOO_LARGE',
    'SELF_PAUSED',
    'SPEND_LIMIT_REACHED',
    'GATEWAY_UNAVAILABLE',
  )
  createMerchOrder(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateMerchOrderDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<CreatedMerchOrderDto> {
    return this.orders.create(user, body, meta);
  }

  @Post('merch/fulfilment/callback/:token')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Order updates from the fulfilment provider',
    description:
      'A CloudEvent whose `data.order` is the provider’s order, at the order’s own secret URL. Only a hint: ' +
      'the order is re-read from the provider by a job, which moves `status_stage` from what it says. An ' +
      'unknown token is 404 and changes nothing.',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiCalledBy('fulfilment')
  @ApiOkResponse({ type: CallbackReceivedDto })
  // A body that is not JSON is refused by the parser before the token is looked at.
  @ApiErrors(400, 404)
  merchFulfilmentCallback(@Param('token') token: string): Promise<CallbackReceivedDto> {
    return this.fulfilment.callback(token);
  }
}
