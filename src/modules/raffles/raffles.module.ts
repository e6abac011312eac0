import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { AdminRafflesController } from './admin-raffles.controller.js';
import { Raffle } from './entities/raffle.entity.js';
import { RaffleRelationsPort } from './ports/raffle-relations.port.js';
import { RaffleAdminService } from './raffle-admin.service.js';
import { RafflesController } from './raffles.controller.js';
import { RafflesRepository } from './raffles.repository.js';
import { RafflesService } from './raffles.service.js';

/** Raffles: drafts, publication with a committed draw seed, closing, public reads and pricing. */
@Module({
  imports: [TypeOrmModule.forFeature([Raffle]), SitesModule],
  controllers: [RafflesController, AdminRafflesController],
  providers: [RafflesRepository, RafflesService, RaffleAdminService, RaffleRelationsPort],
  exports: [RafflesService, RaffleRelationsPort],
})
export class RafflesModule {}
