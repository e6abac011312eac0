import type { PaymentTransaction } from './entities/payment-transaction.entity.js';

/** The reason a refund settled by look-up carries in the payment's history (the admin's is in the activity log). */
const HELD_REASON = 'settled by asking the gateway after its answer was lost';

/**
 * A refund as it was asked: its amount, why, by whom, the queued refund it is part of, and whether the buyer is
 * to be told when it is made (always when staff made it; `tellBuyer` for one the service queued).
 */
export interface Refund {
  amountCents: number;
  reason: string;
  by: string | null;
  queued?: number;
  tellBuyer?: boolean;
}

/** A refund in the payment's history (`metadata.refunds`), and while held (`metadata.held_refunds`). */
export interface RefundEntry {
  amount_cents: number;
  reason: string;
  by: string | null;
  at: string;
  gateway: Record<string, unknown>;
  queued_refund?: number;
  tell_buyer?: boolean;
}

export function refundEntry(refund: Refund, gateway: Record<string, unknown>): RefundEntry {
  return {
    amount_cents: refund.amountCents,
    reason: refund.reason,
    by: refund.by,
    at: new Date().toISOString(),
    gateway,
    ...(refund.queued !== undefined ? { queued_refund: refund.queued } : {}),
    ...(refund.tellBuyer ? { tell_buyer: true } : {}),
  };
}

/** Whether the buyer hears of this refund when it is made: staff made it, or whoever queued it asked. */
export const toldToBuyer = (entry: RefundEntry): boolean => entry.by !== null || entry.tell_buyer === true;

/**
 * The history entries of held refunds the gateway says it made: as they were asked when all of them were
 * made; one entry naming the look-up when only some were (which cannot say which), or none was noted (a
 * process that stopped midway).
 */
export function heldEntries(row: PaymentTransaction, made: number, atGateway: number): RefundEntry[] {
  const held = historyOf(row.metadata.held_refunds).filter(isRecord) as unknown as RefundEntry[];
  const lookUp = { refunded_at_gateway_cents: atGateway };
  if (held.reduce((sum, e) => sum + e.amount_cents, 0) === made)
    return held.map((e) => ({ ...e, at: new Date().toISOString(), gateway: lookUp }));
  // Which of them were made is unknown; the buyer hears of what was if every one of them was to be told.
  const tellBuyer = held.length > 0 && held.every(toldToBuyer);
  return [refundEntry({ amountCents: made, reason: HELD_REASON, by: null, tellBuyer }, lookUp)];
}

/** What the refund job already sent of the queued refund of `queuedCents` (its entries in the history). */
export function sentOfQueued(payment: PaymentTransaction, queuedCents: number): number {
  return historyOf(payment.metadata.refunds)
    .filter((r): r is { amount_cents: number } => isRecord(r) && r.queued_refund === queuedCents)
    .reduce((sum, r) => sum + r.amount_cents, 0);
}

/** A history list from the payment's metadata (absent or malformed: empty). */
export function historyOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
