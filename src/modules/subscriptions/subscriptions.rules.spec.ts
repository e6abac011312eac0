import { rewardsRules } from '#app/modules/rewards/rewards.rules.js';
import {
  addPeriod,
  cancelRefusal,
  graceOver,
  upgradeRefusal,
  milestonesDue,
  monthsOf,
  nextRetryAt,
  reminderDays,
  creditsOpen,
  renewedDates,
  resumedState,
  startDates,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  subscriptionFlags,
  trialDaysFor,
} from './subscriptions.rules.js';

const NOW = new Date('2030-01-31T10:00:00.000Z');
const day = (n: number): Date => new Date(NOW.getTime() + n * 86_400_000);

describe('subscriptionFlags (DESIGN §5)', () => {
  const flags = (status: SubscriptionStatus, trialEnd: Date | null = null) =>
    subscriptionFlags(
      {
        status,
        trial_end_date: trialEnd,
        entry_credits_per_period: 10,
        credits_used_this_period: 3,
        current_period_end: day(10),
        past_due_since: status === 'past_due' ? day(-2) : null,
      },
      NOW,
    );

  it.each(SUBSCRIPTION_STATUSES)('derives every flag for %s', (status) => {
    const f = flags(status, day(1));
    const active = ['trialing', 'active', 'past_due', 'pending_cancellation'].includes(status);
    expect(f).toEqual({
      is_active: active,
      is_cancelled: status === 'pending_cancellation' || status === 'cancelled',
      is_in_trial: status === 'trialing',
      is_trial_active: status === 'trialing',
      is_paused: status === 'paused',
      can_be_cancelled: ['trialing', 'active', 'past_due', 'paused'].includes(status),
      available_credits: active ? 7 : 0,
    });
  });

  it('knows a trial whose end has passed is no longer active, though still trialing', () => {
    expect(flags('trialing', day(-1))).toMatchObject({ is_in_trial: true, is_trial_active: false });
    expect(flags('trialing', null)).toMatchObject({ is_trial_active: false });
  });

  it('never answers negative credits', () => {
    const f = subscriptionFlags(
      {
        status: 'active',
        trial_end_date: null,
        entry_credits_per_period: 2,
        credits_used_this_period: 5,
        current_period_end: day(10),
        past_due_since: null,
      },
      NOW,
    );
    expect(f.available_credits).toBe(0);
  });
});

describe('creditsOpen: credits end when the membership does, not when the job next runs', () => {
  const at = (
    status: SubscriptionStatus,
    over: { current_period_end?: Date | null; past_due_since?: Date | null } = {},
  ) => creditsOpen({ status, current_period_end: day(10), past_due_since: null, ...over }, NOW);

  it('closes a cancellation at its period’s end, to the instant', () => {
    expect(at('pending_cancellation')).toBe(true);
    expect(at('pending_cancellation', { current_period_end: new Date(NOW.getTime() + 1) })).toBe(true);
    expect(at('pending_cancellation', { current_period_end: NOW })).toBe(false);
    expect(at('pending_cancellation', { current_period_end: day(-1) })).toBe(false);
  });

  it('closes a past-due membership when its 7-day grace is over', () => {
    expect(at('past_due', { past_due_since: day(-6) })).toBe(true);
    expect(at('past_due', { past_due_since: day(-7) })).toBe(false);
  });

  it('keeps the other granting statuses open and the rest closed', () => {
    expect(at('active', { current_period_end: day(-1) })).toBe(true); // renewed by the hourly run
    expect(at('trialing')).toBe(true);
    for (const status of ['paused', 'cancelled', 'expired', 'incomplete', 'incomplete_expired'] as const)
      expect(at(status)).toBe(false);
  });
});

describe('trials', () => {
  it('gives the tier’s trial to a member whose membership of the site never started', () => {
    expect(trialDaysFor(7, false)).toBe(7);
  });
  it('gives none to a member who has had one start there, and none where the tier has none', () => {
    expect(trialDaysFor(7, true)).toBe(0);
    expect(trialDaysFor(0, false)).toBe(0);
  });
});

describe('period dates', () => {
  it('adds calendar months, clamping to the end of a shorter month', () => {
    expect(addPeriod(NOW, 'month').toISOString()).toBe('2030-02-28T10:00:00.000Z');
    expect(addPeriod(new Date('2032-01-31T00:00:00Z'), 'month').toISOString()).toBe(
      '2032-02-29T00:00:00.000Z',
    );
    expect(addPeriod(new Date('2030-03-15T08:30:00Z'), 'month', 10).toISOString()).toBe(
      '2031-01-15T08:30:00.000Z',
    );
    expect(addPeriod(new Date('2032-02-29T00:00:00Z'), 'year').toISOString()).toBe(
      '2033-02-28T00:00:00.000Z',
    );
  });

  it('starts a paid subscription active for a period, a trial trialing for its days, both with 14 days to cool off', () => {
    const paid = startDates(NOW, 'month', 0);
    expect(paid).toMatchObject({
      status: 'active',
      trial_start_date: null,
      trial_end_date: null,
      current_period_start: NOW,
    });
    expect(paid.current_period_end.toISOString()).toBe('2030-02-28T10:00:00.000Z');
    expect(paid.next_billing_date).toEqual(paid.current_period_end);
    expect(paid.cooling_off_expiry).toEqual(day(14));
    const trial = startDates(NOW, 'month', 7);
    expect(trial).toMatchObject({ status: 'trialing', trial_start_date: NOW, trial_end_date: day(7) });
    expect(trial.next_billing_date).toEqual(day(7));
  });

  it('renews from where the last period ended, with a new cooling-off window from now', () => {
    const late = day(3);
    const next = renewedDates(
      { start: new Date('2030-01-28T10:00:00Z'), end: new Date('2030-02-28T10:00:00Z') },
      'month',
      late,
    );
    expect(next.current_period_start.toISOString()).toBe('2030-02-28T10:00:00.000Z');
    expect(next.current_period_end.toISOString()).toBe('2030-03-28T10:00:00.000Z');
    expect(next.cooling_off_expiry).toEqual(new Date(late.getTime() + 14 * 86_400_000));
  });

  it('keeps the billing day through a shorter month: 31 January, 28 February, 31 March, 30 April, 31 May', () => {
    const at = (iso: string) => new Date(`${iso}T12:00:00.000Z`);
    let period = { start: at('2025-01-31'), end: at('2025-02-28') };
    const ends: string[] = [];
    for (let i = 0; i < 4; i++) {
      const next = renewedDates(period, 'month', period.end);
      ends.push(next.current_period_end.toISOString().slice(0, 10));
      period = { start: next.current_period_start, end: next.current_period_end };
    }
    expect(ends).toEqual(['2025-03-31', '2025-04-30', '2025-05-31', '2025-06-30']);
    // A year begun on 29 February renews on 28 February in the years between. Looking one period back, the
    // 29th is not found again four years on (that would need the day stored): 28 February it stays.
    const leap = renewedDates({ start: at('2028-02-29'), end: at('2029-02-28') }, 'year', at('2029-02-28'));
    expect(leap.current_period_end.toISOString().slice(0, 10)).toBe('2030-02-28');
  });

  it('takes the day from the end of a period that was not a whole one (a trial, a pause)', () => {
    const trialEnd = new Date('2030-02-07T10:00:00.000Z');
    const afterTrial = renewedDates(
      { start: new Date('2030-01-31T10:00:00.000Z'), end: trialEnd },
      'month',
      trialEnd,
    );
    expect(afterTrial.current_period_end.toISOString()).toBe('2030-03-07T10:00:00.000Z');
    const paused = renewedDates({ start: day(-30), end: day(5) }, 'month', NOW); // lengthened by a pause
    expect(paused.current_period_start).toEqual(day(5));
    expect(paused.current_period_end).toEqual(addPeriod(day(5), 'month'));
  });

  it('starts the period now when the one after the old end would be over already (renewals that did not run)', () => {
    const overdue = renewedDates({ start: day(-111), end: day(-80) }, 'month', NOW);
    expect(overdue.current_period_start).toEqual(NOW);
    expect(overdue.current_period_end).toEqual(new Date('2030-02-28T10:00:00.000Z'));
    // A period still running when paid (a dunning retry within the grace) keeps to the old end.
    const retried = renewedDates({ start: addPeriod(day(-5), 'month', -1), end: day(-5) }, 'month', NOW);
    expect(retried.current_period_start).toEqual(day(-5));
  });

  it('extends the period by the length of a pause and resumes an active membership active', () => {
    const s = {
      current_period_end: day(10),
      next_billing_date: day(10),
      trial_end_date: day(-20),
      paused_from: 'active' as const,
    };
    expect(resumedState(s, day(2), day(7))).toEqual({
      status: 'active',
      current_period_end: day(15),
      next_billing_date: day(15),
      trial_end_date: day(-20),
    });
  });

  it('resumes a paused trial as a trial, its end moved by the pause as the billing date is', () => {
    const s = {
      current_period_end: day(10),
      next_billing_date: day(10),
      trial_end_date: day(10),
      paused_from: 'trialing' as const,
    };
    expect(resumedState(s, day(2), day(7))).toEqual({
      status: 'trialing',
      current_period_end: day(15),
      next_billing_date: day(15),
      trial_end_date: day(15),
    });
  });

  it('resumes a pause recorded before its status was kept as active', () => {
    const s = {
      current_period_end: day(10),
      next_billing_date: day(10),
      trial_end_date: null,
      paused_from: null,
    };
    expect(resumedState(s, day(2), day(7)).status).toBe('active');
  });
});

describe('dunning', () => {
  it('retries 1, 3 and 5 days after the first failure, then gives up', () => {
    expect(nextRetryAt(NOW, 1)).toEqual(day(1));
    expect(nextRetryAt(NOW, 2)).toEqual(day(3));
    expect(nextRetryAt(NOW, 3)).toEqual(day(5));
    expect(nextRetryAt(NOW, 4)).toBeNull();
  });

  it('ends the grace seven days after the first failure', () => {
    expect(graceOver(NOW, day(6.99))).toBe(false);
    expect(graceOver(NOW, day(7))).toBe(true);
  });
});

describe('loyalty milestones', () => {
  const site = rewardsRules({}).milestones;
  it('awards each milestone reached once', () => {
    expect(milestonesDue(3, {}, site)).toEqual([{ months: 3, points: 100 }]);
    expect(milestonesDue(6, { '3': true }, site)).toEqual([{ months: 6, points: 250 }]);
    expect(milestonesDue(12, {}, site)).toHaveLength(3);
    expect(milestonesDue(12, { '3': true, '6': true, '12': true }, site)).toEqual([]);
    expect(milestonesDue(2, {}, site)).toEqual([]);
  });

  it('takes a site’s own milestones, and the defaults when they are not usable', () => {
    const own = rewardsRules({ rewards: { milestones: [{ months: 2, points: 20 }] } }).milestones;
    expect(milestonesDue(2, {}, own)).toEqual([{ months: 2, points: 20 }]);
    expect(rewardsRules({ rewards: { milestones: [{ months: 0, points: 20 }] } }).milestones).toEqual(site);
  });

  it('counts a yearly renewal as twelve months', () => {
    expect(monthsOf('year')).toBe(12);
    expect(monthsOf('month')).toBe(1);
  });
});

describe('changes', () => {
  it('only a dearer tier, in the same currency and billed as often, is an upgrade', () => {
    const current = {
      tier_id: 'bronze',
      amount_cents: 1000,
      currency: 'GBP',
      billing_interval: 'month' as const,
    };
    const tier = {
      id: 'silver',
      name: 'Silver',
      amount_cents: 1500,
      currency: 'GBP',
      billing_interval: 'month' as const,
    };
    expect(upgradeRefusal(current, tier)).toBeNull();
    expect(upgradeRefusal(current, { ...tier, amount_cents: 1000 })).toMatch(/does not cost more/);
    expect(upgradeRefusal(current, { ...tier, amount_cents: 500 })).toMatch(/does not cost more/);
    expect(upgradeRefusal(current, { ...tier, id: 'bronze' })).toMatch(/current tier/);
    // Not comparable: another currency, or another billing interval (£100 a year is not more than £10 a month).
    expect(upgradeRefusal(current, { ...tier, currency: 'JPY', amount_cents: 1500 })).toMatch(
      /priced in JPY/,
    );
    expect(upgradeRefusal(current, { ...tier, billing_interval: 'year', amount_cents: 10000 })).toMatch(
      /billed every year/,
    );
  });

  it('refuses to cancel what is over, and to end again what is already ending', () => {
    expect(cancelRefusal('cancelled', true)).toBe('ALREADY_CANCELLED');
    expect(cancelRefusal('expired', false)).toBe('ALREADY_CANCELLED');
    expect(cancelRefusal('pending_cancellation', false)).toBe('ALREADY_ENDING');
    expect(cancelRefusal('pending_cancellation', true)).toBeNull();
    expect(cancelRefusal('active', false)).toBeNull();
    expect(cancelRefusal('paused', true)).toBeNull();
  });

  it('reads the reminder lead time from the site, within reason', () => {
    expect(reminderDays({})).toBe(7);
    expect(reminderDays({ subscriptions: { reminder_days: 3 } })).toBe(3);
    expect(reminderDays({ subscriptions: { reminder_days: -1 } })).toBe(7);
    expect(reminderDays({ subscriptions: { reminder_days: 'x' } })).toBe(7);
  });
});
