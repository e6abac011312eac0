import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '#app/modules/mail/mail.module.js';
import { RewardsModule } from '#app/modules/rewards/rewards.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AdminRafflesController } from './admin-raffles.controller.js';
import { AdminDrawsController } from './draws/admin-draws.controller.js';
import { DrawService } from './draws/draw.service.js';
import { DrawsController } from './draws/draws.controller.js';
import { DrawsRepository } from './draws/draws.repository.js';
import { RaffleInstantTicket } from './draws/entities/raffle-instant-ticket.entity.js';
import { RaffleWinner } from './draws/entities/raffle-winner.entity.js';
import { CloseRafflesJob } from './draws/jobs/close-raffles.job.js';
import { TicketListService } from './draws/ticket-list.service.js';
import { InstantWinsService } from './draws/instant-wins.service.js';
import { WinnersService } from './draws/winners.service.js';
import { Raffle } from './entities/raffle.entity.js';
import { RaffleEntry } from './entries/entities/raffle-entry.entity.js';
import { RaffleUserEntries } from './entries/entities/raffle-user-entries.entity.js';
import { EntriesController } from './entries/entries.controller.js';
import { EntriesRepository } from './entries/entries.repository.js';
import { EntriesService } from './entries/entries.service.js';
import { EntryMailJob } from './entries/jobs/entry-mail.job.js';
import { EntryVoidsService } from './entries/entry-voids.service.js';
import { WaysInService } from './entries/ways-in.service.js';
import { RaffleRelationsPort } from './ports/raffle-relations.port.js';
import { RaffleAdminService } from './raffle-admin.service.js';
import { RafflesController } from './raffles.controller.js';
import { RafflesRepository } from './raffles.repository.js';
import { RafflesService } from './raffles.service.js';

/**
 * Raffles: drafts, publication with a committed draw seed, closing, public reads, pricing, entries, and
 * the draw (ticket list, winners, proof, claims).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Raffle, RaffleEntry, RaffleUserEntries, RaffleWinner, RaffleInstantTicket]),
    SitesModule,
    UsersModule,
    MailModule,
    RewardsModule,
  ],
  controllers: [
    RafflesController,
    AdminRafflesController,
    EntriesController,
    DrawsController,
    AdminDrawsController,
  ],
  providers: [
    RafflesRepository,
    RafflesService,
    RaffleAdminService,
    RaffleRelationsPort,
    EntriesRepository,
    EntriesService,
    WaysInService,
    EntryMailJob,
    EntryVoidsService,
    DrawsRepository,
    TicketListService,
    DrawService,
    WinnersService,
    CloseRafflesJob,
    InstantWinsService,
  ],
  exports: [RafflesService, RaffleRelationsPort, EntriesService, InstantWinsService, EntryVoidsService],
})
export class RafflesModule {}
