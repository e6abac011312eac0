import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import type { Raffle } from '../entities/raffle.entity.js';
import { EntriesRepository } from '../entries/entries.repository.js';
import { RafflesRepository } from '../raffles.repository.js';
import { assignInstantPrizes, instantWinTickets, publicWinnerName } from './draw.rules.js';
import { brandingOf } from './draw.service.js';
import { DrawsRepository, type NewWinner } from './draws.repository.js';

/** What an instant-win check needs of an entry. */
export interface CheckedEntry {
  id: string;
  raffle_id: string;
  user_id: string;
  site_id: string;
  ticket_from: number;
  ticket_to: number;
}

/**
 * Instant wins (DESIGN §6): tickets fixed at publication from the seed; an entry whose range covers one
 * wins it. The check runs in the entry's e-mail job (`entries.notify` or `payments.notify`, queued in the
 * entry's own transaction, so it costs the sale no statement and no round trip), after the tickets are
 * known, and never touches the raffle row: one conditional UPDATE on `raffle_instant_tickets` takes each
 * ticket once, whatever runs concurrently or is retried.
 */
@Injectable()
export class InstantWinsService {
  constructor(
    private readonly draws: DrawsRepository,
    private readonly entries: EntriesRepository,
    private readonly raffles: RafflesRepository,
    private readonly accounts: AccountsService,
    private readonly mail: MailService,
    private readonly tx: TransactionRunner,
  ) {}

  /** At publication, in its transaction: the winning tickets of each prize, from the seed just committed. */
  async fix(raffle: Raffle, seed: string): Promise<void> {
    const count = raffle.instant_wins.reduce((sum, p) => sum + p.count, 0);
    if (!count) return;
    const total = raffle.total_entries_available;
    const tickets = instantWinTickets(seed, raffle.id, total, count);
    await this.draws.fixInstantTickets(raffle.id, total, assignInstantPrizes(tickets, raffle.instant_wins));
  }

  /** The check of a paid entry, by its payment. */
  async checkPayment(paymentTransactionId: string): Promise<number> {
    const entry = await this.entries.findForPayment(paymentTransactionId);
    return entry ? this.check(entry) : 0;
  }

  /** Takes the instant-win tickets in the entry's range, records the winners, queues their e-mails. */
  async check(entry: CheckedEntry): Promise<number> {
    return this.tx.run(async () => {
      const won = await this.draws.takeInstantTickets(
        entry.raffle_id,
        entry.id,
        entry.ticket_from,
        entry.ticket_to,
      );
      if (!won.length) return 0;
      const raffle = await this.raffles.findById(entry.raffle_id);
      const contact = (await this.accounts.contactsOf([entry.user_id])).get(entry.user_id);
      const now = new Date();
      const rows: NewWinner[] = won.map((w) => ({
        raffle_id: entry.raffle_id,
        entry_id: entry.id,
        user_id: entry.user_id,
        site_id: entry.site_id,
        giveaway: 'instant',
        giveaway_reference: `instant-${w.ticket}`,
        prize_description: w.prize,
        image: null,
        ticket: w.ticket,
        draw_index: null,
        public_name: publicWinnerName(contact?.firstName ?? null, contact?.county ?? null),
        date_won: now,
      }));
      await this.draws.insertWinners(rows);
      if (contact)
        for (const row of rows)
          await this.mail.send({
            kind: 'raffle_winner',
            siteId: row.site_id,
            to: contact.email,
            userId: row.user_id,
            variables: {
              ...brandingOf(raffle?.mailer_email_params ?? {}),
              giveaway_name: raffle?.name ?? null,
              ticket: row.ticket,
              prize: row.prize_description,
              instant: true,
              first_name: contact.firstName,
            },
          });
      return rows.length;
    });
  }

  /** Entries whose check was lost (a job that failed for good): checked again. Answers the prizes found. */
  async sweep(): Promise<number> {
    let found = 0;
    for (const entry of await this.draws.missedInstantWins()) found += await this.check(entry);
    return found;
  }
}
