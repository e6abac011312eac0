import { Inject, Injectable } from '@nestjs/common';
import { MAILER_API, type MailerApi } from '#app/infra/providers/mailer/mailer.api.js';
import type { SiteConfig } from '#app/modules/sites/entities/site-config.entity.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { pickTemplateId, recipientName, templateIdValue } from './mail.rules.js';
import type { MailKind } from './mail.types.js';

/**
 * Sites with `email_provider: mailer`: the provider renders its own templates (the site's template for
 * the kind, else the generic variant, else the master); we send the variables as `params`.
 */
@Injectable()
export class MailerDelivery {
  constructor(
    @Inject(MAILER_API) private readonly api: MailerApi,
    private readonly sites: SitesService,
  ) {}

  async send(
    site: SiteConfig,
    kind: MailKind,
    to: string,
    params: Record<string, string | number | boolean>,
    /** The blind copy, if any (`bccFor`, unless the copy goes on its own). */
    bcc: string | null,
  ): Promise<string | null> {
    const templateId = pickTemplateId(site, kind);
    if (!templateId) throw new Error(`site ${site.site_id} has no mail provider template for ${kind}`);
    const apiKey = this.sites.readSecret(site, 'mailer_api_key');
    if (!apiKey) throw new Error(`site ${site.site_id} has no mailer_api_key`);
    const name = recipientName(params);
    const result = await this.api.sendTemplate(apiKey, {
      templateId: templateIdValue(templateId),
      to: [{ email: to, ...(name ? { name } : {}) }],
      params,
      ...(bcc ? { bcc: [{ email: bcc }] } : {}),
    });
    return result.messageId;
  }
}
