import {
  lifetimeDelta,
  minorUnitDigits,
  planReversal,
  MAX_BALANCE,
  paymentPoints,
  pointsForPayment,
  pointsPerUnit,
  reversalReason,
  rewardsRules,
  discountClaimBonus,
  nextBonuses,
  reversalTarget,
} from './rewards.rules.js';

describe('points earned by a payment', () => {
  it('gives one point per whole currency unit, dropping the pence', () => {
    expect(pointsForPayment(1299, 'GBP', {})).toBe(12);
    expect(pointsForPayment(1300, 'gbp', {})).toBe(13);
    expect(pointsForPayment(99, 'GBP', {})).toBe(0);
  });

  it('knows currencies without minor units and with three', () => {
    expect(minorUnitDigits('JPY')).toBe(0);
    expect(minorUnitDigits('BHD')).toBe(3);
    expect(minorUnitDigits('not-a-currency')).toBe(2);
    expect(pointsForPayment(1500, 'JPY', {})).toBe(1500);
    expect(pointsForPayment(12_345, 'BHD', {})).toBe(12);
  });

  it('counts whole units as the payment is charged (ISO 4217), not as they are usually displayed', () => {
    // Intl shows forints, rupiahs and pesos without decimals, but the gateways charge them in hundredths.
    expect(pointsForPayment(100_000, 'HUF', {})).toBe(1000);
    expect(pointsForPayment(100_000, 'IDR', {})).toBe(1000);
    expect(pointsForPayment(100_000, 'COP', {})).toBe(1000);
    expect(pointsForPayment(100_000, 'PKR', {})).toBe(1000);
  });

  it('follows the site’s points_per_unit, rounding down', () => {
    expect(pointsForPayment(1300, 'GBP', { rewards: { points_per_unit: 0.5 } })).toBe(6);
    expect(pointsForPayment(1300, 'GBP', { rewards: { points_per_unit: 2 } })).toBe(26);
    expect(pointsForPayment(10_000, 'GBP', { rewards: { points_per_unit: 0.29 } })).toBe(29);
    expect(pointsForPayment(1300, 'GBP', { rewards: { points_per_unit: 0 } })).toBe(0);
  });

  it('ignores an unusable setting and earns nothing for nothing paid', () => {
    expect(pointsPerUnit({ rewards: { points_per_unit: -1 } })).toBe(1);
    expect(pointsPerUnit({ rewards: { points_per_unit: '3' } })).toBe(1);
    expect(pointsPerUnit({ rewards: 'x' })).toBe(1);
    expect(pointsPerUnit(null)).toBe(1);
    expect(pointsForPayment(0, 'GBP', {})).toBe(0);
    expect(pointsForPayment(-500, 'GBP', {})).toBe(0);
    expect(pointsForPayment(Number.NaN, 'GBP', {})).toBe(0);
  });
});

describe('points taken back when a payment is refunded', () => {
  it('takes all of them back at a full refund and a pro-rata share, rounded down, at a partial one', () => {
    expect(reversalTarget(15, 1)).toBe(15);
    expect(reversalTarget(15, 0.3)).toBe(4);
    expect(reversalTarget(100, 0.29)).toBe(29);
    expect(reversalTarget(15, { refundedCents: 450, totalCents: 1500 })).toBe(4);
    expect(reversalTarget(15, { refundedCents: 1500, totalCents: 1500 })).toBe(15);
    expect(reversalTarget(15, 1.5)).toBe(15);
    expect(reversalTarget(15, { refundedCents: 2000, totalCents: 1500 })).toBe(15);
  });

  it('treats the share as cumulative, so two partial refunds add up to the whole and a repeat does nothing', () => {
    const first = planReversal(15, 0.3, 0, 100);
    expect(first).toEqual({ due: 4, take: 4, shortfall: 0 });
    const second = planReversal(15, 1, first.due, 100);
    expect(second).toEqual({ due: 11, take: 11, shortfall: 0 });
    expect(planReversal(15, 1, first.due + second.due, 100)).toEqual({ due: 0, take: 0, shortfall: 0 });
  });

  it('never takes the balance below zero and records what was already spent', () => {
    expect(planReversal(15, 1, 0, 6)).toEqual({ due: 15, take: 6, shortfall: 9 });
    expect(planReversal(15, 1, 0, 0)).toEqual({ due: 15, take: 0, shortfall: 15 });
    expect(reversalReason('Refund', { due: 15, take: 6, shortfall: 9 })).toBe(
      'Refund (15 points due, 9 already spent; 6 taken back)',
    );
    expect(reversalReason('Refund', { due: 15, take: 15, shortfall: 0 })).toBe('Refund');
    expect(reversalReason('x'.repeat(600), { due: 2, take: 1, shortfall: 1 })).toHaveLength(500);
  });

  it('refuses a nonsensical share, which is a caller’s bug', () => {
    expect(() => reversalTarget(10, -0.1)).toThrow(RangeError);
    expect(() => reversalTarget(10, Number.NaN)).toThrow(RangeError);
    expect(() => reversalTarget(10, { refundedCents: 1, totalCents: 0 })).toThrow(RangeError);
    expect(() => reversalTarget(10, { refundedCents: 1.5, totalCents: 10 })).toThrow(RangeError);
  });
});

describe('lifetime points earned', () => {
  it('counts earnings, bonuses and positive adjustments, and removes reversals', () => {
    expect(lifetimeDelta('earn', 10)).toBe(10);
    expect(lifetimeDelta('bonus', 25)).toBe(25);
    expect(lifetimeDelta('adjustment', 5)).toBe(5);
    expect(lifetimeDelta('adjustment', -5)).toBe(0);
    expect(lifetimeDelta('reversal', -4)).toBe(-4);
    expect(lifetimeDelta('spend', -30)).toBe(0);
    expect(lifetimeDelta('refund', 30)).toBe(0);
  });
});

describe('paymentPoints: the one place a payment’s points are decided', () => {
  const site = rewardsRules({});
  it('earns the site rate on whole units paid, rounded down', () => {
    expect(paymentPoints({ amountCents: 1299, currency: 'GBP', rules: site })).toBe(12);
    expect(
      paymentPoints({
        amountCents: 1300,
        currency: 'GBP',
        rules: rewardsRules({ rewards: { points_per_unit: 0.5 } }),
      }),
    ).toBe(6);
  });
  it('multiplies by a raffle’s points_multiplier after the site rate, rounding down once more', () => {
    expect(paymentPoints({ amountCents: 1299, currency: 'GBP', rules: site, multiplier: 1.5 })).toBe(18);
    expect(paymentPoints({ amountCents: 250, currency: 'GBP', rules: site, multiplier: 2 })).toBe(4);
    expect(paymentPoints({ amountCents: 500, currency: 'GBP', rules: site, multiplier: 0.29 })).toBe(1);
  });
  it('treats a missing multiplier as 1, a zero one as no points, and earns nothing for nothing', () => {
    expect(paymentPoints({ amountCents: 1000, currency: 'GBP', rules: site, multiplier: null })).toBe(10);
    expect(paymentPoints({ amountCents: 1000, currency: 'GBP', rules: site, multiplier: undefined })).toBe(
      10,
    );
    expect(paymentPoints({ amountCents: 1000, currency: 'GBP', rules: site, multiplier: 0 })).toBe(0);
    expect(paymentPoints({ amountCents: 1000, currency: 'GBP', rules: site, multiplier: -2 })).toBe(0);
    expect(paymentPoints({ amountCents: 0, currency: 'GBP', rules: site, multiplier: 3 })).toBe(0);
  });
  it('never earns more than a balance can hold', () => {
    expect(paymentPoints({ amountCents: 3_000_000, currency: 'JPY', rules: site, multiplier: 1000 })).toBe(
      MAX_BALANCE,
    );
  });
});

describe('rewards rules beyond earning', () => {
  const rules = rewardsRules({});

  it('has DESIGN §6 defaults, overridable per site', () => {
    expect(rules).toMatchObject({
      referralSignupPoints: 50,
      referralPurchasePoints: 200,
      discountBonusEvery: 5,
      discountBonusPoints: 25,
    });
    expect(rewardsRules({ rewards: { discount_bonus_every: 3, referral_signup_points: 0 } })).toMatchObject({
      discountBonusEvery: 3,
      referralSignupPoints: 0,
    });
    expect(rewardsRules({ rewards: { discount_bonus_every: 0 } }).discountBonusEvery).toBe(5);
  });

  it('pays the claim bonus on every 5th claim', () => {
    expect([1, 4, 5, 6, 10].map((n) => discountClaimBonus(n, rules))).toEqual([0, 0, 25, 0, 25]);
  });

  it('derives the next bonuses', () => {
    expect(
      nextBonuses(
        { streakMonths: 4, milestonesAwarded: { '3': true }, discountClaims: 7, successfulReferrals: 2 },
        rules,
      ),
    ).toEqual({
      next_milestone_at: 6,
      next_loyalty_bonus_amount: 250,
      next_discount_bonus_at: 10,
      next_referral_bonus_at: 3,
    });
    expect(
      nextBonuses(
        { streakMonths: 30, milestonesAwarded: {}, discountClaims: 5, successfulReferrals: 0 },
        rules,
      ),
    ).toMatchObject({ next_milestone_at: null, next_loyalty_bonus_amount: 0, next_discount_bonus_at: 10 });
  });
});
