import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '#app/modules/users/users.module.js';
import { LimitHold } from './entities/limit-hold.entity.js';
import { UserLimit } from './entities/user-limit.entity.js';
import { UserMonthlySpend } from './entities/user-monthly-spend.entity.js';
import { LimitHoldsRepository } from './limit-holds.repository.js';
import { LimitHoldsService } from './limit-holds.service.js';
import { LimitsController } from './limits.controller.js';
import { PauseListeners } from './pause-listeners.js';
import { ResponsiblePlayRepository } from './responsible-play.repository.js';
import { ResponsiblePlayService } from './responsible-play.service.js';

/**
 * Spend limits and self-pause (DESIGN §6); payments call `reserveSpend`/`releaseSpend` in their transactions
 * and hear of a pause (`PauseListeners`),
 * account deletion `LimitHoldsService.keepFor`, and every new account takes what is held for its address.
 */
@Module({
  imports: [TypeOrmModule.forFeature([UserLimit, UserMonthlySpend, LimitHold]), UsersModule],
  controllers: [LimitsController],
  providers: [
    ResponsiblePlayRepository,
    ResponsiblePlayService,
    LimitHoldsRepository,
    LimitHoldsService,
    PauseListeners,
  ],
  exports: [ResponsiblePlayService, LimitHoldsService, PauseListeners],
})
export class ResponsiblePlayModule {}
