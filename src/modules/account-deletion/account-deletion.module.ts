import { Module } from '@nestjs/common';
import { AuthModule } from '#app/modules/auth/auth.module.js';
import { CmsModule } from '#app/modules/cms/cms.module.js';
import { RafflesModule } from '#app/modules/raffles/raffles.module.js';
import { ResponsiblePlayModule } from '#app/modules/responsible-play/responsible-play.module.js';
import { RewardsModule } from '#app/modules/rewards/rewards.module.js';
import { SubscriptionsModule } from '#app/modules/subscriptions/subscriptions.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AccountDeletionController, AdminAccountDeletionController } from './account-deletion.controller.js';
import { AccountDeletionService } from './account-deletion.service.js';

/**
 * Account deletion sits above the features it clears up (users, auth sessions, memberships, referrals,
 * responsible play's limits, which it keeps for the address, raffle entries still open, website forms' fields)
 * and reaches each through its exported service; nothing imports it, so no cycle.
 */
@Module({
  imports: [
    UsersModule,
    AuthModule,
    SubscriptionsModule,
    RewardsModule,
    ResponsiblePlayModule,
    RafflesModule,
    CmsModule,
  ],
  controllers: [AccountDeletionController, AdminAccountDeletionController],
  providers: [AccountDeletionService],
})
export class AccountDeletionModule {}
