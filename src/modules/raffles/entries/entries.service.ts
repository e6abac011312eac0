import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { releaseSavepoint, rollbackToSavepoint, savepoint } from '#app/infra/database/savepoints.js';
import type { EntryMethod, RaffleEntry } from './entities/raffle-entry.entity.js';
import { EntriesRepository } from './entries.repository.js';
import {
  countsAsPurchase,
  type EntryRefusal,
  REFUSAL_TEXT,
  refusalOf,
  ticketRange,
} from './entries.rules.js';
import type { Raffle } from '../entities/raffle.entity.js';
import { RafflesRepository } from '../raffles.repository.js';

export interface EnterRequest {
  raffleId: string;
  userId: string;
  siteId: string;
  quantity: number;
  method: EntryMethod;
  paymentTransactionId?: string | null;
  pointsSpent?: number;
  createdBy?: string | null;
  note?: string | null;
  meta: RequestMeta;
  /** The raffle as the caller already read it in this transaction (saves a read); read here otherwise. */
  raffle?: Raffle;
}

export type EnterResult =
  { ok: true; entry: RaffleEntry; soldOut: boolean } | { ok: false; refusal: EntryRefusal };

export function entryRefused(refusal: EntryRefusal): AppException {
  return refusal === 'RAFFLE_CLOSED'
    ? AppException.conflict(refusal, REFUSAL_TEXT[refusal])
    : AppException.unprocessable(refusal, REFUSAL_TEXT[refusal]);
}

/**
 * Tickets for every way in (payment, credits, points, free, postal), inside the caller's transaction.
 * The user's cap is checked by one conditional upsert, then the raffle's counter — the contended row —
 * is taken last by one conditional UPDATE, so `total_entries_available` and `max_entries` hold under any
 * concurrency. A refusal rolls back to a savepoint and leaves the caller's transaction usable (a paid
 * order that can no longer be entered still commits its refund).
 */
@Injectable()
export class EntriesService {
  constructor(
    private readonly entries: EntriesRepository,
    private readonly raffles: RafflesRepository,
  ) {}

  async enter(manager: EntityManager, req: EnterRequest): Promise<EnterResult> {
    const raffle =
      req.raffle?.id === req.raffleId ? req.raffle : await this.raffles.findById(req.raffleId, manager);
    if (!raffle) return { ok: false, refusal: 'RAFFLE_CLOSED' };
    await savepoint(manager, 'enter_raffle');
    const withinCap = await this.entries.addToUserCount(
      manager,
      req.raffleId,
      req.userId,
      req.quantity,
      raffle.max_entries,
    );
    const taken = withinCap
      ? await this.entries.takeTickets(
          manager,
          req.raffleId,
          req.quantity,
          countsAsPurchase(req.method) ? req.quantity : 0,
        )
      : null;
    if (!taken) {
      await rollbackToSavepoint(manager, 'enter_raffle');
      const fresh = withinCap ? await this.raffles.findById(req.raffleId, manager) : raffle;
      return {
        ok: false,
        refusal: withinCap && fresh ? refusalOf(fresh, req.quantity, new Date()) : 'MAX_ENTRIES_REACHED',
      };
    }
    await releaseSavepoint(manager, 'enter_raffle');
    const tickets = ticketRange(taken.current_entries, req.quantity);
    const entry = await this.entries.insert(manager, {
      raffle_id: req.raffleId,
      user_id: req.userId,
      site_id: req.siteId,
      method: req.method,
      entries_count: req.quantity,
      ticket_from: tickets.from,
      ticket_to: tickets.to,
      points_spent: req.pointsSpent ?? 0,
      payment_transaction_id: req.paymentTransactionId ?? null,
      created_by: req.createdBy ?? null,
      note: req.note ?? null,
      ip_address: req.meta.ip,
      user_agent: req.meta.userAgent,
    });
    return { ok: true, entry, soldOut: taken.current_entries >= taken.total_entries_available };
  }

  findForPayment(paymentTransactionId: string, manager?: EntityManager): Promise<RaffleEntry | null> {
    return this.entries.findForPayment(paymentTransactionId, manager);
  }
}
