import { Injectable } from '@nestjs/common';
import { type EntityManager, In, QueryFailedError, type Repository } from 'typeorm';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { EntryMethod, EntryVoidReason } from './entities/raffle-entry.entity.js';
import type { refusalOf } from './entries.rules.js';
import { RaffleEntry } from './entities/raffle-entry.entity.js';
import { keepPlan } from '#app/infra/database/kept-plans.js';

/** An entry as the counter's statement writes it: everything but the ticket range, which it assigns. */
export type NewEntry = Omit<
  RaffleEntry,
  'created_at' | 'ticket_from' | 'ticket_to' | 'raffle' | 'user' | 'voided_at' | 'void_reason'
>;

/** Which standing entries a void takes out: a payment's, or all of a user's. */
export type VoidScope = { paymentId: string } | { userId: string };

/** An entry taken out of its raffle's draw. */
export interface VoidedEntry {
  id: string;
  raffle_id: string;
  user_id: string;
  entries_count: number;
}

/** What the counter's statement answers of the entry it wrote. */
export interface EnteredTickets {
  created_at: Date;
  ticket_from: number;
  ticket_to: number;
  total_entries_available: number;
}

/** The raffle as it stood when the counter refused (the refusal's detail), to say why. */
export type RefusedRaffle = Parameters<typeof refusalOf>[0];

/** Thrown when the counter's statement took no tickets: the transaction is being rolled back. */
export class TicketsRefused extends Error {
  constructor(
    /** The user already holds as many tickets as `max_entries` allows with these. */
    readonly capped: boolean,
    readonly raffle: RefusedRaffle | null,
    /** The raffle's points price is no longer the one the entry spent. */
    readonly priceChanged = false,
    /** The entrant's account was erased (before this entry, or while it was being made). */
    readonly entrantGone = false,
  ) {
    super('the raffle took no tickets');
  }
}

/**
 * The hot row, touched last and once (DESIGN §6 "Contention"). One statement: the user's cap first (a
 * conditional upsert of what they hold: two parallel entries of one user cannot both pass it; the cap is
 * the raffle's `max_entries` as this statement reads it, never a caller's copy), then, only
 * if it passed, the raffle's counter takes the tickets if the raffle is open and has them (closing it when
 * they were the last), and the entry is inserted with its contiguous range from that UPDATE's RETURNING.
 * Sent with COMMIT in one round trip (`TransactionRunner.commitWith`), so when it takes nothing it must
 * fail: `tickets_refused` raises with the cap's verdict and the raffle's state, aborting the transaction.
 * The entrant's row is read first, locked `FOR KEY SHARE` (as the entry's foreign key locks it, only
 * earlier): an account erased before this statement, or while it waited on the row, holds no entry
 * (`entrant_gone`), and an erasure that comes after waits for this commit and then voids what it finds.
 * An entry paid in points names the price per ticket it spent ($14): the raffle row as updated (what
 * `RETURNING` sees, not the statement's snapshot) must still ask it, or the entry is refused
 * (`price_changed`), its spend rolled back with it, rather than bought at a price an admin has changed.
 */
const TAKE_AND_ENTER = keepPlan(`
  WITH entrant AS MATERIALIZED (SELECT id FROM users WHERE id = $5 AND deleted_at IS NULL FOR KEY SHARE),
  cap AS (SELECT (SELECT max_entries FROM raffles WHERE id = $1) AS most),
  capped AS (
    INSERT INTO raffle_user_entries (raffle_id, user_id, entries_count)
    SELECT $1, $5, $2 FROM cap
     WHERE (cap.most IS NULL OR $2 <= cap.most) AND EXISTS (SELECT 1 FROM entrant)
    ON CONFLICT (raffle_id, user_id) DO UPDATE
      SET entries_count = raffle_user_entries.entries_count + EXCLUDED.entries_count
      WHERE (SELECT most FROM cap) IS NULL
         OR raffle_user_entries.entries_count + EXCLUDED.entries_count <= (SELECT most FROM cap)
    RETURNING entries_count),
  taken AS (
    UPDATE raffles
       SET current_entries = current_entries + $2,
           entries_purchased = entries_purchased + $3,
           closed = (current_entries + $2 >= total_entries_available),
           closed_at = CASE WHEN current_entries + $2 >= total_entries_available THEN now() ELSE closed_at END,
           updated_at = now()
     WHERE id = $1
       AND EXISTS (SELECT 1 FROM capped)
       AND active AND NOT draft AND NOT archived AND NOT closed AND NOT is_drawn
       AND now() >= start_date AND now() < end_date
       AND current_entries + $2 <= total_entries_available
    RETURNING current_entries, total_entries_available, points_required),
  entry AS (
    INSERT INTO raffle_entries (id, raffle_id, user_id, site_id, method, entries_count, ticket_from, ticket_to,
                                points_spent, payment_transaction_id, created_by, note, ip_address, user_agent)
    SELECT $4, $1, $5, $6, $7, $2, taken.current_entries - $2 + 1, taken.current_entries,
           $8, $9, $10, $11, $12, $13
      FROM taken WHERE $14::integer IS NULL OR taken.points_required = $14::integer
    RETURNING created_at, ticket_from, ticket_to)
  SELECT entry.created_at, entry.ticket_from, entry.ticket_to, taken.total_entries_available
    FROM entry, taken
  UNION ALL
  SELECT NULL, NULL, NULL, tickets_refused(jsonb_build_object('price_changed', true))
    FROM taken WHERE $14::integer IS NOT NULL AND taken.points_required <> $14::integer
  UNION ALL
  SELECT NULL, NULL, NULL, tickets_refused(jsonb_build_object(
           'entrant_gone', NOT EXISTS (SELECT 1 FROM entrant),
           'capped', NOT EXISTS (SELECT 1 FROM capped),
           'raffle', (SELECT to_jsonb(r) FROM (SELECT active, draft, archived, closed, is_drawn, start_date, end_date,
                                                       current_entries, total_entries_available
                                                  FROM raffles WHERE id = $1) r)))
   WHERE NOT EXISTS (SELECT 1 FROM taken)`);

@Injectable()
export class EntriesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** RaffleEntrys in the ambient transaction when there is one. */
  private get entries(): Repository<RaffleEntry> {
    return this.tx.repo(RaffleEntry);
  }

  /**
   * Checks the user's cap (the raffle's `max_entries`), takes `entry.entries_count` tickets from the
   * raffle's counter, writes the entry and COMMITS the ambient transaction (with whatever it deferred):
   * the caller's last step. Throws `TicketsRefused` (rolled back) when refused.
   */
  async takeTicketsEnterAndCommit(
    entry: NewEntry,
    purchased: number,
    pointsPrice: number | null = null,
  ): Promise<EnteredTickets> {
    let rows: EnteredTickets[];
    try {
      rows = await this.tx.commitWith<EnteredTickets>(TAKE_AND_ENTER, [
        entry.raffle_id,
        entry.entries_count,
        purchased,
        entry.id,
        entry.user_id,
        entry.site_id,
        entry.method,
        entry.points_spent,
        entry.payment_transaction_id,
        entry.created_by,
        entry.note,
        entry.ip_address,
        entry.user_agent,
        pointsPrice,
      ]);
    } catch (error) {
      const cause =
        error instanceof QueryFailedError
          ? (error.driverError as { code?: string; message?: string; detail?: string })
          : {};
      if (cause.code !== 'P0001' || cause.message !== 'TICKETS_REFUSED') throw error;
      const detail = cause.detail
        ? (JSON.parse(cause.detail) as {
            capped?: boolean;
            raffle?: RawRaffle | null;
            price_changed?: boolean;
            entrant_gone?: boolean;
          })
        : {};
      throw new TicketsRefused(
        detail.capped ?? false,
        detail.raffle ? refusedRaffle(detail.raffle) : null,
        detail.price_changed ?? false,
        detail.entrant_gone ?? false,
      );
    }
    return { ...rows[0], created_at: new Date(rows[0].created_at) };
  }

  /**
   * Voids the standing entries of `scope` in raffles whose ticket list is not fixed yet (not closed), and
   * gives what they held back to the user's `max_entries` count. The entries keep their rows and ranges and
   * the raffle its counters: the range is spent, never sold again (DECISIONS, "voided entries").
   *
   * Locks in the order an entry takes them (the user's cap row, then the raffle row), so a purchase racing
   * this cannot deadlock with it. The raffle row is held FOR SHARE to the commit: a close waits for this
   * void, and a void after a close finds the raffle closed, so a published list never changes under it.
   * That row is the counter every buyer of the raffle queues on, so it is taken by the void's own
   * statement, the last one of the void: callers run it as the last statement of their transaction
   * (DESIGN §6, as the sale path keeps the counter last), and a sale waits for the void's reply and COMMIT
   * only.
   */
  async voidOpen(scope: VoidScope, reason: EntryVoidReason, now: Date): Promise<VoidedEntry[]> {
    const [column, key] =
      'paymentId' in scope ? ['payment_transaction_id', scope.paymentId] : ['user_id', scope.userId];
    const standing = `SELECT raffle_id, user_id FROM raffle_entries WHERE ${column} = $1 AND voided_at IS NULL`;
    await this.tx.manager.query(
      `SELECT 1 FROM raffle_user_entries WHERE (raffle_id, user_id) IN (${standing})
        ORDER BY raffle_id FOR UPDATE`,
      [key],
    );
    // A SELECT at the top (the locks and UPDATEs in its CTEs): the driver answers the rows. The raffles are
    // locked in id order; one a sale closed while this waited for its row is read as it now is (not open).
    return this.tx.manager.query<VoidedEntry[]>(
      `WITH open AS MATERIALIZED (
         SELECT id FROM raffles WHERE id IN (SELECT raffle_id FROM (${standing}) s)
            AND NOT closed AND NOT is_drawn AND ticket_list_hash IS NULL
          ORDER BY id FOR SHARE),
       voided AS (
         UPDATE raffle_entries SET voided_at = $2, void_reason = $3
          WHERE ${column} = $1 AND voided_at IS NULL AND raffle_id IN (SELECT id FROM open)
         RETURNING id, raffle_id, user_id, entries_count),
       back AS (
         UPDATE raffle_user_entries u SET entries_count = u.entries_count - v.n
           FROM (SELECT raffle_id, user_id, SUM(entries_count)::integer AS n FROM voided GROUP BY 1, 2) v
          WHERE u.raffle_id = v.raffle_id AND u.user_id = v.user_id)
       SELECT id, raffle_id, user_id, entries_count FROM voided`,
      [key, now, reason],
    );
  }

  /** Whether the user already took the free route into this raffle. */
  async hasFreeEntry(manager: EntityManager, raffleId: string, userId: string): Promise<boolean> {
    return manager
      .getRepository(RaffleEntry)
      .exists({ where: { raffle_id: raffleId, user_id: userId, method: 'free' } });
  }

  findById(id: string): Promise<RaffleEntry | null> {
    return this.tx.repo(RaffleEntry).findOne({ where: { id } });
  }

  findForPayment(paymentTransactionId: string, manager?: EntityManager): Promise<RaffleEntry | null> {
    return (manager ?? this.tx.manager).getRepository(RaffleEntry).findOne({
      where: { payment_transaction_id: paymentTransactionId },
    });
  }

  /**
   * The newest `perRaffle` entries of each raffle, in one query. A LATERAL top-N per raffle on
   * ix_raffle_entries_raffle_created reads `perRaffle` index entries each; ranking every entry with a
   * window function read all of a raffle's entries (a Seq Scan of 1M rows at 1M entries, bench:explain).
   */
  latestOfRaffles(raffleIds: string[], perRaffle: number): Promise<RaffleEntry[]> {
    if (!raffleIds.length) return Promise.resolve([]);
    return this.entries
      .createQueryBuilder('e')
      .where(
        `e.id IN (SELECT l.id FROM unnest(CAST(:ids AS uuid[])) AS r(id)
                  CROSS JOIN LATERAL (SELECT x.id FROM raffle_entries x WHERE x.raffle_id = r.id
                                       ORDER BY x.created_at DESC, x.id DESC LIMIT :per) l)`,
        { ids: raffleIds, per: perRaffle },
      )
      .orderBy('e.created_at', 'DESC')
      .getMany();
  }

  ofUsers(userIds: string[], limitPerUser = 100): Promise<RaffleEntry[]> {
    if (!userIds.length) return Promise.resolve([]);
    return this.entries.find({
      where: { user_id: In(userIds) },
      order: { created_at: 'DESC' },
      take: limitPerUser * userIds.length,
    });
  }

  page(userId: string, limit: number, cursor?: string): Promise<RaffleEntry[]> {
    const qb = this.entries
      .createQueryBuilder('e')
      .where('e.user_id = :userId', { userId })
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .take(limit);
    if (cursor)
      qb.andWhere('(e.created_at, e.id) < (SELECT created_at, id FROM raffle_entries WHERE id = :cursor)', {
        cursor,
      });
    return qb.getMany();
  }

  countByMethod(raffleId: string, method: EntryMethod): Promise<number> {
    return this.entries.count({ where: { raffle_id: raffleId, method } });
  }

  /** The user's count in the raffle (`raffle_user_entries`, by its primary key); 0 when none. */
  async heldBy(raffleId: string, userId: string): Promise<number> {
    const rows = await this.tx.manager.query<Array<{ n: number }>>(
      `SELECT entries_count AS n FROM raffle_user_entries WHERE raffle_id = $1 AND user_id = $2`,
      [raffleId, userId],
    );
    return rows[0]?.n ?? 0;
  }
}

type RawRaffle = Omit<RefusedRaffle, 'start_date' | 'end_date'> & { start_date: string; end_date: string };

function refusedRaffle(raw: RawRaffle): RefusedRaffle {
  return { ...raw, start_date: new Date(raw.start_date), end_date: new Date(raw.end_date) };
}
