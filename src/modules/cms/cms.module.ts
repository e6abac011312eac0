import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '#app/modules/auth/auth.module.js';
import { IntegrationsModule } from '#app/modules/integrations/integrations.module.js';
import { MailModule } from '#app/modules/mail/mail.module.js';
import { PaymentsModule } from '#app/modules/payments/payments.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AdminCmsController } from './admin-cms.controller.js';
import { CmsSubmissionsService } from './cms-submissions.service.js';
import { CmsWebhookService } from './cms-webhook.service.js';
import { CmsController } from './cms.controller.js';
import { CmsErasureService } from './cms-erasure.service.js';
import { CmsRepository } from './cms.repository.js';
import { CmsSubmission } from './entities/cms-submission.entity.js';

/**
 * Website-form submissions that become members (DESIGN §7, cms): live through the webhook inbox
 * (payments' `InboxService` and the `PaymentHooks` inbound port), replayed by admins (endpoint 20).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([CmsSubmission]),
    PaymentsModule,
    IntegrationsModule,
    UsersModule,
    AuthModule,
    MailModule,
    SitesModule,
  ],
  controllers: [CmsController, AdminCmsController],
  providers: [CmsRepository, CmsSubmissionsService, CmsWebhookService, CmsErasureService],
  exports: [CmsErasureService],
})
export class CmsModule {}
