import {
  ABANDONED_AFTER_MS,
  heldRefundMade,
  isAbandoned,
  MAX_PAYMENT_CENTS,
  nextStatus,
  orderTooLarge,
  orderTooSmall,
  pausedWhenPaid,
  serviceKeysIn,
  reconciliationMoves,
  recountsSpend,
  releasesSpend,
  reportNamesPayment,
  unrefunded,
} from './payments.rules.js';

describe('payment status rules', () => {
  it('never moves a success backwards, and accepts a success after a failure', () => {
    expect(nextStatus('succeeded', 'failed')).toBe('succeeded');
    expect(nextStatus('failed', 'succeeded')).toBe('succeeded');
    expect(nextStatus('pending', 'cancelled')).toBe('cancelled');
  });

  it('gives the spend back when an open payment fails, and counts it again when it then succeeds', () => {
    expect(releasesSpend('pending', 'failed')).toBe(true);
    expect(releasesSpend('succeeded', 'succeeded')).toBe(false);
    expect(recountsSpend('failed', 'succeeded')).toBe(true);
    expect(recountsSpend('cancelled', 'succeeded')).toBe(true);
    expect(recountsSpend('pending', 'succeeded')).toBe(false);
    expect(recountsSpend('succeeded', 'succeeded')).toBe(false);
  });

  it('takes a payment still pending at its gateway a day after it was opened as abandoned, never one in review', () => {
    const opened = new Date('2026-11-01T12:00:00Z');
    const later = (ms: number) => new Date(opened.getTime() + ms);
    expect(isAbandoned('pending', opened, later(ABANDONED_AFTER_MS))).toBe(true);
    expect(isAbandoned('pending', opened, later(ABANDONED_AFTER_MS - 1))).toBe(false);
    expect(isAbandoned('review', opened, later(10 * ABANDONED_AFTER_MS))).toBe(false);
    expect(isAbandoned('succeeded', opened, later(10 * ABANDONED_AFTER_MS))).toBe(false);
  });

  it('lets a report name the gateway payment until money was taken, never after', () => {
    for (const open of ['pending', 'review', 'failed', 'cancelled'] as const)
      expect(reportNamesPayment(open)).toBe(true);
    for (const taken of ['succeeded', 'partially_refunded', 'refunded'] as const)
      expect(reportNamesPayment(taken)).toBe(false);
  });

  it('settles a held refund from what the gateway gave back beyond what we recorded, when it fits', () => {
    const held = { refunded_cents: 300, refund_pending_cents: 500 };
    expect(heldRefundMade(held, 800)).toBe(500); // made
    expect(heldRefundMade(held, 300)).toBe(0); // never made
    expect(heldRefundMade(held, 500)).toBe(200); // two held, one made
    expect(heldRefundMade(held, 900)).toBeNull(); // more than was in flight: refunded elsewhere
    expect(heldRefundMade(held, 200)).toBeNull(); // less than we recorded
  });

  it('refuses an order above what one payment may be, naming both amounts', () => {
    expect(orderTooLarge(MAX_PAYMENT_CENTS)).toBeNull();
    expect(orderTooLarge(MAX_PAYMENT_CENTS + 1)).toBe(
      `An order may come to at most ${MAX_PAYMENT_CENTS} (minor units); this one comes to ${MAX_PAYMENT_CENTS + 1}.`,
    );
  });

  it('refuses an order coming to nothing, and takes one of the least amount', () => {
    expect(orderTooSmall(0)).toBe('This order comes to nothing, and a payment of nothing cannot be taken.');
    expect(orderTooSmall(-1)).not.toBeNull();
    expect(orderTooSmall(1)).toBeNull();
  });

  it('leaves to refund the amount less what went back and what is reserved, never below 0', () => {
    expect(unrefunded({ amount_cents: 1000, refunded_cents: 300, refund_pending_cents: 200 })).toBe(500);
    expect(unrefunded({ amount_cents: 1000, refunded_cents: 1000, refund_pending_cents: 0 })).toBe(0);
  });
});

describe('a payment succeeding in its buyer’s self-pause (pausedWhenPaid)', () => {
  const now = new Date('2030-06-15T10:00:00Z');

  it('is refused until the pause ends, not from its last millisecond on', () => {
    expect(pausedWhenPaid('2030-07-15T10:00:00.000Z', now)).toBe(true);
    expect(pausedWhenPaid('2030-06-15T10:00:00.001Z', now)).toBe(true);
    expect(pausedWhenPaid('2030-06-15T10:00:00.000Z', now)).toBe(false);
  });

  it('is not refused without a pause, or with an unreadable one', () => {
    expect(pausedWhenPaid(null, now)).toBe(false);
    expect(pausedWhenPaid('', now)).toBe(false);
    expect(pausedWhenPaid('soon', now)).toBe(false);
  });
});

describe('a client’s payment metadata (serviceKeysIn)', () => {
  it('names the service’s own keys it carries, and nothing else', () => {
    expect(serviceKeysIn({ basket: 'b-1', kind: 'start', buyer_paused_until: 'x' })).toEqual([
      'kind',
      'buyer_paused_until',
    ]);
    expect(serviceKeysIn({ basket: 'b-1' })).toEqual([]);
    expect(serviceKeysIn(undefined)).toEqual([]);
  });
});

describe('reconciliationMoves', () => {
  it('takes any answer about an open payment', () => {
    for (const current of ['pending', 'review'] as const)
      for (const outcome of ['succeeded', 'failed', 'cancelled', 'pending', 'review'] as const)
        expect(reconciliationMoves(current, outcome)).toBe(true);
  });

  it('takes only a success about one given up here: the money taken after all', () => {
    for (const current of ['failed', 'cancelled'] as const) {
      expect(reconciliationMoves(current, 'succeeded')).toBe(true);
      for (const outcome of ['failed', 'cancelled', 'pending', 'review'] as const)
        expect(reconciliationMoves(current, outcome)).toBe(false);
    }
  });

  it('takes nothing about a settled one', () => {
    for (const current of ['succeeded', 'refunded', 'partially_refunded'] as const)
      expect(reconciliationMoves(current, 'succeeded')).toBe(false);
  });
});
