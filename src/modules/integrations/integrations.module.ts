import { Module } from '@nestjs/common';
import { IntegrationsApi } from '#app/infra/providers/integrations/integrations.api.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AdminIntegrationsController } from './admin-integrations.controller.js';
import { DeadLettersService } from './dead-letters.service.js';
import { IntegrationsRepository } from './integrations.repository.js';
import { IntegrationsService } from './integrations.service.js';
import { DeliverJob } from './jobs/deliver.job.js';

/**
 * The contact-list and analytics providers kept in step (DESIGN §7): deliveries queued by sign-ups
 * (`SignupHooks`), consent changes and purchases (`PaymentHooks`), sent by a retried job; dead letters
 * for admins.
 */
@Module({
  imports: [SitesModule, UsersModule],
  controllers: [AdminIntegrationsController],
  providers: [IntegrationsApi, IntegrationsService, DeliverJob, IntegrationsRepository, DeadLettersService],
  exports: [IntegrationsService],
})
export class IntegrationsModule {}
