import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GatewaysModule } from '#app/infra/providers/gateways.module.js';
import { AuthModule } from '#app/modules/auth/auth.module.js';
import { HealthModule } from '#app/modules/health/health.module.js';
import { MailModule } from '#app/modules/mail/mail.module.js';
import { RafflesModule } from '#app/modules/raffles/raffles.module.js';
import { ResponsiblePlayModule } from '#app/modules/responsible-play/responsible-play.module.js';
import { RewardsModule } from '#app/modules/rewards/rewards.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AdminJobsController } from './admin-jobs.controller.js';
import { AdminPaymentsController } from './admin-payments.controller.js';
import { BuyersService } from './buyers.service.js';
import { ConfirmationService } from './confirmation.service.js';
import { InboundEvent } from './entities/inbound-event.entity.js';
import { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { FulfilmentService } from './fulfilment.service.js';
import { InboundEventsRepository } from './inbound-events.repository.js';
import { InboxService } from './inbox.service.js';
import { NotifyPaymentJob } from './jobs/notify-payment.job.js';
import { ProcessInboundJob } from './jobs/process-inbound.job.js';
import { ReconcilePaymentsJob } from './jobs/reconcile-payments.job.js';
import { RefundPaymentJob } from './jobs/refund-payment.job.js';
import { OrdersController } from './orders.controller.js';
import { OrdersService } from './orders.service.js';
import { PaymentGateways } from './payment-gateways.js';
import { PaymentOutcomeService } from './payment-outcome.service.js';
import { PaymentsController } from './payments.controller.js';
import { PaymentsMetrics } from './payments.metrics.js';
import { PaymentMailFactsRepository } from './payment-mail-facts.repository.js';
import { PausedBuyersListener } from './paused-buyers.listener.js';
import { PaymentsRepository } from './payments.repository.js';
import { RefundAmountsRepository } from './refund-amounts.repository.js';
import { SuccessClaimsRepository } from './success-claims.repository.js';
import { StoredCardChargesRepository } from './stored-card-charges.repository.js';
import { PaymentsService } from './payments.service.js';
import { PurposeOrdersService } from './purpose-orders.service.js';
import { StoredCardChargesService } from './stored-card-charges.service.js';
import { RefundsService } from './refunds.service.js';
import { RefundEffectsService } from './refund-effects.service.js';
import { HeldRefundsService } from './held-refunds.service.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { WebhooksService } from './webhooks/webhooks.service.js';

/**
 * Money in: orders at both gateways (endpoints 3, 4), generic payments (6), webhooks into an inbox (5),
 * reconciliation, exactly-once fulfilment of raffle entries, refunds.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PaymentTransaction, InboundEvent]),
    GatewaysModule,
    UsersModule,
    SitesModule,
    MailModule,
    AuthModule,
    RafflesModule,
    RewardsModule,
    ResponsiblePlayModule,
    HealthModule,
  ],
  controllers: [
    OrdersController,
    WebhooksController,
    PaymentsController,
    AdminPaymentsController,
    AdminJobsController,
  ],
  providers: [
    PaymentsMetrics,
    PaymentsRepository,
    PaymentMailFactsRepository,
    RefundAmountsRepository,
    SuccessClaimsRepository,
    StoredCardChargesRepository,
    InboundEventsRepository,
    PaymentGateways,
    BuyersService,
    OrdersService,
    ConfirmationService,
    PaymentOutcomeService,
    FulfilmentService,
    RefundsService,
    RefundEffectsService,
    HeldRefundsService,
    PaymentsService,
    WebhooksService,
    InboxService,
    NotifyPaymentJob,
    RefundPaymentJob,
    ProcessInboundJob,
    ReconcilePaymentsJob,
    PurposeOrdersService,
    StoredCardChargesService,
    PausedBuyersListener,
  ],
  exports: [PurposeOrdersService, StoredCardChargesService, InboxService],
})
export class PaymentsModule {}
