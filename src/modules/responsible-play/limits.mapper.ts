import type { LimitsDto } from './dto/limits.dto.js';
import { isPaused, type LimitsState, monthOf, remaining, settle } from './responsible-play.rules.js';

/** The limits as they stand at `now`, with the month's spending. */
export function toLimitsDto(
  stored: LimitsState,
  updatedAt: Date | null,
  spent: number,
  now: Date,
): LimitsDto {
  const state = settle(stored, now);
  return {
    monthly_spend_limit_cents: state.monthly_spend_limit_cents,
    pending: state.pending_effective_at
      ? {
          monthly_spend_limit_cents: state.pending_limit_cents,
          effective_at: state.pending_effective_at.toISOString(),
        }
      : null,
    paused_until: state.paused_until ? state.paused_until.toISOString() : null,
    is_paused: isPaused(state, now),
    month: monthOf(now),
    spent_this_month_cents: spent,
    remaining_this_month_cents: remaining(state.monthly_spend_limit_cents, spent),
    updated_at: updatedAt ? updatedAt.toISOString() : null,
  };
}
