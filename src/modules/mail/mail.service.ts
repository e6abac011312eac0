import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { MailerService } from '@nestjs-modules/mailer';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '#app/config/app-config.js';
import type { JobMap } from '#app/infra/jobs/job.types.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { isLogTransport } from './mail-transport.js';
import { renderMail } from './mail.render.js';
import type { MailKind, MailVariables } from './mail.types.js';
import { writeToOutbox } from './outbox.js';

export interface MailRequest {
  kind: MailKind;
  siteId: string;
  to: string;
  userId?: string | null;
  variables: MailVariables;
}

/**
 * E-mail leaves the process only as a job: `send()` enqueues inside the caller's transaction, so a mail
 * exists exactly when the change that caused it (a token, an order) commits; the job retries on failure.
 */
@Injectable()
export class MailService implements OnModuleInit {
  private readonly logger = new Logger(MailService.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly mailer: MailerService,
    private readonly sites: SitesService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register('mail.send', (data) => this.deliver(data));
  }

  async send(request: MailRequest, manager?: EntityManager): Promise<void> {
    await this.jobs.enqueue(
      'mail.send',
      {
        kind: request.kind,
        site_id: request.siteId,
        to: request.to,
        user_id: request.userId ?? null,
        variables: request.variables,
      },
      { manager },
    );
  }

  /** The job: render with the site's branding and hand the message to the transport. */
  async deliver(data: JobMap['mail.send']): Promise<void> {
    const site = await this.sites.findBySiteId(data.site_id);
    const siteName = site?.display_name ?? data.site_id;
    const rendered = renderMail(data.kind, {
      site_name: siteName,
      frontend_url: site?.frontend_url ?? this.config.publicBaseUrl,
      ...data.variables,
    });
    const info = (await this.mailer.sendMail({
      to: data.to,
      from: { name: siteName, address: this.config.mailFrom },
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      headers: { 'X-Mail-Kind': data.kind, 'X-Site-Id': data.site_id },
    })) as { message?: Buffer; messageId?: string };
    if (isLogTransport(this.config) && Buffer.isBuffer(info.message)) {
      await writeToOutbox(this.config.dataDir, data.site_id, data.kind, info.message);
    }
    this.logger.log({ kind: data.kind, site_id: data.site_id, message_id: info.messageId }, 'mail sent');
  }
}
