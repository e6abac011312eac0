import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { BonusCredits } from './entities/bonus-credits.entity.js';
import { SpinClaim } from './entities/spin-claim.entity.js';
import { GamingRepository } from './gaming.repository.js';
import { SpinController } from './spin.controller.js';
import { SpinService } from './spin.service.js';

/**
 * The spin wheel (endpoint 19) and the bonus entry credits it wins. Raffle entries reach those credits
 * through the `EntryCredits` port; registration claims a spin through `SpinService`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SpinClaim, BonusCredits]), SitesModule],
  controllers: [SpinController],
  providers: [GamingRepository, SpinService],
  exports: [SpinService],
})
export class GamingModule {}
