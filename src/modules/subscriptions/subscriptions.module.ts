import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { AdminTiersController } from './admin-tiers.controller.js';
import { SubscriptionTier } from './entities/subscription-tier.entity.js';
import { TiersController } from './tiers.controller.js';
import { TiersRepository } from './tiers.repository.js';
import { TiersService } from './tiers.service.js';

/** Subscriptions and their tiers. Tiers first; subscriptions build on `TiersService`. */
@Module({
  imports: [TypeOrmModule.forFeature([SubscriptionTier]), SitesModule],
  controllers: [TiersController, AdminTiersController],
  providers: [TiersRepository, TiersService],
  exports: [TiersService],
})
export class SubscriptionsModule {}
