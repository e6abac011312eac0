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

  it('tells the buyer of a held refund made only in part when every held refund was to be told', () => {
    const ask = (amountCents: number, over: { by?: string; tellBuyer?: boolean }) =>
      refundEntry({ amountCents, reason: 'r', by: over.by ?? null, tellBuyer: over.tellBuyer }, {});
    const told = heldEntries(held([ask(250, { tellBuyer: true }), ask(300, { by: 'admin-1' })]), 250, 250);
    expect(told).toEqual([expect.objectContaining({ amount_cents: 250, by: null, tell_buyer: true })]);
    const silent = heldEntries(held([ask(250, { tellBuyer: true }), ask(300, {})]), 250, 250);
    expect(silent.some(toldToBuyer)).toBe(false);
  });
});
