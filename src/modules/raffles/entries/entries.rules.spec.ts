import {
  countsAsPurchase,
  pointsCost,
  precheckEntry,
  refusalDetail,
  refusalOf,
  refusalStatus,
  ticketRange,
  voidsEntryOnRefund,
} from './entries.rules.js';

const NOW = new Date('2030-06-15T12:00:00Z');

function raffle(over: Partial<Parameters<typeof refusalOf>[0]> = {}): Parameters<typeof refusalOf>[0] {
  return {
    active: true,
    draft: false,
    archived: false,
    closed: false,
    is_drawn: false,
    start_date: new Date('2030-06-01T00:00:00Z'),
    end_date: new Date('2030-07-01T00:00:00Z'),
    current_entries: 8,
    total_entries_available: 10,
    ...over,
  };
}

describe('entries rules', () => {
  it('gives an entry the tickets just below the counter’s new value', () => {
    expect(ticketRange(10, 3)).toEqual({ from: 8, to: 10 });
    expect(ticketRange(1, 1)).toEqual({ from: 1, to: 1 });
  });

  it('counts only paid entries as purchased', () => {
    expect(countsAsPurchase('paid')).toBe(true);
    for (const m of ['credits', 'points', 'free', 'postal'] as const) expect(countsAsPurchase(m)).toBe(false);
  });

  it('prices points entries at points_required per ticket', () => {
    expect(pointsCost(15, 3)).toBe(45);
    expect(pointsCost(0, 5)).toBe(0);
  });

  describe('why a raffle refused tickets', () => {
    it('is sold out when fewer tickets are left than asked, or none at all', () => {
      expect(refusalOf(raffle(), 3, NOW)).toBe('SOLD_OUT');
      expect(refusalOf(raffle({ current_entries: 10, closed: true }), 1, NOW)).toBe('SOLD_OUT');
    });

    it('is closed when an admin closed it, even for more tickets than are left', () => {
      expect(refusalOf(raffle({ closed: true }), 1, NOW)).toBe('RAFFLE_CLOSED');
      expect(refusalOf(raffle({ closed: true }), 5, NOW)).toBe('RAFFLE_CLOSED');
    });

    it('has not started when only its start date is ahead, and says when it opens', () => {
      const later = raffle({ start_date: new Date('2030-06-16T00:00:00Z'), current_entries: 0 });
      expect(refusalOf(later, 1, NOW)).toBe('RAFFLE_NOT_STARTED');
      expect(refusalStatus('RAFFLE_NOT_STARTED')).toBe(409);
      expect(refusalDetail('RAFFLE_NOT_STARTED', later)).toBe(
        'This raffle has not started yet: it opens for entries at 2030-06-16T00:00:00.000Z.',
      );
    });

    it('is closed, not "not started", when something else stops it before its start too', () => {
      const start_date = new Date('2030-06-16T00:00:00Z');
      for (const over of [{ active: false }, { archived: true }, { is_drawn: true }, { draft: true }])
        expect(refusalOf(raffle({ ...over, start_date }), 1, NOW)).toBe('RAFFLE_CLOSED');
    });

    it('answers 409 for the raffle’s state and 422 for an order that does not fit', () => {
      expect(refusalStatus('RAFFLE_CLOSED')).toBe(409);
      expect(refusalStatus('SOLD_OUT')).toBe(422);
      expect(refusalStatus('MAX_ENTRIES_REACHED')).toBe(422);
      expect(refusalDetail('SOLD_OUT', raffle())).toBe('There are not enough tickets left in this raffle.');
    });

    it('is closed when it is not running: from the end, off, archived, drawn or a draft', () => {
      for (const over of [
        { end_date: NOW },
        { active: false },
        { archived: true },
        { is_drawn: true },
        { draft: true },
      ])
        expect(refusalOf(raffle({ ...over, current_entries: 10 }), 1, NOW)).toBe('RAFFLE_CLOSED');
    });

    it('falls back to sold out when the tickets went between the refusal and the look', () => {
      expect(refusalOf(raffle({ current_entries: 0 }), 1, NOW)).toBe('SOLD_OUT');
    });
  });
});

describe('precheckEntry: a paid order judged before anything is written', () => {
  const capped = (max: number | null, over: Partial<Parameters<typeof refusalOf>[0]> = {}) => ({
    ...raffle(over),
    max_entries: max,
  });

  it('lets an order that fits through to the counter', () => {
    expect(precheckEntry(capped(null), 2, NOW)).toBeNull();
    expect(precheckEntry(capped(5), 2, NOW)).toBeNull();
  });

  it('refuses what no entrant may hold, what is not left, and a raffle that is not running', () => {
    expect(precheckEntry(capped(1), 2, NOW)).toBe('MAX_ENTRIES_REACHED');
    expect(precheckEntry(capped(null), 3, NOW)).toBe('SOLD_OUT');
    expect(precheckEntry(capped(null, { active: false }), 1, NOW)).toBe('RAFFLE_CLOSED');
    expect(precheckEntry(capped(null, { end_date: NOW }), 1, NOW)).toBe('RAFFLE_CLOSED');
    expect(precheckEntry(capped(null, { closed: true }), 1, NOW)).toBe('RAFFLE_CLOSED');
    expect(precheckEntry(capped(null, { closed: true, current_entries: 10 }), 1, NOW)).toBe('SOLD_OUT');
  });
});

describe('voidsEntryOnRefund: which refunds take an entry out of the draw', () => {
  it('voids the entry of a raffle payment refunded whole', () => {
    expect(voidsEntryOnRefund({ purpose: 'raffle', amount_cents: 1250, refunded_cents: 1250 })).toBe(true);
  });

  it('leaves the entry of a partial refund, and payments that bought no entry', () => {
    expect(voidsEntryOnRefund({ purpose: 'raffle', amount_cents: 1250, refunded_cents: 1249 })).toBe(false);
    expect(voidsEntryOnRefund({ purpose: 'merch', amount_cents: 1250, refunded_cents: 1250 })).toBe(false);
    expect(voidsEntryOnRefund({ purpose: 'raffle', amount_cents: 0, refunded_cents: 0 })).toBe(false);
  });
});
