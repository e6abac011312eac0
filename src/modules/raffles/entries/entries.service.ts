import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import type { EntryMethod, RaffleEntry } from './entities/raffle-entry.entity.js';
import { EntriesRepository, type EnteredTickets, TicketsRefused } from './entries.repository.js';
import {
  countsAsPurchase,
  type EntryRefusal,
  REFUSAL_TEXT,
  refusalDetail,
  refusalOf,
  refusalStatus,
} from './entries.rules.js';

export interface EnterRequest {
  /** The raffle (its caps and state are checked as the counter's statement reads them). */
  raffle: { id: string };
  userId: string;
  siteId: string;
  quantity: number;
  method: EntryMethod;
  /** The entry's id, when the caller refers to it before it exists (an activity row, a mail job). */
  entryId?: string;
  paymentTransactionId?: string | null;
  pointsSpent?: number;
  /** An entry paid in points: the price per ticket it spent, which the raffle must still ask. */
  pointsPrice?: number;
  createdBy?: string | null;
  note?: string | null;
  meta: Pick<RequestMeta, 'ip' | 'userAgent'>;
}

export type EnterResult =
  { ok: true; entry: RaffleEntry; soldOut: boolean } | { ok: false; refusal: EntryRefusal };

/** A refusal as the client sees it: 409 for the raffle's state, 422 for the order; when it opens, if not yet. */
export function entryRefused(refusal: EntryRefusal, raffle?: { start_date: Date }): AppException {
  return new AppException(
    refusalStatus(refusal),
    refusal,
    raffle ? refusalDetail(refusal, raffle) : REFUSAL_TEXT[refusal],
  );
}

/**
 * Tickets for every way in (payment, credits, points, free, postal): the LAST step of the caller's
 * transaction, after every other write it makes (DESIGN §6 "Contention"). ONE statement checks the
 * user's cap (a conditional upsert), takes the tickets from the raffle's counter — the row every buyer of
 * a popular raffle contends for — and writes the entry with its range, and it commits in the same round
 * trip, so that row's lock is held for that statement and the commit alone. When `enter` answers
 * `ok`, the caller's transaction HAS COMMITTED. `total_entries_available` and `max_entries` hold under
 * any concurrency. A refusal writes nothing more; the caller then throws, rolling its transaction back.
 */
@Injectable()
export class EntriesService {
  constructor(private readonly entries: EntriesRepository) {}

  async enter(req: EnterRequest): Promise<EnterResult> {
    const entry = {
      id: req.entryId ?? randomUUID(),
      raffle_id: req.raffle.id,
      user_id: req.userId,
      site_id: req.siteId,
      method: req.method,
      entries_count: req.quantity,
      points_spent: req.pointsSpent ?? 0,
      payment_transaction_id: req.paymentTransactionId ?? null,
      created_by: req.createdBy ?? null,
      note: req.note ?? null,
      ip_address: req.meta.ip,
      user_agent: req.meta.userAgent,
    };
    let taken: EnteredTickets;
    try {
      taken = await this.entries.takeTicketsEnterAndCommit(
        entry,
        countsAsPurchase(req.method) ? req.quantity : 0,
        req.pointsPrice ?? null,
      );
    } catch (error) {
      if (!(error instanceof TicketsRefused)) throw error;
      // Why, from the statement's own verdict and the raffle as it saw it; the transaction is being rolled back.
      if (error.entrantGone) return { ok: false, refusal: 'ACCOUNT_DELETED' };
      if (error.priceChanged) return { ok: false, refusal: 'PRICE_CHANGED' };
      if (error.capped) return { ok: false, refusal: 'MAX_ENTRIES_REACHED' };
      const refusal = error.raffle ? refusalOf(error.raffle, req.quantity, new Date()) : 'RAFFLE_CLOSED';
      return { ok: false, refusal };
    }
    return {
      ok: true,
      entry: {
        ...entry,
        created_at: taken.created_at,
        ticket_from: taken.ticket_from,
        ticket_to: taken.ticket_to,
        voided_at: null,
        void_reason: null,
      },
      soldOut: taken.ticket_to >= taken.total_entries_available,
    };
  }

  /** How many tickets of the raffle the user holds now (0 when none). */
  heldBy(raffleId: string, userId: string): Promise<number> {
    return this.entries.heldBy(raffleId, userId);
  }

  findForPayment(paymentTransactionId: string, manager?: EntityManager): Promise<RaffleEntry | null> {
    return this.entries.findForPayment(paymentTransactionId, manager);
  }
}
