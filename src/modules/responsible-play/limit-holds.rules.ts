import { createHmac, hkdfSync } from 'node:crypto';
import {
  isPaused,
  type LimitsState,
  monthOf,
  NO_LIMITS,
  RAISE_DELAY_MS,
  settle,
} from './responsible-play.rules.js';
import { normalizedEmail } from '#app/common/email-address.js';

/**
 * What a deleted account's limits leave behind for its address, as plain functions (DESIGN §6 responsible
 * play). Deleting an account and registering the address again must be no quicker a way out than the
 * account's own rules: a running self-pause cannot be lifted, so it holds until it ends; a spend limit can
 * be raised or removed only after `RAISE_DELAY_MS`, so it (and the month's spend under it) holds that long.
 */
export interface LimitHoldState {
  paused_until: Date | null;
  monthly_spend_limit_cents: number | null;
  limit_until: Date | null;
  month: string;
  spent_cents: number;
  expires_at: Date;
}

/** The key addresses are hashed under, derived from SECRETS_KEY for this use alone. */
export function holdKey(secretsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'limit-hold-v1', 32));
}

/**
 * The address as a hold keeps it: HMAC-SHA256 (hex) of the site and the address as it is compared
 * (`normalizedEmail`).
 */
export function addressHash(key: Buffer, siteId: string, email: string): string {
  return createHmac('sha256', key)
    .update(`${siteId}\n${normalizedEmail(email)}`)
    .digest('hex');
}

/** What the limits in force at `now` leave behind, or null when nothing runs (no pause, no limit). */
export function holdOf(state: LimitsState, spentCents: number, now: Date): LimitHoldState | null {
  const settled = settle(state, now);
  const pausedUntil = isPaused(settled, now) ? settled.paused_until : null;
  const limit = settled.monthly_spend_limit_cents;
  const limitUntil = limit === null ? null : new Date(now.getTime() + RAISE_DELAY_MS);
  if (!pausedUntil && !limitUntil) return null;
  return {
    paused_until: pausedUntil,
    monthly_spend_limit_cents: limit,
    limit_until: limitUntil,
    month: monthOf(now),
    spent_cents: limit === null ? 0 : spentCents,
    expires_at: new Date(Math.max(pausedUntil?.getTime() ?? 0, limitUntil?.getTime() ?? 0)),
  };
}

/** The limits (and the month's spend) a new account of a held address starts with, or null when all lapsed. */
export function carriedFrom(
  hold: LimitHoldState,
  now: Date,
): { state: LimitsState; spentCents: number; month: string } | null {
  const pausedUntil =
    hold.paused_until && hold.paused_until.getTime() > now.getTime() ? hold.paused_until : null;
  const limitHolds = hold.limit_until !== null && hold.limit_until.getTime() > now.getTime();
  if (!pausedUntil && !limitHolds) return null;
  const month = monthOf(now);
  return {
    state: {
      ...NO_LIMITS,
      monthly_spend_limit_cents: limitHolds ? hold.monthly_spend_limit_cents : null,
      paused_until: pausedUntil,
    },
    spentCents: limitHolds && hold.month === month ? hold.spent_cents : 0,
    month,
  };
}
