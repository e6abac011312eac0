import { createHash } from 'node:crypto';
import {
  canJoin,
  closeRefusal,
  isRunning,
  newDrawSeed,
  orderFitRefusal,
  publishRefusal,
  raffleShapeErrors,
  seedCommitment,
  ticketsLeft,
  updateRefusal,
  type RaffleCounts,
  type RaffleFlags,
} from './raffles.rules.js';

const NOW = new Date('2030-06-15T12:00:00Z');
const at = (iso: string): Date => new Date(iso);

function running(over: Partial<RaffleFlags & RaffleCounts> = {}): RaffleFlags & RaffleCounts {
  return {
    active: true,
    draft: false,
    archived: false,
    closed: false,
    is_drawn: false,
    start_date: at('2030-06-01T00:00:00Z'),
    end_date: at('2030-07-01T00:00:00Z'),
    current_entries: 10,
    total_entries_available: 100,
    ...over,
  };
}

describe('is_active and can_join', () => {
  it('are true for a published, switched-on raffle inside its dates with tickets left', () => {
    expect(isRunning(running(), NOW)).toBe(true);
    expect(canJoin(running(), NOW)).toBe(true);
  });

  it.each([
    ['a draft', { draft: true }],
    ['switched off', { active: false }],
    ['archived', { archived: true }],
    ['closed', { closed: true }],
    ['drawn', { is_drawn: true }],
    ['not started', { start_date: at('2030-06-15T12:00:00.001Z') }],
    ['ended', { end_date: NOW }],
  ])('are false when %s', (_what, over) => {
    expect(isRunning(running(over), NOW)).toBe(false);
    expect(canJoin(running(over), NOW)).toBe(false);
  });

  it('include the start instant and exclude the end instant: [start_date, end_date)', () => {
    expect(isRunning(running({ start_date: NOW }), NOW)).toBe(true);
    expect(isRunning(running({ end_date: new Date(NOW.getTime() + 1) }), NOW)).toBe(true);
    expect(isRunning(running({ end_date: NOW }), NOW)).toBe(false);
  });

  it('differ when sold out: running, but nobody can join', () => {
    const soldOut = running({ current_entries: 100 });
    expect(isRunning(soldOut, NOW)).toBe(true);
    expect(canJoin(soldOut, NOW)).toBe(false);
    expect(ticketsLeft(soldOut)).toBe(0);
    expect(ticketsLeft(running({ current_entries: 101 }))).toBe(0);
  });
});

describe('raffleShapeErrors', () => {
  const shape = {
    start_date: at('2030-01-01T00:00:00Z'),
    end_date: at('2030-02-01T00:00:00Z'),
    max_entries: 10,
    total_entries_available: 100,
    upsells: [{ quantity: 5 }, { quantity: 10 }],
  };

  it('accepts a sound raffle, and max_entries equal to the total or absent', () => {
    expect(raffleShapeErrors(shape)).toEqual([]);
    expect(raffleShapeErrors({ ...shape, max_entries: 100 })).toEqual([]);
    expect(raffleShapeErrors({ ...shape, max_entries: null })).toEqual([]);
  });

  it('refuses an upsell nobody could buy: more tickets than max_entries, or than the raffle has', () => {
    expect(raffleShapeErrors({ ...shape, max_entries: 5, upsells: [{ quantity: 5 }] })).toEqual([]);
    expect(
      raffleShapeErrors({ ...shape, max_entries: 5, upsells: [{ quantity: 3 }, { quantity: 10 }] }),
    ).toEqual([
      {
        field: 'upsells',
        message: 'an upsell of 10 tickets is more than max_entries (5): nobody could buy it',
      },
    ]);
    expect(
      raffleShapeErrors({
        ...shape,
        total_entries_available: 10,
        max_entries: null,
        upsells: [{ quantity: 50 }],
      }),
    ).toEqual([
      {
        field: 'upsells',
        message: 'an upsell of 50 tickets is more than total_entries_available (10): nobody could buy it',
      },
    ]);
  });

  it('wants the end after the start, strictly', () => {
    expect(raffleShapeErrors({ ...shape, end_date: shape.start_date })).toEqual([
      { field: 'end_date', message: 'end_date must be after start_date' },
    ]);
  });

  it('refuses a per-user cap above the total and two bundles of one size, listing every error', () => {
    const errors = raffleShapeErrors({
      ...shape,
      max_entries: 101,
      upsells: [{ quantity: 5 }, { quantity: 5 }],
    });
    expect(errors.map((e) => e.field)).toEqual(['max_entries', 'upsells']);
  });

  it('refuses two instant-win lines of one prize (wins are counted by prize text)', () => {
    const twice = [
      { prize: 'A hoodie', count: 2 },
      { prize: 'A hoodie', count: 1 },
    ];
    expect(raffleShapeErrors({ ...shape, instant_wins: twice }).map((e) => e.field)).toEqual([
      'instant_wins',
    ]);
    expect(raffleShapeErrors({ ...shape, instant_wins: [twice[0], { prize: 'A mug', count: 1 }] })).toEqual(
      [],
    );
  });
});

describe('transitions', () => {
  it('refuses to publish instant wins needing more tickets than the raffle has', () => {
    const draft = { ...running({ draft: true }), total_entries_available: 5 };
    expect(publishRefusal({ ...draft, instant_wins: [{ prize: 'A', count: 5 }] }, NOW)).toBeNull();
    expect(
      publishRefusal(
        {
          ...draft,
          instant_wins: [
            { prize: 'A', count: 4 },
            { prize: 'B', count: 2 },
          ],
        },
        NOW,
      )?.code,
    ).toBe('INSTANT_WINS_EXCEED_TICKETS');
  });

  it('publishes only a draft whose end is still ahead', () => {
    expect(publishRefusal(running({ draft: true }), NOW)).toBeNull();
    expect(publishRefusal(running(), NOW)?.code).toBe('NOT_DRAFT');
    expect(publishRefusal(running({ draft: true, end_date: NOW }), NOW)).toMatchObject({
      status: 422,
      code: 'ENDS_IN_PAST',
    });
  });

  it('closes only a published raffle, once', () => {
    expect(closeRefusal(running())).toBeNull();
    expect(closeRefusal(running({ closed: true }))).toMatchObject({ status: 409, code: 'ALREADY_CLOSED' });
    expect(closeRefusal(running({ draft: true }))).toMatchObject({ status: 409, code: 'NOT_PUBLISHED' });
  });
});

describe('updateRefusal: a published raffle’s edits', () => {
  it('keeps a closed or drawn raffle’s selling fields final, counting only values that change', () => {
    const closed = {
      ...running({ closed: true }),
      total_entries_available: 5,
      upsells: [{ quantity: 2, b: 1 }],
    };
    expect(updateRefusal(closed, { total_entries_available: 10 }, NOW)).toMatchObject({
      status: 409,
      code: 'ALREADY_CLOSED',
    });
    expect(
      updateRefusal({ ...running({ is_drawn: true }), max_entries: null }, { max_entries: 3 }, NOW)?.code,
    ).toBe('ALREADY_CLOSED');
    // Sent back unchanged (a jsonb value comes back with its keys reordered), or text only: no refusal.
    expect(
      updateRefusal(closed, { total_entries_available: 5, upsells: [{ b: 1, quantity: 2 }] }, NOW),
    ).toBeNull();
    expect(updateRefusal(closed, {}, NOW)).toBeNull();
  });

  it('refuses to move a running raffle’s end into the past, and leaves drafts to publishing', () => {
    expect(updateRefusal(running(), { end_date: NOW }, NOW)).toMatchObject({
      status: 422,
      code: 'ENDS_IN_PAST',
    });
    expect(updateRefusal(running(), { end_date: new Date(NOW.getTime() + 60_000) }, NOW)).toBeNull();
    expect(updateRefusal(running({ draft: true }), { end_date: NOW }, NOW)).toBeNull();
  });
});

describe('orderFitRefusal', () => {
  const raffle = { current_entries: 90, total_entries_available: 100, max_entries: 8 };

  it('lets an order through up to the per-user cap and the tickets left', () => {
    expect(orderFitRefusal(raffle, 8)).toBeNull();
    expect(orderFitRefusal({ ...raffle, max_entries: null }, 10)).toBeNull();
  });

  it('refuses past either limit', () => {
    expect(orderFitRefusal(raffle, 9)?.code).toBe('MAX_ENTRIES_EXCEEDED');
    expect(orderFitRefusal({ ...raffle, max_entries: null }, 11)?.code).toBe('NOT_ENOUGH_TICKETS');
  });
});

describe('the draw seed commitment', () => {
  it('is the sha256 of the seed’s bytes, in hex', () => {
    const seed = '00'.repeat(31) + '01';
    expect(seedCommitment(seed)).toBe(createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex'));
  });

  it('draws 32 random bytes and commits to them', () => {
    const fixed = Buffer.alloc(32, 0xab);
    const { seed, hash } = newDrawSeed(() => fixed);
    expect(seed).toBe('ab'.repeat(32));
    expect(hash).toBe(seedCommitment(seed));
    const a = newDrawSeed();
    const b = newDrawSeed();
    expect(a.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(a.seed).not.toBe(b.seed);
  });
});

describe('updateRefusal: the announced beacon round', () => {
  it('may change while sales run, and not once they have ended, closed or not', () => {
    const open = { ...running(), draw_beacon_round: 'drand quicknet round 5' };
    expect(updateRefusal(open, { draw_beacon_round: 'drand quicknet round 6' }, NOW)).toBeNull();
    const ended = { ...open, end_date: new Date(NOW.getTime() - 1) };
    expect(updateRefusal(ended, { draw_beacon_round: 'drand quicknet round 6' }, NOW)).toMatchObject({
      status: 409,
      code: 'SALES_ENDED',
    });
    expect(updateRefusal(ended, { draw_beacon_round: 'drand quicknet round 5' }, NOW)).toBeNull();
  });
});
