import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { JwtAuthGuard } from '#app/common/auth/jwt-auth.guard.js';
import { RolesGuard } from '#app/common/auth/roles.guard.js';
import { SiteScopeGuard } from '#app/common/auth/site-scope.guard.js';
import { IdempotencyModule } from '#app/common/idempotency/idempotency.module.js';
import { ProblemDetailsFilter } from '#app/common/errors/problem-details.filter.js';
import { RateLimitGuard } from '#app/common/rate-limit/rate-limit.guard.js';
import { RateLimitModule } from '#app/common/rate-limit/rate-limit.module.js';
import { createValidationPipe } from '#app/common/validation/validation.pipe.js';
import type { AppConfig } from '#app/config/app-config.js';
import { ConfigModule } from '#app/config/config.module.js';
import { DatabaseModule } from '#app/infra/database/database.module.js';
import { JobsModule } from '#app/infra/jobs/jobs.module.js';
import { LoggingModule } from '#app/infra/logging/logging.module.js';
import { SandboxModule } from '#app/infra/providers/sandbox/sandbox.module.js';
import { AuthModule } from '#app/modules/auth/auth.module.js';
import { DiscountsModule } from '#app/modules/discounts/discounts.module.js';
import { GamingModule } from '#app/modules/gaming/gaming.module.js';
import { HealthModule } from '#app/modules/health/health.module.js';
import { MailModule } from '#app/modules/mail/mail.module.js';
import { EntryCreditsModule } from './modules/raffles/ports/entry-credits.port.js';
import { PaymentHooksModule } from './modules/payments/hooks/payment-hooks.js';
import { SignupHooksModule } from './modules/users/ports/signup-hooks.port.js';
import { PaymentsModule } from '#app/modules/payments/payments.module.js';
import { RafflesModule } from '#app/modules/raffles/raffles.module.js';
import { ResponsiblePlayModule } from '#app/modules/responsible-play/responsible-play.module.js';
import { RewardsModule } from '#app/modules/rewards/rewards.module.js';
import { SandboxSiteModule } from '#app/modules/sandbox-site/sandbox-site.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { SubscriptionsModule } from '#app/modules/subscriptions/subscriptions.module.js';
import { MerchModule } from '#app/modules/merch/merch.module.js';
import { CmsModule } from '#app/modules/cms/cms.module.js';
import { IntegrationsModule } from '#app/modules/integrations/integrations.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AccountDeletionModule } from '#app/modules/account-deletion/account-deletion.module.js';

/**
 * The whole service. Built from a validated configuration and a database address (the embedded
 * server's, when no DATABASE_URL is set), so the server, the tests and the OpenAPI generator build
 * exactly the same application.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        DatabaseModule.forRoot(databaseUrl),
        JobsModule,
        // First of the features: Express tries routes in the order they were registered, and Nest registers
        // them module by module in this order, so the busiest requests (an order's confirmation, webhooks)
        // are matched before ~100 others are tried (docs/DECISIONS.md, issue 9).
        PaymentsModule,
        PaymentHooksModule,
        EntryCreditsModule,
        SignupHooksModule,
        RateLimitModule,
        SitesModule,
        MailModule,
        UsersModule,
        AuthModule,
        DiscountsModule,
        HealthModule,
        SubscriptionsModule,
        MerchModule,
        CmsModule,
        IntegrationsModule,
        GamingModule,
        RafflesModule,
        ...(config.providers === 'sandbox' ? [SandboxModule, SandboxSiteModule] : []),
        IdempotencyModule,
        RewardsModule,
        ResponsiblePlayModule,
        AccountDeletionModule,
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        // Order matters: throttle first, then who is calling, then what they may do, then where.
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: RolesGuard },
        { provide: APP_GUARD, useClass: SiteScopeGuard },
      ],
    };
  }
}
