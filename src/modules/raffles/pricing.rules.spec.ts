import type { DiscountTier, Upsell } from './entities/raffle.entity.js';
import {
  bestTier,
  chosenSize,
  matchUpsells,
  normalizeUpsells,
  type PricedRaffle,
  priceOrder,
  PricingError,
  upsellSavingCents,
  type ChosenUpsell,
} from './pricing.rules.js';

const bundle = (quantity: number, percentage: number): Upsell => ({
  quantity,
  qty: quantity,
  percentage,
  discount: 0,
});

function raffle(over: Partial<PricedRaffle> = {}): PricedRaffle {
  return { price_cents: 250, currency: 'GBP', discount_tiers: [], upsells: [], ...over };
}

function pricingError(fn: () => unknown): PricingError {
  try {
    fn();
  } catch (error) {
    if (error instanceof PricingError) return error;
    throw error;
  }
  throw new Error('expected a PricingError');
}

describe('bestTier', () => {
  const tiers: DiscountTier[] = [
    { discount: 10, min_quantity: 5 },
    { discount: 20, min_quantity: 10 },
  ];

  it.each([
    [1, null],
    [4, null],
    [5, 10],
    [9, 10],
    [10, 20],
    [500, 20],
  ])('for %p tickets applies %p %% off', (quantity, discount) => {
    expect(bestTier(tiers, quantity)?.discount ?? null).toBe(discount);
  });

  it('takes the largest discount, not the largest threshold', () => {
    const odd = [
      { discount: 20, min_quantity: 5 },
      { discount: 15, min_quantity: 10 },
    ];
    expect(bestTier(odd, 12)).toEqual({ discount: 20, min_quantity: 5 });
  });

  it('takes the first of equal discounts and nothing from an empty list', () => {
    const a = { discount: 10, min_quantity: 3 };
    const b = { discount: 10, min_quantity: 2 };
    expect(bestTier([a, b], 5)).toBe(a);
    expect(bestTier([], 5)).toBeNull();
  });
});

describe('priceOrder', () => {
  it('prices single tickets at the unit price without tiers', () => {
    expect(priceOrder(raffle(), 3)).toEqual({
      currency: 'GBP',
      unit_cents: 250,
      quantity: 3,
      tier: null,
      upsells: [],
      tickets: 3,
      gross_cents: 750,
      amount_cents: 750,
      discount_cents: 0,
    });
  });

  it('applies a tier from exactly its min_quantity, not one ticket before', () => {
    const r = raffle({ price_cents: 200, discount_tiers: [{ discount: 10, min_quantity: 5 }] });
    expect(priceOrder(r, 4).amount_cents).toBe(800);
    expect(priceOrder(r, 5)).toMatchObject({ amount_cents: 900, discount_cents: 100, gross_cents: 1000 });
  });

  it('adds a chosen bundle at its own percentage and counts its tickets', () => {
    const r = raffle({ price_cents: 100, upsells: [bundle(10, 25)] });
    expect(priceOrder(r, 2, [{ quantity: 10 }])).toMatchObject({
      tickets: 12,
      gross_cents: 1200,
      amount_cents: 200 + 750,
      discount_cents: 250,
    });
  });

  it('never applies a tier to bundle tickets, nor counts them towards one', () => {
    const r = raffle({
      price_cents: 100,
      discount_tiers: [{ discount: 50, min_quantity: 5 }],
      upsells: [bundle(10, 10)],
    });
    expect(priceOrder(r, 1, [{ quantity: 10 }]).amount_cents).toBe(100 + 900);
    expect(priceOrder(r, 0, [{ quantity: 10 }])).toMatchObject({
      amount_cents: 900,
      tier: null,
      tickets: 10,
    });
    expect(priceOrder(r, 5, [{ quantity: 10 }]).amount_cents).toBe(250 + 900);
  });

  it('rounds half-up once on the total, not per line', () => {
    // 5 × 1.99 at 10 % off = 8.955; 10 × 1.99 at 25 % off = 14.925; per line 8.96 + 14.93 = 23.89.
    const r = raffle({
      price_cents: 199,
      discount_tiers: [{ discount: 10, min_quantity: 5 }],
      upsells: [bundle(10, 25)],
    });
    expect(priceOrder(r, 5, [{ quantity: 10 }]).amount_cents).toBe(2388);
  });

  it.each([
    [5, 1, 10, 5], // 4.5 → 5
    [5, 1, 30, 4], // 3.5 → 4
    [1, 1, 50, 1], // 0.5 → 1
    [333, 1, 12.5, 291], // 291.375 → 291
    [333, 1, 12.3456, 292], // 291.88915… → 292
    [300, 1, 33.3333, 200], // 200.0001 → 200
    [999, 3, 100, 0],
    [999, 3, 0, 2997],
  ])('prices %p cents × %p at %p %% off as %p cents', (price, quantity, discount, amount) => {
    const r = raffle({ price_cents: price, discount_tiers: [{ discount, min_quantity: 1 }] });
    expect(priceOrder(r, quantity).amount_cents).toBe(amount);
  });

  it('stays exact where floating point would not (0.1 + 0.2)', () => {
    const r = raffle({ price_cents: 10, upsells: [bundle(1, 70), bundle(2, 40)] });
    // 10 × 0.3 + 20 × 0.6 = 3 + 12, both exact in decimals, 14.999… in doubles.
    expect(priceOrder(r, 0, [{ quantity: 1 }, { quantity: 2 }]).amount_cents).toBe(15);
  });

  it('handles the largest orders the limits allow without losing a cent', () => {
    const r = raffle({ price_cents: 100_000_000, discount_tiers: [{ discount: 0.0001, min_quantity: 1 }] });
    const price = priceOrder(r, 10_000_000);
    expect(price.gross_cents).toBe(1_000_000_000_000_000);
    expect(price.amount_cents).toBe(999_999_000_000_000);
    expect(Number.isSafeInteger(price.amount_cents)).toBe(true);
  });

  it('keeps amount + discount equal to the gross and within [0, gross]', () => {
    const r = raffle({
      price_cents: 137,
      discount_tiers: [
        { discount: 7.5, min_quantity: 3 },
        { discount: 13.25, min_quantity: 7 },
      ],
      upsells: [bundle(4, 11.1), bundle(9, 33.3333)],
    });
    const choices: ChosenUpsell[][] = [
      [],
      [{ quantity: 4 }],
      [{ quantity: 9 }],
      [{ quantity: 4 }, { qty: 9 }],
    ];
    for (let quantity = 0; quantity <= 20; quantity++)
      for (const chosen of choices) {
        if (quantity === 0 && chosen.length === 0) continue;
        const p = priceOrder(r, quantity, chosen);
        expect(p.amount_cents + p.discount_cents).toBe(p.gross_cents);
        expect(p.amount_cents).toBeGreaterThanOrEqual(0);
        expect(p.amount_cents).toBeLessThanOrEqual(p.gross_cents);
      }
  });

  it('refuses an empty order and a negative or fractional quantity (400)', () => {
    expect(pricingError(() => priceOrder(raffle(), 0))).toMatchObject({ status: 400, field: 'quantity' });
    expect(pricingError(() => priceOrder(raffle(), -1))).toMatchObject({ status: 400 });
    expect(pricingError(() => priceOrder(raffle(), 1.5))).toMatchObject({ status: 400 });
  });
});

describe('matchUpsells', () => {
  const offered = [bundle(5, 10), bundle(10, 20)];

  it('matches by quantity, by the qty alias, and by quantity with the same percentage', () => {
    expect(matchUpsells(offered, [{ quantity: 5 }])).toEqual([offered[0]]);
    expect(matchUpsells(offered, [{ qty: 10 }])).toEqual([offered[1]]);
    expect(matchUpsells(offered, [{ quantity: 10, qty: 10, percentage: 20 }])).toEqual([offered[1]]);
  });

  it('refuses a bundle the raffle does not offer, or one with another percentage (422 UNKNOWN_UPSELL)', () => {
    expect(pricingError(() => matchUpsells(offered, [{ quantity: 7 }]))).toMatchObject({
      status: 422,
      code: 'UNKNOWN_UPSELL',
      field: 'upsells[0]',
    });
    expect(pricingError(() => matchUpsells(offered, [{ quantity: 5, percentage: 50 }]))).toMatchObject({
      code: 'UNKNOWN_UPSELL',
    });
    expect(pricingError(() => matchUpsells([], [{ quantity: 5 }]))).toMatchObject({ code: 'UNKNOWN_UPSELL' });
  });

  it('refuses the same bundle twice (422 UPSELL_REPEATED)', () => {
    expect(pricingError(() => matchUpsells(offered, [{ quantity: 5 }, { qty: 5 }]))).toMatchObject({
      status: 422,
      code: 'UPSELL_REPEATED',
      field: 'upsells[1]',
    });
  });

  it('refuses qty and quantity that disagree, and a choice with neither (400)', () => {
    expect(pricingError(() => matchUpsells(offered, [{ quantity: 5, qty: 10 }]))).toMatchObject({
      status: 400,
      code: 'UPSELL_QTY_MISMATCH',
    });
    expect(pricingError(() => chosenSize({}))).toMatchObject({ status: 400 });
    expect(pricingError(() => chosenSize({ quantity: 0 }))).toMatchObject({ status: 400 });
  });
});

describe('upsell savings', () => {
  it('computes the saving in cents, rounded half-up', () => {
    expect(upsellSavingCents(250, { quantity: 10, percentage: 20 })).toBe(500);
    expect(upsellSavingCents(199, { quantity: 5, percentage: 10 })).toBe(100); // 99.5 → 100
    expect(upsellSavingCents(199, { quantity: 1, percentage: 0 })).toBe(0);
  });

  it('stores bundles with qty mirroring quantity and the saving in major units', () => {
    expect(normalizeUpsells(250, 'GBP', [{ qty: 10, percentage: 20 }])).toEqual([
      { quantity: 10, qty: 10, percentage: 20, discount: 5 },
    ]);
    expect(normalizeUpsells(199, 'GBP', [{ quantity: 3, percentage: 15 }])).toEqual([
      { quantity: 3, qty: 3, percentage: 15, discount: 0.9 },
    ]);
  });
});
