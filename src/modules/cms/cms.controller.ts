import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AppRequest } from '#app/common/http/request-context.js';
import { Public } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiCalledBy } from '#app/common/openapi/request-example.decorator.js';
import { CmsWebhookReceivedDto, ReplaySubmissionDto } from './dto/cms.dto.js';
import { CmsWebhookService } from './cms-webhook.service.js';

@ApiTags('cms')
@Controller()
export class CmsController {
  constructor(private readonly webhook: CmsWebhookService) {}

  @Post('cms/webhook')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Form submissions from the website builder',
    description:
      '`x-webflow-signature`: hex HMAC-SHA256 of `{x-webflow-timestamp}:{raw body}` (5 minutes tolerance). ' +
      'Stored raw in the webhook inbox once per submission, answered at once, processed by a job as a replay ' +
      'would be (`GET /admin/inbound-events?provider=cms`, replayable there).',
  })
  @ApiBody({ type: ReplaySubmissionDto })
  @ApiCalledBy('cms')
  @ApiOkResponse({ type: CmsWebhookReceivedDto })
  @ApiErrors(400, { code: 'UNAUTHENTICATED', detail: 'The notification could not be authenticated.' })
  cmsWebhook(
    @Req() req: AppRequest,
    @Headers() headers: Record<string, string | string[] | undefined>,
  ): Promise<CmsWebhookReceivedDto> {
    return this.webhook.receive(req.rawBody, headers);
  }
}
