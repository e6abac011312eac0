import { formatMoney } from '#app/common/money.js';
/**
 * The rules of memberships (DESIGN §5, §6) as plain functions: states and their flags, period dates,
 * the cooling-off refund, dunning, loyalty milestones, upgrades. No Nest, no database.
 */
import type { BillingInterval } from './entities/subscription-tier.entity.js';

export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'paused',
  'pending_cancellation',
  'cancelled',
  'expired',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const DAY = 24 * 60 * 60 * 1000;

/** Consumers may cancel with a refund for 14 days from the start and from each renewal (UK, 2024). */
export const COOLING_OFF_DAYS = 14;
/** An unpaid first checkout is given up after this long. */
export const INCOMPLETE_EXPIRES_MS = DAY;
/** A failed renewal is retried this many days after the first failure, then the subscription expires. */
export const DUNNING_RETRY_DAYS = [1, 3, 5] as const;
export const GRACE_DAYS = 7;
/** Renewal reminders go out this many days before a renewal unless the site says otherwise. */
export const DEFAULT_REMINDER_DAYS = 7;
/** The longest pause an admin may set. */
export const MAX_PAUSE_DAYS = 366;

/** The flags of DESIGN §5, derived from the status and dates alone. */
export interface SubscriptionFlags {
  is_active: boolean;
  is_cancelled: boolean;
  is_in_trial: boolean;
  is_trial_active: boolean;
  is_paused: boolean;
  can_be_cancelled: boolean;
  available_credits: number;
}

export function subscriptionFlags(
  s: {
    status: SubscriptionStatus;
    trial_end_date: Date | null;
    entry_credits_per_period: number;
    credits_used_this_period: number;
    current_period_end: Date | null;
    past_due_since: Date | null;
  },
  now: Date,
): SubscriptionFlags {
  const isActive = ['trialing', 'active', 'past_due', 'pending_cancellation'].includes(s.status);
  return {
    is_active: isActive,
    is_cancelled: s.status === 'pending_cancellation' || s.status === 'cancelled',
    is_in_trial: s.status === 'trialing',
    is_trial_active: s.status === 'trialing' && s.trial_end_date !== null && s.trial_end_date > now,
    is_paused: s.status === 'paused',
    can_be_cancelled: ['trialing', 'active', 'past_due', 'paused'].includes(s.status),
    available_credits: creditsOpen(s, now)
      ? Math.max(0, s.entry_credits_per_period - s.credits_used_this_period)
      : 0,
  };
}

/**
 * Whether a membership's credits may be spent at `now`: its status grants them (`CREDIT_STATUSES`), and it has
 * not passed the moment it ends. A cancellation runs "to `current_period_end`, then `cancelled`", and a past
 * due one to the end of its grace (DESIGN §5); the job that moves them runs every 15 minutes, and until it does
 * the status alone would still grant credits. `SubscriptionsRepository.takeCredits` holds the same in SQL.
 */
export function creditsOpen(
  s: { status: SubscriptionStatus; current_period_end: Date | null; past_due_since: Date | null },
  now: Date,
): boolean {
  if (!CREDIT_STATUSES.includes(s.status)) return false;
  if (s.status === 'pending_cancellation') return !s.current_period_end || s.current_period_end > now;
  if (s.status === 'past_due') return !s.past_due_since || !graceOver(s.past_due_since, now);
  return true;
}

/** Statuses whose credits may be spent (the same as `is_active`). */
export const CREDIT_STATUSES: readonly SubscriptionStatus[] = [
  'trialing',
  'active',
  'past_due',
  'pending_cancellation',
];

/**
 * The end of a period that starts at `start`: one calendar month or year later, clamped to the last day
 * of a shorter month (31 January + 1 month = 28/29 February), in UTC.
 */
export function addPeriod(start: Date, interval: BillingInterval, periods = 1): Date {
  const months = interval === 'year' ? 12 * periods : periods;
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(start.getUTCDate(), lastDay),
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
      start.getUTCMilliseconds(),
    ),
  );
}

export const addDays = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY);

/**
 * A tier's trial is for a member's first membership of the site: one who has had a membership start there
 * (a trial or paid, whatever became of it) pays from the first day. Else cancelling a trial and taking it
 * again would give every period's credits for nothing.
 */
export function trialDaysFor(tierTrialDays: number, startedBefore: boolean): number {
  return startedBefore ? 0 : tierTrialDays;
}

/** The dates a subscription gets when its first payment (or card registration) succeeds. */
export function startDates(
  now: Date,
  interval: BillingInterval,
  trialDays: number,
): {
  status: 'trialing' | 'active';
  subscription_start_date: Date;
  trial_start_date: Date | null;
  trial_end_date: Date | null;
  current_period_start: Date;
  current_period_end: Date;
  next_billing_date: Date;
  cooling_off_expiry: Date;
} {
  const trial = trialDays > 0;
  const periodEnd = trial ? addDays(now, trialDays) : addPeriod(now, interval);
  return {
    status: trial ? 'trialing' : 'active',
    subscription_start_date: now,
    trial_start_date: trial ? now : null,
    trial_end_date: trial ? periodEnd : null,
    current_period_start: now,
    current_period_end: periodEnd,
    next_billing_date: periodEnd,
    cooling_off_expiry: addDays(now, COOLING_OFF_DAYS),
  };
}

/**
 * A renewal (or a trial's first charge) paid: the next period runs from where the last one ended (not
 * from when a late retry succeeded), with a new cooling-off window from now.
 * - It keeps the member's billing day: after a whole period (one interval from its start), the next ends two
 *   intervals from that start, so 31 January → 28 February is followed by 28 February → 31 March, not by a
 *   period ending on the 28th for good. After a period of another length (a trial, one a pause lengthened), the
 *   day is its end's. A yearly period begun on 29 February (so ending on the 28th) is followed by years from
 *   the 28th, leap years too: the anchor day is not stored (DECISIONS).
 * - A period that would already be over when it is paid for (no renewal ran for longer than a period: jobs
 *   off, an outage) starts now instead: chained from the old end it would be due again at once, and the same
 *   run would charge the card once for every period missed, each giving credits for a period that had passed.
 */
export function renewedDates(
  period: { start: Date | null; end: Date },
  interval: BillingInterval,
  now: Date,
): {
  current_period_start: Date;
  current_period_end: Date;
  next_billing_date: Date;
  cooling_off_expiry: Date;
} {
  const { start: last, end: lastEnd } = period;
  const wasWhole = last !== null && addPeriod(last, interval).getTime() === lastEnd.getTime();
  const next = wasWhole ? addPeriod(last, interval, 2) : addPeriod(lastEnd, interval);
  const overdue = next <= now;
  const start = overdue ? now : lastEnd;
  const end = overdue ? addPeriod(now, interval) : next;
  return {
    current_period_start: start,
    current_period_end: end,
    next_billing_date: end,
    cooling_off_expiry: addDays(now, COOLING_OFF_DAYS),
  };
}

/**
 * After a failed charge: the next attempt, or null when the grace is over. `failures` counts the failed
 * charges of this period so far (1 after the first); retries come 1, 3 and 5 days after the first failure.
 */
export function nextRetryAt(firstFailure: Date, failures: number): Date | null {
  if (failures < 1 || failures > DUNNING_RETRY_DAYS.length) return null;
  return addDays(firstFailure, DUNNING_RETRY_DAYS[failures - 1]);
}

export function graceOver(firstFailure: Date, now: Date): boolean {
  return now >= addDays(firstFailure, GRACE_DAYS);
}

/**
 * The milestones (the site's, `rewardsRules(settings).milestones`) a streak of `streakMonths` reaches that
 * were not awarded before: each once.
 */
export function milestonesDue(
  streakMonths: number,
  awarded: Record<string, unknown>,
  milestones: ReadonlyArray<{ months: number; points: number }>,
): Array<{ months: number; points: number }> {
  return milestones.filter((m) => streakMonths >= m.months && !awarded[String(m.months)]);
}

/** Months a renewal adds to the streak: 12 for a yearly plan, 1 for a monthly one. */
export function monthsOf(interval: BillingInterval): number {
  return interval === 'year' ? 12 : 1;
}

/**
 * Why a move to `tier` is not an upgrade, or null when it is: another tier that costs more per period, in the
 * same currency and billed at the same interval. Amounts in two currencies cannot be compared, and a move
 * between monthly and yearly billing would change what the period already paid for buys (its length, its
 * credits): both are a cancellation and a new membership, not an upgrade.
 */
export function upgradeRefusal(
  current: { tier_id: string; amount_cents: number; currency: string; billing_interval: BillingInterval },
  tier: {
    id: string;
    name: string;
    amount_cents: number;
    currency: string;
    billing_interval: BillingInterval;
  },
): string | null {
  if (tier.id === current.tier_id) return `${tier.name} is the current tier.`;
  if (tier.currency !== current.currency)
    return `${tier.name} is priced in ${tier.currency}, the membership in ${current.currency}.`;
  if (tier.billing_interval !== current.billing_interval)
    return `${tier.name} is billed every ${tier.billing_interval}, the membership every ${current.billing_interval}.`;
  if (tier.amount_cents <= current.amount_cents)
    return `${tier.name} does not cost more than the current ${formatMoney(current.amount_cents, current.currency)} a period.`;
  return null;
}

/** Whether a subscription may be cancelled now: 409 for one already over (or already ending). */
export function cancelRefusal(
  status: SubscriptionStatus,
  immediate: boolean,
): 'ALREADY_CANCELLED' | 'ALREADY_ENDING' | null {
  if (status === 'cancelled' || status === 'expired' || status === 'incomplete_expired')
    return 'ALREADY_CANCELLED';
  if (status === 'pending_cancellation' && !immediate) return 'ALREADY_ENDING';
  return null;
}

/**
 * A resume: the membership gets back the status it was paused from (a trial stays a trial: nothing was
 * charged), and its period, next billing date and, for a trial, the trial's end move by the pause's length
 * (credits are not granted while paused). A pause recorded before its status was kept resumes `active`.
 */
export function resumedState(
  s: {
    current_period_end: Date;
    next_billing_date: Date;
    trial_end_date: Date | null;
    paused_from: SubscriptionStatus | null;
  },
  pausedAt: Date,
  resumedAt: Date,
): {
  status: 'active' | 'trialing';
  current_period_end: Date;
  next_billing_date: Date;
  trial_end_date: Date | null;
} {
  const paused = Math.max(0, resumedAt.getTime() - pausedAt.getTime());
  const trialing = s.paused_from === 'trialing';
  return {
    status: trialing ? 'trialing' : 'active',
    current_period_end: new Date(s.current_period_end.getTime() + paused),
    next_billing_date: new Date(s.next_billing_date.getTime() + paused),
    trial_end_date:
      trialing && s.trial_end_date ? new Date(s.trial_end_date.getTime() + paused) : s.trial_end_date,
  };
}

/** The renewal reminder's lead time from a site's `additional_settings.subscriptions.reminder_days`. */
export function reminderDays(settings: Record<string, unknown> | null | undefined): number {
  const section = settings?.subscriptions;
  const value =
    typeof section === 'object' && section !== null
      ? (section as Record<string, unknown>).reminder_days
      : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 60
    ? value
    : DEFAULT_REMINDER_DAYS;
}
