/**
 * Rules of the points ledger (DESIGN §6 "Points"), as plain functions: no Nest, no database.
 */

import { currencyExponent } from '#app/common/money.js';
import { INT4_MAX } from '#app/common/column-limits.js';

export const TRANSACTION_TYPES = ['earn', 'spend', 'refund', 'reversal', 'adjustment', 'bonus'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Longest `reason` a ledger entry keeps. */
export const REASON_MAX = 500;

/** The largest balance a rewards row can hold (a PostgreSQL `integer`): no spend above it can be covered. */
export const MAX_BALANCE = INT4_MAX;

/** Default earn rate: 1 point per whole currency unit paid (DESIGN §6). */
export const DEFAULT_POINTS_PER_UNIT = 1;

/** Guards `floor()` against binary-fraction drift (0.29 × 100 = 28.999…96) without ever rounding up a real fraction. */
const EPSILON = 1e-9;

/**
 * Digits after the decimal point of a currency's major unit as the payment is charged (ISO 4217: GBP 2,
 * JPY 0, BHD 3, HUF 2), so a whole unit is what the buyer paid; 2 for something that is not a code.
 */
export function minorUnitDigits(currency: string): number {
  try {
    return currencyExponent(currency);
  } catch {
    return 2;
  }
}

/** The site's `additional_settings.rewards.points_per_unit` when it is a usable number, else the default. */
export function pointsPerUnit(siteSettings: Record<string, unknown> | null | undefined): number {
  const rewards = siteSettings?.rewards;
  if (typeof rewards !== 'object' || rewards === null) return DEFAULT_POINTS_PER_UNIT;
  const value = (rewards as Record<string, unknown>).points_per_unit;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_POINTS_PER_UNIT;
}

/**
 * Points a payment earns: whole currency units paid (fractions dropped) times the site's rate, rounded
 * down. £12.99 → 12 points by default; ¥1500 → 1500; a rate of 0.5 makes £13 → 6.
 */
export function pointsForPayment(
  amountCents: number,
  currency: string,
  siteSettings: Record<string, unknown> | null | undefined,
): number {
  return paymentPoints({ amountCents, currency, rules: rewardsRules(siteSettings) });
}

/** A loyalty milestone: after `months` months' streak as a member, `points` once. */
export interface Milestone {
  months: number;
  points: number;
}

/** DESIGN §6: loyalty milestones at 3/6/12/24 streak months (+100/+250/+500/+1000). */
export const DEFAULT_MILESTONES: readonly Milestone[] = [
  { months: 3, points: 100 },
  { months: 6, points: 250 },
  { months: 12, points: 500 },
  { months: 24, points: 1000 },
];

/** A site's rules for earning points, from its `additional_settings.rewards` with DESIGN §6's defaults. */
export interface RewardsRules {
  pointsPerUnit: number;
  milestones: readonly Milestone[];
  /** Points the referrer gets when a referee signs up with its code, and at the referee's first payment. */
  referralSignupPoints: number;
  referralPurchasePoints: number;
  /** A bonus of `discountBonusPoints` every `discountBonusEvery` discount claims. */
  discountBonusEvery: number;
  discountBonusPoints: number;
}

/** DESIGN §6 defaults: referrer +50 at signup, +200 at the first payment; 25 points every 5 claims. */
export const DEFAULT_REFERRAL_SIGNUP_POINTS = 50;
export const DEFAULT_REFERRAL_PURCHASE_POINTS = 200;
export const DEFAULT_DISCOUNT_BONUS_EVERY = 5;
export const DEFAULT_DISCOUNT_BONUS_POINTS = 25;

export function rewardsRules(siteSettings: Record<string, unknown> | null | undefined): RewardsRules {
  const section = siteSettings?.rewards;
  const rewards = typeof section === 'object' && section !== null ? (section as Record<string, unknown>) : {};
  return {
    pointsPerUnit: pointsPerUnit(siteSettings),
    milestones: milestonesOf(siteSettings),
    referralSignupPoints: countSetting(rewards.referral_signup_points, DEFAULT_REFERRAL_SIGNUP_POINTS, 0),
    referralPurchasePoints: countSetting(
      rewards.referral_purchase_points,
      DEFAULT_REFERRAL_PURCHASE_POINTS,
      0,
    ),
    discountBonusEvery: countSetting(rewards.discount_bonus_every, DEFAULT_DISCOUNT_BONUS_EVERY, 1),
    discountBonusPoints: countSetting(rewards.discount_bonus_points, DEFAULT_DISCOUNT_BONUS_POINTS, 0),
  };
}

/** A whole number of at least `min` (and at most a million), else the default. */
function countSetting(value: unknown, fallback: number, min: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= 1_000_000
    ? value
    : fallback;
}

/** The bonus a discount claim earns: the rate's points when the user's `claimsCount`-th claim is a multiple. */
export function discountClaimBonus(claimsCount: number, rules: RewardsRules): number {
  return claimsCount > 0 && claimsCount % rules.discountBonusEvery === 0 ? rules.discountBonusPoints : 0;
}

/** What the rewards summary derives from the counters and the site's rules (spec: Rewards summary). */
export interface NextBonuses {
  /** Streak months at which the next loyalty milestone not yet awarded falls (null: none left). */
  next_milestone_at: number | null;
  /** Its points (0 when none is left). */
  next_loyalty_bonus_amount: number;
  /** The discount-claims count at which the next claim bonus is paid. */
  next_discount_bonus_at: number;
  /** The successful-referrals count at which the next purchase bonus is paid: every referral that buys earns one. */
  next_referral_bonus_at: number;
}

export function nextBonuses(
  facts: {
    streakMonths: number;
    milestonesAwarded: Record<string, unknown>;
    discountClaims: number;
    successfulReferrals: number;
  },
  rules: RewardsRules,
): NextBonuses {
  const next = rules.milestones.find(
    (m) => m.months > facts.streakMonths && !facts.milestonesAwarded[String(m.months)],
  );
  const every = rules.discountBonusEvery;
  return {
    next_milestone_at: next?.months ?? null,
    next_loyalty_bonus_amount: next?.points ?? 0,
    next_discount_bonus_at: (Math.floor(facts.discountClaims / every) + 1) * every,
    next_referral_bonus_at: facts.successfulReferrals + 1,
  };
}

/** `additional_settings.rewards.milestones` when it is a usable list (positive integers), else the defaults. */
function milestonesOf(siteSettings: Record<string, unknown> | null | undefined): readonly Milestone[] {
  const rewards = siteSettings?.rewards;
  const list =
    typeof rewards === 'object' && rewards !== null
      ? (rewards as Record<string, unknown>).milestones
      : undefined;
  if (!Array.isArray(list) || !list.length) return DEFAULT_MILESTONES;
  const valid = list.every(
    (m: unknown) =>
      typeof m === 'object' &&
      m !== null &&
      Number.isInteger((m as Milestone).months) &&
      (m as Milestone).months > 0 &&
      Number.isInteger((m as Milestone).points) &&
      (m as Milestone).points > 0,
  );
  return valid ? [...(list as Milestone[])].sort((a, b) => a.months - b.months) : DEFAULT_MILESTONES;
}

/**
 * The points a payment earns — decided here and nowhere else: whole currency units paid at the site's
 * rate, rounded down, then times a raffle's `points_multiplier` where the raffle has points enabled
 * (`multiplier`, null otherwise), rounded down again. £12.99 → 12; × 1.5 → 18; a rate of 0.5 → 6. Never more
 * than a balance can hold (`MAX_BALANCE`): a huge rate on a huge order must not stop the order being fulfilled.
 */
export function paymentPoints(input: {
  amountCents: number;
  currency: string;
  rules: RewardsRules;
  multiplier?: number | null;
}): number {
  if (!Number.isFinite(input.amountCents) || input.amountCents <= 0) return 0;
  const units = Math.floor(input.amountCents / 10 ** minorUnitDigits(input.currency));
  const base = Math.floor(units * input.rules.pointsPerUnit + EPSILON);
  // A raffle without a multiplier earns the base; one of 0 (the least an admin may set) earns nothing.
  const multiplier = input.multiplier == null ? 1 : Math.max(input.multiplier, 0);
  return Math.min(Math.floor(base * multiplier + EPSILON), MAX_BALANCE);
}

/** How much of a payment has been refunded in total: a share (0–1) or exact cents. */
export type RefundedShare = number | { refundedCents: number; totalCents: number };

/** Validates and clamps a refunded share to [0, 1]; throws on nonsense (a caller's bug, not a client's). */
function shareParts(share: RefundedShare): { num: number; den: number } | { ratio: number } {
  if (typeof share === 'number') {
    if (!Number.isFinite(share) || share < 0) throw new RangeError(`Invalid refunded fraction ${share}`);
    return { ratio: Math.min(share, 1) };
  }
  const { refundedCents, totalCents } = share;
  if (
    !Number.isInteger(refundedCents) ||
    !Number.isInteger(totalCents) ||
    totalCents <= 0 ||
    refundedCents < 0
  )
    throw new RangeError(`Invalid refunded share ${refundedCents}/${totalCents}`);
  return { num: Math.min(refundedCents, totalCents), den: totalCents };
}

/**
 * Points that should have been taken back once `share` of a payment that earned `earned` points has been
 * refunded in total: pro rata, rounded down, the whole amount at a full refund.
 */
export function reversalTarget(earned: number, share: RefundedShare): number {
  const parts = shareParts(share);
  if ('ratio' in parts) return Math.min(earned, Math.floor(earned * parts.ratio + EPSILON));
  return Math.floor((earned * parts.num) / parts.den);
}

/**
 * What a reversal does now. The share is cumulative, so repeating a call with the same share does
 * nothing, and points that were due but already spent (the shortfall) are forgiven, not carried as debt.
 */
export function planReversal(
  earned: number,
  share: RefundedShare,
  alreadyDue: number,
  balance: number,
): { due: number; take: number; shortfall: number } {
  const due = Math.max(0, reversalTarget(earned, share) - alreadyDue);
  const take = Math.min(due, Math.max(0, balance));
  return { due, take, shortfall: due - take };
}

/**
 * How an entry changes `lifetime_earned`: points earned, bonuses and positive admin adjustments count;
 * points taken back from refunded payments are removed; spending, refunds of spent points and
 * negative adjustments leave it alone.
 */
export function lifetimeDelta(type: TransactionType, amount: number): number {
  switch (type) {
    case 'earn':
    case 'bonus':
      return amount;
    case 'reversal':
      return amount;
    case 'adjustment':
      return amount > 0 ? amount : 0;
    default:
      return 0;
  }
}

/** The ledger entry's reason, telling the user when part of a reversal could not be taken back. */
export function reversalReason(
  reason: string,
  plan: { due: number; take: number; shortfall: number },
): string {
  if (!plan.shortfall) return reason.slice(0, REASON_MAX);
  const note = ` (${plan.due} points due, ${plan.shortfall} already spent; ${plan.take} taken back)`;
  return reason.slice(0, REASON_MAX - note.length) + note;
}
