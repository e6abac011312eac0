import { HttpStatus } from '@nestjs/common';
import type { EntryMethod } from './entities/raffle-entry.entity.js';

export type EntryRefusal =
  | 'SOLD_OUT'
  | 'MAX_ENTRIES_REACHED'
  | 'RAFFLE_CLOSED'
  | 'RAFFLE_NOT_STARTED'
  /** An entry in points: the raffle's points price changed while it was being made (nothing spent). */
  | 'PRICE_CHANGED'
  /** The entrant's account was erased: it holds no entry (a paid order is refunded whole). */
  | 'ACCOUNT_DELETED'
  /** A paid order's checkout was paid during a self-pause its buyer began after opening it (refunded whole). */
  | 'SELF_PAUSED';

/** The tickets an entry got, from the raffle counter's value after adding them. */
export function ticketRange(countAfter: number, quantity: number): { from: number; to: number } {
  return { from: countAfter - quantity + 1, to: countAfter };
}

/** Only money counts towards `entries_purchased`; every way in counts towards `current_entries`. */
export function countsAsPurchase(method: EntryMethod): boolean {
  return method === 'paid';
}

/** Points an entry by points costs: `points_required` per ticket. */
export function pointsCost(pointsRequired: number, quantity: number): number {
  return pointsRequired * quantity;
}

/** Why a raffle that refused tickets refused them, from its state at the time. */
export function refusalOf(
  raffle: {
    active: boolean;
    draft: boolean;
    archived: boolean;
    closed: boolean;
    is_drawn: boolean;
    start_date: Date;
    end_date: Date;
    current_entries: number;
    total_entries_available: number;
  },
  quantity: number,
  now: Date,
): EntryRefusal {
  const running =
    raffle.active &&
    !raffle.draft &&
    !raffle.archived &&
    !raffle.is_drawn &&
    now >= raffle.start_date &&
    now < raffle.end_date;
  // A raffle that is not running, or that an admin closed with tickets left, is closed whatever the
  // quantity: "sold out" would wrongly suggest that fewer tickets could still be had. One that is only
  // waiting for its start says so, since trying again later will work.
  if (!running) return notStartedYet(raffle, now) ? 'RAFFLE_NOT_STARTED' : 'RAFFLE_CLOSED';
  if (raffle.closed && raffle.current_entries < raffle.total_entries_available) return 'RAFFLE_CLOSED';
  return 'SOLD_OUT';
}

/** Published and switched on, nothing ended it, and only its start date is still ahead. */
export function notStartedYet(
  raffle: Pick<
    Parameters<typeof refusalOf>[0],
    'active' | 'draft' | 'archived' | 'closed' | 'is_drawn' | 'start_date'
  >,
  now: Date,
): boolean {
  return (
    raffle.active &&
    !raffle.draft &&
    !raffle.archived &&
    !raffle.closed &&
    !raffle.is_drawn &&
    now.getTime() < raffle.start_date.getTime()
  );
}

/**
 * Whether `quantity` tickets can be entered, judged from the raffle as last read, before anything is
 * written: a paid order that cannot fit is refunded without trying. Null means "try" — the counter's
 * conditional statement still has the last word under concurrency.
 */
export function precheckEntry(
  raffle: Parameters<typeof refusalOf>[0] & { max_entries: number | null },
  quantity: number,
  now: Date,
): EntryRefusal | null {
  if (raffle.max_entries !== null && quantity > raffle.max_entries) return 'MAX_ENTRIES_REACHED';
  const open =
    raffle.active &&
    !raffle.draft &&
    !raffle.archived &&
    !raffle.closed &&
    !raffle.is_drawn &&
    now >= raffle.start_date &&
    now < raffle.end_date;
  if (open && raffle.current_entries + quantity <= raffle.total_entries_available) return null;
  return refusalOf(raffle, quantity, now);
}

export const REFUSAL_TEXT: Record<EntryRefusal, string> = {
  SOLD_OUT: 'There are not enough tickets left in this raffle.',
  MAX_ENTRIES_REACHED: 'This would take you past the most tickets one person may hold in this raffle.',
  RAFFLE_CLOSED: 'This raffle is not open for entries.',
  RAFFLE_NOT_STARTED: 'This raffle has not started yet.',
  PRICE_CHANGED:
    'The raffle’s points price changed while you were entering; nothing was spent. Look at it again.',
  ACCOUNT_DELETED: 'This account has been deleted; it cannot enter raffles.',
  SELF_PAUSED: 'You have paused paid entries on your account for now.',
};

/**
 * The raffle's state refuses (409: closed, not started yet, which a retry after the start date fixes, a
 * points price changed, as a discount claim's is, or the entrant's account erased); the order itself does
 * not fit (422: sold out, over the buyer's cap).
 */
export function refusalStatus(refusal: EntryRefusal): HttpStatus {
  const state: EntryRefusal[] = ['RAFFLE_CLOSED', 'RAFFLE_NOT_STARTED', 'PRICE_CHANGED', 'ACCOUNT_DELETED'];
  return state.includes(refusal) ? HttpStatus.CONFLICT : HttpStatus.UNPROCESSABLE_ENTITY;
}

/** The refusal in words, saying when a raffle that has not started opens. */
export function refusalDetail(refusal: EntryRefusal, raffle: { start_date: Date }): string {
  return refusal === 'RAFFLE_NOT_STARTED'
    ? `This raffle has not started yet: it opens for entries at ${raffle.start_date.toISOString()}.`
    : REFUSAL_TEXT[refusal];
}

/**
 * Whether a refund takes the payment's entry out of the draw: only a raffle payment given back whole (a
 * partial refund leaves the buyer in with every ticket). The entry is voided only while the raffle is open.
 */
export function voidsEntryOnRefund(payment: {
  purpose: string;
  amount_cents: number;
  refunded_cents: number;
}): boolean {
  return (
    payment.purpose === 'raffle' && payment.amount_cents > 0 && payment.refunded_cents >= payment.amount_cents
  );
}
