/**
 * Responsible play (DESIGN §6; the UK's 2025 voluntary code for prize-draw operators), as plain
 * functions of the stored limits and a clock.
 */

/** A raise (or removal) of a spend limit waits this long; a lowering applies at once. */
export const RAISE_DELAY_MS = 24 * 60 * 60 * 1000;
/** Longest self-pause that can be set in one go (a longer one is refused as a typo, 400). */
export const MAX_PAUSE_DAYS = 5 * 365;
/** Highest monthly limit accepted: £10 million in pence is far above any real need. */
export const MAX_LIMIT_CENTS = 1_000_000_000;

export interface LimitsState {
  /** In force; null = no limit. */
  monthly_spend_limit_cents: number | null;
  /** A looser limit waiting for `pending_effective_at`; null there with a date = the limit is removed. */
  pending_limit_cents: number | null;
  pending_effective_at: Date | null;
  paused_until: Date | null;
}

export const NO_LIMITS: LimitsState = {
  monthly_spend_limit_cents: null,
  pending_limit_cents: null,
  pending_effective_at: null,
  paused_until: null,
};

export interface LimitsRequest {
  /** Omitted: unchanged; null: remove the limit. */
  monthly_spend_limit_cents?: number | null;
  /** Omitted: unchanged; null: end the pause (only once it is over). */
  paused_until?: Date | null;
}

export type LimitsRefusal =
  | { ok: false; status: 422; code: 'SELF_PAUSE_ACTIVE'; message: string }
  | { ok: false; status: 400; field: string; message: string };

/** The calendar month (UTC) a spend counts against: `YYYY-MM`. */
export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** The limits as they stand at `now`: a pending change whose time has come is in force. */
export function settle(state: LimitsState, now: Date): LimitsState {
  if (!state.pending_effective_at || state.pending_effective_at.getTime() > now.getTime()) return state;
  return {
    ...state,
    monthly_spend_limit_cents: state.pending_limit_cents,
    pending_limit_cents: null,
    pending_effective_at: null,
  };
}

/** Whether limit `a` lets the user spend more than limit `b` (null = no limit). */
export function isLooser(a: number | null, b: number | null): boolean {
  if (a === null) return b !== null;
  if (b === null) return false;
  return a > b;
}

/**
 * A new monthly limit. Lowering it (or setting one where there was none) applies at once and drops any
 * pending raise; raising or removing it waits 24 h. A repeat of the pending value, or a smaller raise
 * than the pending one, keeps the pending time; a bigger raise starts the 24 h again.
 */
export function planLimit(state: LimitsState, requested: number | null, now: Date): LimitsState {
  if (!isLooser(requested, state.monthly_spend_limit_cents))
    return {
      ...state,
      monthly_spend_limit_cents: requested,
      pending_limit_cents: null,
      pending_effective_at: null,
    };
  const keepTime = state.pending_effective_at !== null && !isLooser(requested, state.pending_limit_cents);
  return {
    ...state,
    pending_limit_cents: requested,
    pending_effective_at: keepTime ? state.pending_effective_at : new Date(now.getTime() + RAISE_DELAY_MS),
  };
}

export function isPaused(state: Pick<LimitsState, 'paused_until'>, now: Date): boolean {
  return state.paused_until !== null && state.paused_until.getTime() > now.getTime();
}

/**
 * A self-pause can start or be extended at once; while it runs it cannot be shortened or lifted (the
 * point of a cooling-off pause is that the impulse to undo it is not obeyed). Re-sending the stored
 * value changes nothing.
 */
export function planPause(
  state: LimitsState,
  requested: Date | null,
  now: Date,
): { ok: true; state: LimitsState } | LimitsRefusal {
  const current = state.paused_until;
  if (requested !== null && current !== null && requested.getTime() === current.getTime())
    return { ok: true, state };
  if (
    current !== null &&
    current.getTime() > now.getTime() &&
    (requested === null || requested.getTime() < current.getTime())
  )
    return {
      ok: false,
      status: 422,
      code: 'SELF_PAUSE_ACTIVE',
      message: `You paused your account until ${current.toISOString()}; a pause can be extended but not shortened or lifted before it ends.`,
    };
  if (requested === null) return { ok: true, state: { ...state, paused_until: null } };
  if (requested.getTime() <= now.getTime())
    return { ok: false, status: 400, field: 'paused_until', message: 'paused_until must be in the future' };
  if (requested.getTime() > now.getTime() + MAX_PAUSE_DAYS * 86_400_000)
    return {
      ok: false,
      status: 400,
      field: 'paused_until',
      message: `paused_until must be within ${MAX_PAUSE_DAYS} days`,
    };
  return { ok: true, state: { ...state, paused_until: requested } };
}

/** A whole `PUT /users/me/limits`: each field omitted stays as it is. */
export function planLimits(
  stored: LimitsState,
  request: LimitsRequest,
  now: Date,
): { ok: true; state: LimitsState } | LimitsRefusal {
  let state = settle(stored, now);
  if (request.monthly_spend_limit_cents !== undefined)
    state = planLimit(state, request.monthly_spend_limit_cents, now);
  if (request.paused_until === undefined) return { ok: true, state };
  return planPause(state, request.paused_until, now);
}

/**
 * What a paid order meets (DESIGN §6): a running self-pause refuses it outright; otherwise the limit in
 * force at `now` (a due raise applied), which the spend counter then enforces atomically.
 */
export function spendGate(
  state: LimitsState,
  now: Date,
): { paused: true } | { paused: false; limit: number | null } {
  const settled = settle(state, now);
  if (isPaused(settled, now)) return { paused: true };
  return { paused: false, limit: settled.monthly_spend_limit_cents };
}

/** What is left to spend this month; null without a limit. */
export function remaining(limit: number | null, spent: number): number | null {
  return limit === null ? null : Math.max(0, limit - spent);
}
