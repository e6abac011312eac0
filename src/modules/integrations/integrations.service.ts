import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import type { JobMap } from '#app/infra/jobs/job.types.js';
import { type PaymentHead, PaymentHooks } from '#app/modules/payments/hooks/payment-hooks.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { SignupHooks } from '#app/modules/users/ports/signup-hooks.port.js';

type Delivery = JobMap['integrations.deliver'];

/**
 * Keeps the contact-list and analytics providers in step (DESIGN §7): sign-up, purchase and consent
 * change each queue deliveries in the transaction that made the change, so a provider's outage never
 * fails or slows the user's request; the `integrations.deliver` job sends them, retried with back-off.
 */
@Injectable()
export class IntegrationsService implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly payments: PaymentHooks,
    private readonly signups: SignupHooks,
    private readonly sites: SitesService,
  ) {}

  onModuleInit(): void {
    this.signups.listen((s) => this.signedUp(s.siteId, s.userId, 'register'));
    this.signups.onConsent((c) =>
      c.marketingConsent
        ? this.queue([
            { kind: 'contact_upsert', site_id: c.siteId, user_id: c.userId },
            { kind: 'marketing_identify', site_id: c.siteId, user_id: c.userId },
          ])
        : this.queue([{ kind: 'contact_remove', site_id: c.siteId, user_id: c.userId, email: c.email }]),
    );
    this.payments.listen({ succeeded: (p) => this.purchased(p) });
  }

  /** A new member (registration, a website form): on the contact list, and a `Signed Up` event. */
  signedUp(siteId: string, userId: string, source: string): Promise<void> {
    return this.queue([
      { kind: 'contact_upsert', site_id: siteId, user_id: userId },
      { kind: 'marketing_identify', site_id: siteId, user_id: userId },
      {
        kind: 'track',
        site_id: siteId,
        user_id: userId,
        event: 'Signed Up',
        message_id: `signup:${userId}`,
        properties: { source },
        occurred_at: new Date().toISOString(),
      },
    ]);
  }

  /** A member's details changed (a website form for an existing member): the contact is updated. */
  contactChanged(siteId: string, userId: string): Promise<void> {
    return this.queue([{ kind: 'contact_upsert', site_id: siteId, user_id: userId }]);
  }

  /** In the claim's transaction of a paid order (deferred: no round trip of its own on a sale's path). */
  private purchased(p: PaymentHead): Promise<void> {
    if (!p.user_id) return Promise.resolve();
    return this.queue(
      [
        { kind: 'contact_upsert', site_id: p.site_id, user_id: p.user_id },
        {
          kind: 'track',
          site_id: p.site_id,
          user_id: p.user_id,
          event: 'Order Completed',
          message_id: `purchase:${p.id}`,
          occurred_at: new Date().toISOString(),
          properties: {
            order_id: p.id,
            amount_cents: p.amount_cents,
            currency: p.currency,
            purpose: p.purpose,
          },
        },
      ],
      true,
    );
  }

  /**
   * Queues the deliveries the site has a provider for (contact list and marketing share the contactsvc
   * key; analytics has its own): a site without keys queues nothing, so a sale pays for no empty job.
   */
  private async queue(deliveries: Delivery[], defer = false): Promise<void> {
    if (!deliveries.length) return;
    const keys = await this.sites.integrationsOf(deliveries[0].site_id);
    const wanted = deliveries.filter((d) => (d.kind === 'track' ? keys.analytics : keys.contacts));
    if (wanted.length) await this.jobs.enqueueMany('integrations.deliver', wanted, { defer });
  }
}
