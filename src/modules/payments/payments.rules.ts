import type { PaymentStatus } from './entities/payment-transaction.entity.js';

/** What a gateway says about a payment, in our words. */
export type GatewayOutcome = 'succeeded' | 'failed' | 'cancelled' | 'pending' | 'review';

/**
 * The status a payment moves to when a gateway reports `outcome` (DESIGN §5). Events may arrive late,
 * twice or out of order, so nothing moves backwards: a success is never undone by a later failure,
 * and refunds are only ever ours to record. A success after a failure is accepted: money was taken.
 */
export function nextStatus(current: PaymentStatus, outcome: GatewayOutcome): PaymentStatus {
  if (current === 'succeeded' || current === 'refunded' || current === 'partially_refunded') return current;
  switch (outcome) {
    case 'succeeded':
      return 'succeeded';
    case 'review':
      return current === 'pending' ? 'review' : current;
    case 'failed':
    case 'cancelled':
      return current === 'pending' || current === 'review' ? outcome : current;
    case 'pending':
      return current;
  }
}

/**
 * Whether a gateway's report may name the payment's gateway transaction (and leave its response and
 * webhook): not once money was taken. Refunds go to the gateway payment that took it, and a late report
 * of another attempt at the same checkout (a decline announced after the success) must not replace it.
 * Such a report changes nothing; the inbox keeps it as it came.
 */
export function reportNamesPayment(current: PaymentStatus): boolean {
  return current !== 'succeeded' && current !== 'refunded' && current !== 'partially_refunded';
}

/**
 * The reference a payment's refunds are sent under at gatewayone (`merchantTransactionId`): their own, so
 * a look-up by it finds the refunds alone, never the payment's own attempts.
 */
export function refundReference(paymentId: string): string {
  return `${paymentId}-refunds`;
}

/**
 * How much of a held refund the gateway made: what it says it gave back on the payment beyond what we
 * recorded, when that fits in what was reserved. Null when it does not fit (less than we recorded, or
 * more than was in flight: a refund made elsewhere), which is for an admin to look at.
 */
export function heldRefundMade(
  payment: { refunded_cents: number; refund_pending_cents: number },
  refundedAtGateway: number,
): number | null {
  const made = refundedAtGateway - payment.refunded_cents;
  return made >= 0 && made <= payment.refund_pending_cents ? made : null;
}

/** What may still be refunded of a payment: its amount less what went back and what is reserved for a refund. */
export function unrefunded(p: {
  amount_cents: number;
  refunded_cents: number;
  refund_pending_cents: number;
}): number {
  return Math.max(0, p.amount_cents - p.refunded_cents - p.refund_pending_cents);
}

/**
 * How long a payment may stay open at its gateway before it counts as abandoned: a day, as an `incomplete`
 * membership's first payment (DESIGN §5). A checkout the buyer walked away from stays `pending` at
 * gatewaytwo for ever, and until it moves the buyer's month keeps its spend counted.
 */
export const ABANDONED_AFTER_MS = 24 * 60 * 60_000;

/**
 * Whether a gateway's `pending` about a payment opened at `openedAt` means the buyer gave up: then it is
 * settled as `cancelled` (its spend given back). Should the buyer pay after all, that late success is
 * accepted as any other (`recountsSpend`). A payment in review is the gateway's, never abandoned.
 */
export function isAbandoned(outcome: GatewayOutcome, openedAt: Date, now: Date): boolean {
  return outcome === 'pending' && now.getTime() - openedAt.getTime() >= ABANDONED_AFTER_MS;
}

/**
 * How long after it was opened a payment given up here (declined, or cancelled as abandoned) is still asked
 * about: its checkout may still take the money at the gateway (another card after a decline, a walked-away
 * checkout paid days later), and a lost webhook would then leave the buyer charged with nothing entered.
 */
export const LATE_SUCCESS_WATCH_DAYS = 7;

/**
 * Whether reconciliation's answer about a payment can change it: any answer about an open one; about one
 * given up (failed or cancelled) and not fulfilled, only a success (the money taken after all). Any other
 * answer about it is already what the row says.
 */
export function reconciliationMoves(current: PaymentStatus, outcome: GatewayOutcome): boolean {
  if (current === 'pending' || current === 'review') return true;
  return (current === 'failed' || current === 'cancelled') && outcome === 'succeeded';
}

/** A failed or cancelled payment gives back what it had counted against the buyer's spend limit. */
export function releasesSpend(before: PaymentStatus, after: PaymentStatus): boolean {
  const open = before === 'pending' || before === 'review';
  return open && (after === 'failed' || after === 'cancelled');
}

/**
 * A payment given up as failed or cancelled that then went through after all (a late success) has had
 * its spend given back: it must count again, since the money was taken.
 */
export function recountsSpend(before: PaymentStatus, after: PaymentStatus): boolean {
  return (before === 'failed' || before === 'cancelled') && after === 'succeeded';
}

/** The status after `refunded` of `amount` in total has gone back. */
export function statusAfterRefund(amount: number, refunded: number): PaymentStatus {
  return refunded >= amount ? 'refunded' : 'partially_refunded';
}

/** The largest payment taken, in minor units (endpoint 6's `amount_cents` limit; the column is int4). */
export const MAX_PAYMENT_CENTS = 100_000_000;

/**
 * The refusal of an order priced above `MAX_PAYMENT_CENTS` (raffle tickets or merch lines adding up), or
 * null when it fits: refused as 422 `AMOUNT_TOO_LARGE` instead of failing in the database (the payment row
 * and the month's spend counter are PostgreSQL `integer`).
 */
export function orderTooLarge(amountCents: number): string | null {
  return amountCents > MAX_PAYMENT_CENTS
    ? `An order may come to at most ${MAX_PAYMENT_CENTS} (minor units); this one comes to ${amountCents}.`
    : null;
}

/**
 * Why an order that comes to nothing is refused, null when it comes to something: refused as 422
 * `AMOUNT_TOO_SMALL` before anything is written, since no gateway takes a payment of 0 (a raffle priced 0, a
 * 100 % discount tier, or a tier's discount that rounds a cheap ticket down to nothing).
 */
export function orderTooSmall(amountCents: number): string | null {
  return amountCents < 1 ? 'This order comes to nothing, and a payment of nothing cannot be taken.' : null;
}

/** Payment methods of endpoint 6 and the gateway that takes each (DESIGN §10). */
export const PAYMENT_METHOD_GATEWAY = {
  card: 'gatewayone',
  apple_pay: 'gatewayone',
  google_pay: 'gatewayone',
  revolut_pay: 'gatewaytwo',
} as const;
export type PaymentMethod = keyof typeof PAYMENT_METHOD_GATEWAY;

/** `YYYY-MM` in UTC: the month a spend counts in. */
export function spendMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/**
 * Whether a payment succeeding at `now` falls in a self-pause its buyer began while it was open
 * (`buyer_paused_until`): then it buys nothing and is refunded whole (DESIGN §6: a pause stops every paid way
 * in, also a checkout opened before it). An unreadable time is no pause.
 */
export function pausedWhenPaid(buyerPausedUntil: string | null, now: Date): boolean {
  if (!buyerPausedUntil) return false;
  const until = Date.parse(buyerPausedUntil);
  return Number.isFinite(until) && until > now.getTime();
}

/**
 * Keys of a payment's `metadata` the service writes and reads back (the checkout, the claims clients made, a
 * purpose's kind, why it was unfillable, a buyer's pause): a client's `metadata` may not carry them, or it
 * could, say, refuse its own payment or pose as another purpose's.
 */
export const SERVICE_METADATA_KEYS = [
  'checkout_id',
  'checkout_url',
  'client_claims',
  'kind',
  'unfillable',
  'buyer_paused_until',
] as const;

/** The service's own keys a client's `metadata` names (refused, 400). */
export function serviceKeysIn(metadata: Record<string, unknown> | undefined): string[] {
  if (!metadata) return [];
  return SERVICE_METADATA_KEYS.filter((key) => Object.prototype.hasOwnProperty.call(metadata, key));
}
