import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '#app/modules/users/users.module.js';
import { UserLimit } from './entities/user-limit.entity.js';
import { UserMonthlySpend } from './entities/user-monthly-spend.entity.js';
import { LimitsController } from './limits.controller.js';
import { ResponsiblePlayRepository } from './responsible-play.repository.js';
import { ResponsiblePlayService } from './responsible-play.service.js';

/** Spend limits and self-pause (DESIGN §6); payments call `reserveSpend`/`releaseSpend` in their transactions. */
@Module({
  imports: [TypeOrmModule.forFeature([UserLimit, UserMonthlySpend]), UsersModule],
  controllers: [LimitsController],
  providers: [ResponsiblePlayRepository, ResponsiblePlayService],
  exports: [ResponsiblePlayService],
})
export class ResponsiblePlayModule {}
