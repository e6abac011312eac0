import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { heldEntries, refundEntry, toldToBuyer } from './refund-entries.js';

const held = (entries: unknown[]): PaymentTransaction =>
  ({ metadata: { held_refunds: entries } }) as unknown as PaymentTransaction;

describe('refund entries', () => {
  it('tells the buyer of a refund staff made, and of one queued asking for it; not of the others', () => {
    expect(toldToBuyer(refundEntry({ amountCents: 100, reason: 'Goodwill', by: 'admin-1' }, {}))).toBe(true);
    const merch = refundEntry(
      { amountCents: 100, reason: 'Merch order cancelled', by: null, tellBuyer: true },
      {},
    );
    expect(merch).toMatchObject({ by: null, tell_buyer: true });
    expect(toldToBuyer(merch)).toBe(true);
    const unfillable = refundEntry({ amountCents: 100, reason: 'Sold out', by: null, queued: 100 }, {});
    expect(unfillable).not.toHaveProperty('tell_buyer');
    expect(toldToBuyer(unfillable)).toBe(false);
  });

  it('keeps whether to tell the buyer through a refund held after a lost answer', () => {
    const asked = refundEntry(
      { amountCents: 250, reason: 'Unused', by: null, queued: 250, tellBuyer: true },
      {},
    );
    const [settled] = heldEntries(held([asked]), 250, 250);
    expect(settled).toMatchObject({ amount_cents: 250, tell_buyer: true, queued_refund: 250 });
    expect(toldToBuyer(settled)).toBe(true);
  });
});
