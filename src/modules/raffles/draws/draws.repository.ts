import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { RaffleInstantTicket } from './entities/raffle-instant-ticket.entity.js';
import { RaffleWinner } from './entities/raffle-winner.entity.js';

/** A page of the ticket list: entries in ticket order. */
export interface TicketLine {
  ticket_from: number;
  ticket_to: number;
  id: string;
}

/** What the draw reads of a raffle, the secret seed included. */
export interface DrawState {
  id: string;
  site_id: string;
  name: string;
  closed: boolean;
  is_drawn: boolean;
  draw_seed: string | null;
  draw_seed_hash: string | null;
  ticket_list_hash: string | null;
  ticket_count: number | null;
  draw_beacon_round: string | null;
  draw_beacon: string | null;
  closed_at: Date | null;
  drawn_at: Date | null;
  instant_win_total: number | null;
}

export type NewWinner = Omit<RaffleWinner, 'id' | 'created_at' | 'updated_at' | 'claimed' | 'claimed_at'>;

/** Entries read per query while the ticket list streams: bounded memory for any raffle size. */
export const TICKET_PAGE = 5000;

/** Queries of the draw: the ticket list, the one-time claim of the draw, winners and their claims. */
@Injectable()
export class DrawsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** An UPDATE … RETURNING: TypeORM answers `[rows, affected]` for those; this answers the rows. */
  private async updated<R>(sql: string, values: unknown[]): Promise<R[]> {
    const [rows] = await this.tx.manager.query<[R[], number]>(sql, values);
    return rows;
  }

  private get winners(): Repository<RaffleWinner> {
    return this.tx.repo(RaffleWinner);
  }

  async drawState(raffleId: string): Promise<DrawState | null> {
    const rows = await this.tx.manager.query<DrawState[]>(
      `SELECT id, site_id, name, closed, is_drawn, draw_seed, draw_seed_hash, ticket_list_hash, ticket_count,
              draw_beacon_round, draw_beacon, closed_at, drawn_at, instant_win_total
         FROM raffles WHERE id = $1 AND draft = false`,
      [raffleId],
    );
    return rows[0] ?? null;
  }

  /**
   * Standing entries after ticket `after`, in ticket order (keyset: one index range scan per page). A voided
   * entry is on no line: its tickets are a gap in the list, which the draw skips (DESIGN §6).
   */
  ticketPage(raffleId: string, after: number, limit = TICKET_PAGE): Promise<TicketLine[]> {
    return this.tx.manager.query<TicketLine[]>(
      `SELECT ticket_from, ticket_to, id FROM raffle_entries
        WHERE raffle_id = $1 AND ticket_from > $2 AND voided_at IS NULL ORDER BY ticket_from LIMIT $3`,
      [raffleId, after, limit],
    );
  }

  /** Publishes the list's hash once; false when it was already published (it never changes after). */
  async publishTicketList(raffleId: string, hash: string, ticketCount: number): Promise<boolean> {
    const rows = await this.updated(
      `UPDATE raffles SET ticket_list_hash = $2, ticket_count = $3
        WHERE id = $1 AND closed AND ticket_list_hash IS NULL RETURNING id`,
      [raffleId, hash, ticketCount],
    );
    return rows.length === 1;
  }

  /**
   * Tickets sold (N, the whole range, voided entries' tickets included: they stay numbered, as gaps) and the
   * standing entries that can win, of a closed raffle (nothing changes them once it is closed).
   */
  async counts(raffleId: string): Promise<{ tickets: number; entries: number }> {
    const rows = await this.tx.manager.query<Array<{ tickets: string | null; entries: string }>>(
      `SELECT max(ticket_to) AS tickets, count(*) FILTER (WHERE voided_at IS NULL) AS entries
         FROM raffle_entries WHERE raffle_id = $1`,
      [raffleId],
    );
    return { tickets: Number(rows[0]?.tickets ?? 0), entries: Number(rows[0]?.entries ?? 0) };
  }

  /**
   * Raffles to close now: published, open, and past their end date or sold out. Their rows are taken in id
   * order, the order a void holds its raffles in (`voidOpen`): taken in the table's order, a close and an
   * account's deletion holding two of the same raffles each waited on the other, and the database ended one.
   */
  async closeDue(now: Date): Promise<string[]> {
    const rows = await this.updated<{ id: string }>(
      `UPDATE raffles r SET closed = true, closed_at = $1
         FROM (SELECT id FROM raffles
                WHERE draft = false AND closed = false
                  AND (end_date <= $1 OR current_entries >= total_entries_available)
                ORDER BY id FOR UPDATE) due
        WHERE r.id = due.id
        RETURNING r.id`,
      [now],
    );
    return rows.map((r) => r.id);
  }

  /** Closed raffles whose ticket list is not published yet (closed by an admin, or a crash in between). */
  async unpublishedLists(): Promise<string[]> {
    const rows = await this.tx.manager.query<Array<{ id: string }>>(
      `SELECT id FROM raffles WHERE closed AND ticket_list_hash IS NULL AND draft = false`,
    );
    return rows.map((r) => r.id);
  }

  /**
   * The draw happens once: this conditional UPDATE claims it (a concurrent call waits on the row lock,
   * then finds `is_drawn` and claims nothing). In the draw's transaction: a failure later rolls it back.
   */
  async claimDraw(raffleId: string, beacon: string | null, now: Date): Promise<boolean> {
    const rows = await this.updated(
      `UPDATE raffles SET is_drawn = true, drawn_at = $3, draw_beacon = $2
        WHERE id = $1 AND closed AND NOT is_drawn AND ticket_list_hash IS NOT NULL RETURNING id`,
      [raffleId, beacon, now],
    );
    return rows.length === 1;
  }

  async setWinnerNames(raffleId: string, names: string): Promise<void> {
    await this.tx.manager.query(`UPDATE raffles SET winner_names = $2 WHERE id = $1`, [raffleId, names]);
  }

  /**
   * The entry holding a ticket (the one whose range starts at or before it), as the ticket list shows it:
   * null for a voided entry's ticket, a gap on the list.
   */
  async entryAt(raffleId: string, ticket: number): Promise<{ id: string; user_id: string } | null> {
    const rows = await this.tx.manager.query<
      Array<{ id: string; user_id: string; ticket_to: number; voided_at: Date | null }>
    >(
      `SELECT id, user_id, ticket_to, voided_at FROM raffle_entries
        WHERE raffle_id = $1 AND ticket_from <= $2 ORDER BY ticket_from DESC LIMIT 1`,
      [raffleId, ticket],
    );
    const row = rows.at(0);
    return row && row.ticket_to >= ticket && !row.voided_at ? { id: row.id, user_id: row.user_id } : null;
  }

  /** Stores the instant-win tickets fixed at publication and the range they were drawn over. */
  async fixInstantTickets(
    raffleId: string,
    total: number,
    tickets: Array<{ ticket: number; prize: string }>,
  ): Promise<void> {
    await this.tx.manager.query(`UPDATE raffles SET instant_win_total = $2 WHERE id = $1`, [raffleId, total]);
    if (tickets.length)
      await this.tx
        .repo(RaffleInstantTicket)
        .insert(tickets.map((t) => ({ ...t, raffle_id: raffleId, entry_id: null })));
  }

  /**
   * The instant-win tickets inside an entry's range, taken for it: each is set once (`entry_id IS NULL`), so
   * two checks of one entry, or of two entries, never take one ticket twice. Off the raffle row entirely.
   * Only while the entry stands: one voided (its payment refunded whole) before its check ran wins nothing.
   * The entry's row is held `FOR SHARE`, so a void running at the same moment (it updates that row) goes
   * either wholly before (nothing won) or after (the win stands, as the draw's list published before a void).
   */
  takeInstantTickets(
    raffleId: string,
    entryId: string,
    from: number,
    to: number,
  ): Promise<Array<{ ticket: number; prize: string }>> {
    return this.updated<{ ticket: number; prize: string }>(
      `UPDATE raffle_instant_tickets SET entry_id = $2
        WHERE raffle_id = $1 AND ticket BETWEEN $3 AND $4 AND entry_id IS NULL
          AND EXISTS (SELECT 1 FROM raffle_entries WHERE id = $2 AND voided_at IS NULL FOR SHARE)
        RETURNING ticket, prize`,
      [raffleId, entryId, from, to],
    );
  }

  /** Entries whose range covers an instant-win ticket not taken yet (a check lost to a crash). */
  missedInstantWins(): Promise<
    Array<{
      id: string;
      raffle_id: string;
      user_id: string;
      site_id: string;
      ticket_from: number;
      ticket_to: number;
    }>
  > {
    return this.tx.manager.query(
      `SELECT DISTINCT e.id, e.raffle_id, e.user_id, e.site_id, e.ticket_from, e.ticket_to
         FROM raffle_instant_tickets t
         JOIN raffle_entries e ON e.raffle_id = t.raffle_id AND t.ticket BETWEEN e.ticket_from AND e.ticket_to
        WHERE t.entry_id IS NULL AND e.voided_at IS NULL`,
    );
  }

  instantTickets(raffleId: string): Promise<RaffleInstantTicket[]> {
    return this.tx
      .repo(RaffleInstantTicket)
      .find({ where: { raffle_id: raffleId }, order: { ticket: 'ASC' } });
  }

  /** Instant-win tickets won so far per prize, by raffle. */
  async instantWonCounts(raffleIds: string[]): Promise<Map<string, Map<string, number>>> {
    const rows = await this.tx.manager.query<Array<{ raffle_id: string; prize: string; n: string }>>(
      `SELECT raffle_id, prize, count(*) AS n FROM raffle_instant_tickets
        WHERE raffle_id = ANY($1::uuid[]) AND entry_id IS NOT NULL GROUP BY raffle_id, prize`,
      [raffleIds],
    );
    const out = new Map<string, Map<string, number>>();
    for (const r of rows)
      out.set(r.raffle_id, (out.get(r.raffle_id) ?? new Map<string, number>()).set(r.prize, Number(r.n)));
    return out;
  }

  async insertWinners(rows: NewWinner[]): Promise<void> {
    if (rows.length) await this.winners.insert(rows);
  }

  winnersOf(raffleId: string, giveaway?: 'draw' | 'instant'): Promise<RaffleWinner[]> {
    return this.winners.find({
      where: { raffle_id: raffleId, ...(giveaway ? { giveaway } : {}) },
      order: { giveaway: 'ASC', draw_index: 'ASC', ticket: 'ASC' },
    });
  }

  /**
   * A page of a raffle's winners in `winnersOf`'s order (draw winners by draw index, then instant wins by ticket:
   * within a raffle `giveaway` and `COALESCE(draw_index, 0), ticket` name one winner), after the cursor winner.
   */
  winnersPage(raffleId: string, limit: number, cursor?: string): Promise<RaffleWinner[]> {
    return this.tx.manager.query<RaffleWinner[]>(
      `SELECT * FROM raffle_winners w
        WHERE w.raffle_id = $1
          AND ($3::uuid IS NULL OR (w.giveaway, COALESCE(w.draw_index, 0), w.ticket) >
                (SELECT c.giveaway, COALESCE(c.draw_index, 0), c.ticket FROM raffle_winners c
                  WHERE c.id = $3 AND c.raffle_id = $1))
        ORDER BY w.giveaway, COALESCE(w.draw_index, 0), w.ticket
        LIMIT $2`,
      [raffleId, limit, cursor ?? null],
    );
  }

  winnersOfRaffles(raffleIds: string[]): Promise<RaffleWinner[]> {
    return this.winners
      .createQueryBuilder('w')
      .where('w.raffle_id = ANY(:ids)', { ids: raffleIds })
      .orderBy('w.raffle_id')
      .addOrderBy('w.giveaway')
      .addOrderBy('w.draw_index')
      .addOrderBy('w.ticket')
      .getMany();
  }

  findWinner(raffleId: string, winnerId: string): Promise<RaffleWinner | null> {
    return this.winners.findOne({ where: { id: winnerId, raffle_id: raffleId } });
  }

  /** Claimed once: false when it was claimed already (a concurrent claim included). */
  async claim(winnerId: string, now: Date): Promise<boolean> {
    const rows = await this.updated(
      `UPDATE raffle_winners SET claimed = true, claimed_at = $2, updated_at = $2
        WHERE id = $1 AND NOT claimed RETURNING id`,
      [winnerId, now],
    );
    return rows.length === 1;
  }

  /** A site's unclaimed prizes, oldest first (keyset after the cursor winner). */
  unclaimed(siteId: string, limit: number, cursor?: string): Promise<RaffleWinner[]> {
    const qb = this.winners
      .createQueryBuilder('w')
      .where('w.site_id = :siteId AND w.claimed = false', { siteId })
      .orderBy('w.created_at', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .take(limit);
    if (cursor)
      qb.andWhere(
        '(w.created_at, w.id) > (SELECT c.created_at, c.id FROM raffle_winners c WHERE c.id = :cursor)',
        { cursor },
      );
    return qb.getMany();
  }
}
