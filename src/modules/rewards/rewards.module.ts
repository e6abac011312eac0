import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AdminRewardsController } from './admin-rewards.controller.js';
import { PointTransaction } from './entities/point-transaction.entity.js';
import { RewardsBalance } from './entities/rewards-balance.entity.js';
import { PointsRecordsReader } from './points-records.reader.js';
import { PointsRepository } from './points.repository.js';
import { PaymentPointsService } from './payment-points.service.js';
import { PointsService } from './points.service.js';
import { RewardsController } from './rewards.controller.js';
import { Referral } from './entities/referral.entity.js';
import { LoyaltyPort } from './ports/loyalty.port.js';
import { ReferralsRepository } from './referrals.repository.js';
import { ReferralsService } from './referrals.service.js';
import { RewardsSummaryService } from './rewards-summary.service.js';
import { RewardsService } from './rewards.service.js';

/** Points ledger and balances (DESIGN §6); referrals, milestones and the summary join it later. */
@Module({
  imports: [TypeOrmModule.forFeature([PointTransaction, RewardsBalance, Referral]), UsersModule, SitesModule],
  controllers: [RewardsController, AdminRewardsController],
  providers: [
    PointsRepository,
    PointsService,
    PaymentPointsService,
    RewardsService,
    PointsRecordsReader,
    ReferralsRepository,
    ReferralsService,
    RewardsSummaryService,
    LoyaltyPort,
  ],
  exports: [PointsService, PaymentPointsService, LoyaltyPort, ReferralsService],
})
export class RewardsModule {}
