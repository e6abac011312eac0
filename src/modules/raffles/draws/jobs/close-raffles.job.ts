import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { DrawsRepository } from '../draws.repository.js';
import { InstantWinsService } from '../instant-wins.service.js';
import { TicketListService } from '../ticket-list.service.js';

/**
 * Closes raffles whose end date passed or that sold out, and publishes the ticket list of every closed
 * raffle still without one (every five minutes, and `POST /admin/jobs/raffles.close/run`). The draw stays
 * an admin's act. It also finds instant wins whose check was lost. Answers how many raffles it closed.
 */
@Injectable()
export class CloseRafflesJob implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly draws: DrawsRepository,
    private readonly tickets: TicketListService,
    private readonly instantWins: InstantWinsService,
  ) {}

  onModuleInit(): void {
    this.jobs.register('raffles.close', async () => {
      await this.run(new Date());
    });
    this.jobs.schedule('raffles.close', '*/5 * * * *', {});
    this.jobs.runnable('raffles.close', () => this.run(new Date()));
  }

  async run(now: Date): Promise<number> {
    const closed = await this.draws.closeDue(now);
    for (const id of await this.draws.unpublishedLists()) await this.tickets.publish(id);
    await this.instantWins.sweep();
    return closed.length;
  }
}
