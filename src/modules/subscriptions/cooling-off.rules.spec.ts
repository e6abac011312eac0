import { coolingOffRefund, creditsPaidFor, inCoolingOff } from './cooling-off.rules.js';

const NOW = new Date('2030-01-31T10:00:00.000Z');
const day = (n: number): Date => new Date(NOW.getTime() + n * 86_400_000);

describe('the cooling-off refund', () => {
  it('gives back the amount less the value of the credits spent', () => {
    expect(coolingOffRefund({ amountCents: 1000, creditsPerPeriod: 10, creditsUsed: 3 })).toEqual({
      refundCents: 700,
      spentValueCents: 300,
      arithmetic: '1000 − round(1000 × 3 / 10) = 1000 − 300 = 700',
    });
  });

  it('rounds the spent value half-up to the cent and never goes below zero', () => {
    expect(coolingOffRefund({ amountCents: 999, creditsPerPeriod: 4, creditsUsed: 1 }).refundCents).toBe(749);
    expect(coolingOffRefund({ amountCents: 1000, creditsPerPeriod: 3, creditsUsed: 3 }).refundCents).toBe(0);
    expect(coolingOffRefund({ amountCents: 1000, creditsPerPeriod: 3, creditsUsed: 9 }).refundCents).toBe(0);
  });

  it('refunds all of it when the period holds no credits', () => {
    expect(coolingOffRefund({ amountCents: 500, creditsPerPeriod: 0, creditsUsed: 0 })).toMatchObject({
      refundCents: 500,
      spentValueCents: 0,
    });
  });

  describe('prices credits by what the period’s payment bought', () => {
    const start = new Date('2030-06-01T00:00:00Z');
    const upgraded = (at: string, from: number, to: number) => ({
      event: 'upgraded',
      at,
      from: { tier: 'Basic', amount_cents: 1000, credits: from },
      to: { tier: 'Plus', amount_cents: 2000, credits: to },
    });
    const period = (history: unknown[], credits: number) => ({
      payment_asked_at: start,
      entry_credits_per_period: credits,
      metadata: { history },
    });

    it('is the credits per period with no upgrade in the period', () => {
      expect(creditsPaidFor(period([{ event: 'renewed', at: '2030-06-01T00:00:00Z' }], 10))).toBe(10);
      expect(creditsPaidFor({ ...period([], 10), metadata: {} })).toBe(10);
    });

    it('is what the first upgrade in the period changed from, whether it granted credits or took them', () => {
      expect(creditsPaidFor(period([upgraded('2030-06-03T00:00:00Z', 10, 30)], 30))).toBe(10);
      expect(creditsPaidFor(period([upgraded('2030-06-03T00:00:00Z', 10, 4)], 4))).toBe(10);
      expect(
        creditsPaidFor(
          period([upgraded('2030-06-03T00:00:00Z', 10, 20), upgraded('2030-06-05T00:00:00Z', 20, 30)], 30),
        ),
      ).toBe(10);
    });

    it('leaves out an upgrade of an earlier period: the renewal after it paid for the new credits', () => {
      expect(creditsPaidFor(period([upgraded('2030-05-20T00:00:00Z', 10, 30)], 30))).toBe(30);
    });

    it('leaves out an upgrade before the payment was asked for, in the same period or not: it paid for them', () => {
      // The renewal retried after an upgrade while past due: the period began before the upgrade, its
      // payment was asked for after it, at the new price.
      const retried = {
        ...period([upgraded('2030-06-02T00:00:00Z', 5, 10)], 10),
        payment_asked_at: new Date('2030-06-03T00:00:00Z'),
      };
      expect(creditsPaidFor(retried)).toBe(10);
      expect(creditsPaidFor({ ...retried, payment_asked_at: null })).toBe(5);
    });
  });

  it('knows when the window is open', () => {
    expect(inCoolingOff(day(1), NOW)).toBe(true);
    expect(inCoolingOff(NOW, NOW)).toBe(false);
    expect(inCoolingOff(null, NOW)).toBe(false);
  });
});
