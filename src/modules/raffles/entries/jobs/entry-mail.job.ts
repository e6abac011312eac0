import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { RafflesRepository } from '#app/modules/raffles/raffles.repository.js';
import { InstantWinsService } from '#app/modules/raffles/draws/instant-wins.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { EntriesRepository } from '../entries.repository.js';
import { entryMailVariables } from '../entry-mail.js';

/**
 * The `raffle_entry` e-mail of an entry made by points, the free route or by post: queued in the entry's
 * transaction before its tickets were known (the counter is that transaction's last statement), composed
 * here from the entry as committed, and sent at once (one mail per job, so a retry sends it once more at
 * most, as any mail job). It first checks the entry's tickets for instant wins (exactly once, however often
 * it runs).
 */
@Injectable()
export class EntryMailJob implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly entries: EntriesRepository,
    private readonly raffles: RafflesRepository,
    private readonly mail: MailService,
    private readonly instantWins: InstantWinsService,
    private readonly accounts: AccountsService,
  ) {}

  onModuleInit(): void {
    this.jobs.register('entries.notify', (data, meta) => this.run(data.raffle_entry_id, data.to, meta));
  }

  async run(
    entryId: string,
    to: string,
    meta: { id: string; retryCount: number; retryLimit: number },
  ): Promise<void> {
    const entry = await this.entries.findById(entryId);
    if (!entry) return; // gone with its raffle or user since
    await this.instantWins.check(entry);
    const raffle = await this.raffles.findById(entry.raffle_id);
    if (!raffle) return;
    const contact = (await this.accounts.contactsOf([entry.user_id])).get(entry.user_id);
    await this.mail.deliver(
      {
        kind: 'raffle_entry',
        site_id: entry.site_id,
        to,
        user_id: entry.user_id,
        variables: entryMailVariables(raffle, entry, contact?.firstName ?? null),
      },
      meta,
    );
  }
}
