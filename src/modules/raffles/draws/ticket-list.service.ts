import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ticketCsvLine, TICKET_CSV_HEADER } from './draw.rules.js';
import { DrawsRepository } from './draws.repository.js';

/**
 * The ticket list of DESIGN §6 step 2: one CSV line per entry in ticket order, never whole in memory —
 * read page by page (keyset on `ticket_from`), hashed or written out as it goes.
 */
@Injectable()
export class TicketListService {
  constructor(private readonly draws: DrawsRepository) {}

  /** The CSV's text in chunks (one per page of entries), header first. */
  async *chunks(raffleId: string): AsyncGenerator<string> {
    yield TICKET_CSV_HEADER;
    let after = 0;
    for (;;) {
      const page = await this.draws.ticketPage(raffleId, after);
      if (!page.length) return;
      yield page.map((e) => ticketCsvLine(e.ticket_from, e.ticket_to, e.id)).join('');
      after = page[page.length - 1].ticket_from;
    }
  }

  /**
   * Publishes the list's hash and the ticket count of a closed raffle, once (a raffle closed meanwhile by
   * another path publishes the same bytes). Answers whether this call published it.
   */
  async publish(raffleId: string): Promise<boolean> {
    const hash = createHash('sha256');
    for await (const chunk of this.chunks(raffleId)) hash.update(chunk, 'utf8');
    const { tickets } = await this.draws.counts(raffleId);
    return this.draws.publishTicketList(raffleId, hash.digest('hex'), tickets);
  }
}
