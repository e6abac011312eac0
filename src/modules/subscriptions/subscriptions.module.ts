import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GatewaysModule } from '#app/infra/providers/gateways.module.js';
import { MailModule } from '#app/modules/mail/mail.module.js';
import { PaymentsModule } from '#app/modules/payments/payments.module.js';
import { RewardsModule } from '#app/modules/rewards/rewards.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AdminSubscriptionsController } from './admin-subscriptions.controller.js';
import { AdminTiersController } from './admin-tiers.controller.js';
import { SubscriptionTier } from './entities/subscription-tier.entity.js';
import { Subscription } from './entities/subscription.entity.js';
import { DeleteScheduleJob } from './jobs/delete-schedule.job.js';
import { ExpiriesJob } from './jobs/expiries.job.js';
import { RemindersJob } from './jobs/reminders.job.js';
import { RenewalsJob } from './jobs/renewals.job.js';
import { RenewalEffectsService } from './renewal-effects.service.js';
import { SubscribeService } from './subscribe.service.js';
import { SubscriptionChangeSteps } from './subscription-change-steps.js';
import { SubscriptionChangesService } from './subscription-changes.service.js';
import { SubscriptionPausesService } from './subscription-pauses.service.js';
import { SubscriptionPaymentsHandler } from './subscription-payments.handler.js';
import { SubscriptionsController } from './subscriptions.controller.js';
import { ExpiriesRepository } from './expiries.repository.js';
import { RenewalsRepository } from './renewals.repository.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { SubscriptionsService } from './subscriptions.service.js';
import { TiersController } from './tiers.controller.js';
import { TiersRepository } from './tiers.repository.js';
import { TiersService } from './tiers.service.js';

/**
 * Memberships: tiers, subscriptions and their whole lifecycle (DESIGN §5). Payments reach them only
 * through `PaymentHooks` (the `subscription` handler) and entries through `EntryCredits`.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SubscriptionTier, Subscription]),
    SitesModule,
    UsersModule,
    MailModule,
    RewardsModule,
    PaymentsModule,
    GatewaysModule,
  ],
  controllers: [TiersController, AdminTiersController, SubscriptionsController, AdminSubscriptionsController],
  providers: [
    TiersRepository,
    TiersService,
    SubscriptionsRepository,
    RenewalsRepository,
    ExpiriesRepository,
    SubscriptionsService,
    SubscribeService,
    SubscriptionChangesService,
    SubscriptionChangeSteps,
    SubscriptionPausesService,
    SubscriptionPaymentsHandler,
    RenewalEffectsService,
    RenewalsJob,
    ExpiriesJob,
    RemindersJob,
    DeleteScheduleJob,
  ],
  exports: [TiersService, SubscriptionsService, SubscriptionChangesService],
})
export class SubscriptionsModule {}
