import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '#app/common/auth/auth.decorators.js';
import type { AppRequest } from '#app/common/http/request-context.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiCalledBy } from '#app/common/openapi/request-example.decorator.js';
import { Prop } from '#app/common/validation/fields.js';
import { WebhooksService } from './webhooks.service.js';

export class WebhookReceivedDto {
  @Prop(Boolean, { example: true }) received!: boolean;
  @Prop(Boolean, { example: false, description: 'The event was delivered before; nothing more was done.' })
  duplicate!: boolean;
}

type Headers_ = Record<string, string | string[] | undefined>;

@ApiTags('payments')
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('gatewayone/webhook')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Notifications from gatewayone',
    description:
      'Body `{"encryptedBody": "<hex>"}` with headers `X-Initialization-Vector` and `X-Authentication-Tag`: ' +
      'AES-256-GCM under the configured key. Stored in the inbox once per event and processed by a job; ' +
      'duplicates and out-of-order events are harmless.',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiCalledBy('gatewayone')
  @ApiOkResponse({ type: WebhookReceivedDto })
  // A body that is not JSON is refused by the parser before any signature check.
  @ApiErrors(400, { code: 'UNAUTHENTICATED', detail: 'The notification could not be authenticated.' })
  gatewayOneWebhook(
    @Body() body: Record<string, unknown>,
    @Headers() headers: Headers_,
  ): Promise<WebhookReceivedDto> {
    return this.webhooks.gatewayOne(body, headers);
  }

  @Post('gatewaytwo/webhook')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Notifications from gatewaytwo',
    description:
      '`Revolut-Signature: v1=<hex>` over `v1.{Revolut-Request-Timestamp}.{raw body}` (HMAC-SHA256, 5 minutes ' +
      'tolerance). The order is then fetched from the gateway: the event is only a hint.',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiCalledBy('gatewaytwo')
  @ApiOkResponse({ type: WebhookReceivedDto })
  // A body that is not JSON is refused by the parser before any signature check.
  @ApiErrors(400, { code: 'UNAUTHENTICATED', detail: 'The notification could not be authenticated.' })
  gatewayTwoWebhook(@Req() req: AppRequest, @Headers() headers: Headers_): Promise<WebhookReceivedDto> {
    return this.webhooks.gatewayTwo(req.rawBody, headers);
  }
}
