import { Injectable, type OnModuleInit } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AppException } from '#app/common/errors/app.exception.js';
import { AppConfig } from '#app/config/app-config.js';
import { PaymentHooks } from '#app/modules/payments/hooks/payment-hooks.js';
import { InboxService } from '#app/modules/payments/inbox.service.js';
import { type CmsWebhookReceivedDto, ReplaySubmissionDto } from './dto/cms.dto.js';
import { CmsSubmissionsService } from './cms-submissions.service.js';
import { CMS_PROVIDER, inboxKey, verifySubmissionSignature } from './cms.rules.js';

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * `POST /cms/webhook`: the signature and timestamp are checked over the raw body (a bad one is 401 and
 * nothing is stored); a good one is stored raw in the webhook inbox once per submission and answered at
 * once; the inbox job runs it through the same processing as a replay (`CmsSubmissionsService`).
 */
@Injectable()
export class CmsWebhookService implements OnModuleInit {
  constructor(
    private readonly config: AppConfig,
    private readonly inbox: InboxService,
    private readonly hooks: PaymentHooks,
    private readonly submissions: CmsSubmissionsService,
  ) {}

  onModuleInit(): void {
    this.hooks.processInbound(CMS_PROVIDER, (payload) => this.processStored(payload));
  }

  async receive(
    rawBody: Buffer | undefined,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<CmsWebhookReceivedDto> {
    const valid = verifySubmissionSignature({
      secret: this.config.cmsWebhookSecret,
      timestamp: header(headers, 'x-webflow-timestamp'),
      signature: header(headers, 'x-webflow-signature'),
      rawBody,
      now: Date.now(),
    });
    if (!valid || !rawBody)
      throw AppException.unauthenticated('The notification could not be authenticated.');
    const event = await this.parse(rawBody.toString('utf8'));
    return this.inbox.receive({
      provider: CMS_PROVIDER,
      key: inboxKey(event.payload.siteId ?? '', event.payload.id),
      type: event.triggerType ?? 'form_submission',
      siteId: event.payload.siteId ?? null,
      payload: event as unknown as Record<string, unknown>,
    });
  }

  /** The inbox job's part: the submission names its site (the builder's `siteId` is ours). */
  private async processStored(payload: Record<string, unknown>): Promise<{ siteId: string | null }> {
    const event = await this.parse(JSON.stringify(payload));
    const siteId = event.payload.siteId;
    if (!siteId) throw new Error('the submission names no site');
    await this.submissions.process(siteId, event, 'webhook');
    return { siteId };
  }

  /** A signed body that is not a submission is still refused (400), and nothing is stored. */
  private async parse(text: string): Promise<ReplaySubmissionDto> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw AppException.validation([{ field: 'body', message: 'body must be JSON' }]);
    }
    const event = plainToInstance(ReplaySubmissionDto, json);
    const errors = await validate(event);
    if (errors.length)
      throw AppException.validation([{ field: 'payload', message: 'the body is not a form submission' }]);
    return event;
  }
}
