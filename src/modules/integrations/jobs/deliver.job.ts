import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import type { JobMap } from '#app/infra/jobs/job.types.js';
import { IntegrationsApi } from '#app/infra/providers/integrations/integrations.api.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';

/**
 * Sends one delivery with the site's own key (decrypted here, only to send). A site without the key, or
 * a service without the provider's address, has nothing to send: the job ends. A provider that fails
 * throws, and the queue retries with back-off; after the last attempt the job is a dead letter that
 * admins list and replay (`/admin/integrations/dead-letters`).
 */
@Injectable()
export class DeliverJob implements OnModuleInit {
  private readonly logger = new Logger(DeliverJob.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly api: IntegrationsApi,
    private readonly sites: SitesService,
    private readonly accounts: AccountsService,
  ) {}

  onModuleInit(): void {
    this.jobs.register('integrations.deliver', (data) => this.run(data));
  }

  async run(data: JobMap['integrations.deliver']): Promise<void> {
    const site = await this.sites.findBySiteId(data.site_id);
    if (!site) return;
    if (data.kind === 'track') {
      const key = this.api.analyticsConfigured ? this.sites.readSecret(site, 'analytics_api_key') : null;
      if (!key || !data.event || !data.message_id) return;
      await this.api.track(key, {
        messageId: data.message_id,
        userId: data.user_id,
        event: data.event,
        properties: data.properties ?? {},
        // When it happened: a delivery retried after an outage, or a dead letter replayed days later, is
        // dated by its event. Jobs queued before `occurred_at` existed are dated when sent, as they were.
        timestamp: data.occurred_at ?? new Date().toISOString(),
      });
      return;
    }
    // The contact list and marketing automation are one account at the provider: the contactsvc key.
    const key = this.sites.readSecret(site, 'contactsvc_api_key');
    if (!key) return;
    if (data.kind !== 'marketing_identify' && !this.api.contactsConfigured) return;
    if (data.kind === 'contact_remove') {
      if (!data.email) return;
      // A removal retried after an outage may be older than the member's latest choice: the address comes
      // off only if no live account of it on the site accepts marketing now (the job carries the address,
      // as a deleted account's row no longer has it).
      const current = await this.accounts.findByEmail(data.site_id, data.email);
      if (current?.marketing_consent) {
        this.logger.debug({ user_id: current.id }, 'marketing consent given again: contact kept');
        return;
      }
      await this.api.removeContact(key, data.email);
      return;
    }
    const user = await this.accounts.findById(data.user_id);
    if (!user) return;
    if (data.kind === 'marketing_identify') {
      if (!this.api.marketingConfigured || !user.marketing_consent) return;
      const marketingId = await this.api.identify(key, {
        email: user.email,
        externalId: user.id,
        firstName: user.profile?.first_name ?? null,
        lastName: user.profile?.last_name ?? null,
      });
      if (user.profile?.marketing_id !== marketingId)
        await this.accounts.updateProfile(user.id, { marketing_id: marketingId });
      return;
    }
    // Only members who accept marketing go on the list.
    if (!user.marketing_consent) {
      this.logger.debug({ user_id: user.id }, 'no marketing consent: not on the contact list');
      return;
    }
    await this.api.upsertContact(key, site.contactsvc_contact_list_id, {
      email: user.email,
      firstName: user.profile?.first_name ?? null,
      lastName: user.profile?.last_name ?? null,
    });
  }
}
