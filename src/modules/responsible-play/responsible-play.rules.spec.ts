import {
  isLooser,
  type LimitsState,
  MAX_PAUSE_DAYS,
  monthOf,
  NO_LIMITS,
  planLimit,
  planLimits,
  planPause,
  RAISE_DELAY_MS,
  remaining,
  settle,
  spendGate,
} from './responsible-play.rules.js';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number): Date => new Date(NOW.getTime() + ms);
const HOUR = 3_600_000;
const limited = (cents: number | null, more: Partial<LimitsState> = {}): LimitsState => ({
  ...NO_LIMITS,
  monthly_spend_limit_cents: cents,
  ...more,
});

describe('monthly spend limits', () => {
  it('counts spending by calendar month in UTC', () => {
    expect(monthOf(NOW)).toBe('2026-03');
    expect(monthOf(new Date('2026-03-31T23:59:59.999Z'))).toBe('2026-03');
    expect(monthOf(new Date('2026-04-01T00:00:00.000Z'))).toBe('2026-04');
  });

  it('orders limits by how much they allow, no limit allowing most', () => {
    expect(isLooser(null, 100)).toBe(true);
    expect(isLooser(100, null)).toBe(false);
    expect(isLooser(null, null)).toBe(false);
    expect(isLooser(200, 100)).toBe(true);
    expect(isLooser(100, 100)).toBe(false);
    expect(isLooser(0, 100)).toBe(false);
  });

  it('applies a first limit, or a lower one, at once, zero included', () => {
    expect(planLimit(NO_LIMITS, 5000, NOW)).toMatchObject({
      monthly_spend_limit_cents: 5000,
      pending_effective_at: null,
    });
    expect(planLimit(limited(5000), 0, NOW)).toMatchObject({ monthly_spend_limit_cents: 0 });
  });

  it('delays a raise by 24 hours, keeping the lower limit in force meanwhile', () => {
    const next = planLimit(limited(5000), 9000, NOW);
    expect(next).toMatchObject({ monthly_spend_limit_cents: 5000, pending_limit_cents: 9000 });
    expect(next.pending_effective_at).toEqual(at(RAISE_DELAY_MS));
  });

  it('delays removing a limit by 24 hours too', () => {
    const next = planLimit(limited(5000), null, NOW);
    expect(next).toMatchObject({ monthly_spend_limit_cents: 5000, pending_limit_cents: null });
    expect(next.pending_effective_at).toEqual(at(RAISE_DELAY_MS));
  });

  it('puts a pending raise in force once its time has come, not a moment before', () => {
    const pending = planLimit(limited(5000), 9000, NOW);
    expect(settle(pending, at(RAISE_DELAY_MS - 1)).monthly_spend_limit_cents).toBe(5000);
    expect(settle(pending, at(RAISE_DELAY_MS))).toEqual(limited(9000));
    const removal = planLimit(limited(5000), null, NOW);
    expect(settle(removal, at(RAISE_DELAY_MS))).toEqual(NO_LIMITS);
  });

  it('drops a pending raise when the user lowers the limit or asks for the current one again', () => {
    const pending = planLimit(limited(5000), 9000, NOW);
    expect(planLimit(pending, 3000, at(HOUR))).toEqual(limited(3000));
    expect(planLimit(pending, 5000, at(HOUR))).toEqual(limited(5000));
  });

  it('does not restart the 24 hours for a repeated or smaller raise, but does for a bigger one', () => {
    const pending = planLimit(limited(5000), 9000, NOW);
    const firstTime = at(RAISE_DELAY_MS);
    expect(planLimit(pending, 9000, at(HOUR)).pending_effective_at).toEqual(firstTime);
    expect(planLimit(pending, 7000, at(HOUR))).toMatchObject({
      pending_limit_cents: 7000,
      pending_effective_at: firstTime,
    });
    expect(planLimit(pending, 12000, at(HOUR)).pending_effective_at).toEqual(at(HOUR + RAISE_DELAY_MS));
    expect(planLimit(pending, null, at(HOUR)).pending_effective_at).toEqual(at(HOUR + RAISE_DELAY_MS));
  });

  it('leaves what a request omits as it is', () => {
    const stored = limited(5000, { paused_until: at(HOUR) });
    expect(planLimits(stored, {}, NOW)).toEqual({ ok: true, state: stored });
  });

  it('tells what is left this month', () => {
    expect(remaining(null, 100)).toBeNull();
    expect(remaining(1000, 300)).toBe(700);
    expect(remaining(1000, 1300)).toBe(0);
  });
});

describe('self-pause', () => {
  it('starts a pause at once and extends it at once', () => {
    const paused = planPause(NO_LIMITS, at(48 * HOUR), NOW);
    expect(paused).toEqual({ ok: true, state: { ...NO_LIMITS, paused_until: at(48 * HOUR) } });
    const state = { ...NO_LIMITS, paused_until: at(48 * HOUR) };
    expect(planPause(state, at(96 * HOUR), NOW)).toMatchObject({
      ok: true,
      state: { paused_until: at(96 * HOUR) },
    });
  });

  it('refuses to shorten or lift a running pause (422 SELF_PAUSE_ACTIVE)', () => {
    const state = { ...NO_LIMITS, paused_until: at(48 * HOUR) };
    expect(planPause(state, at(24 * HOUR), NOW)).toMatchObject({ ok: false, code: 'SELF_PAUSE_ACTIVE' });
    expect(planPause(state, null, NOW)).toMatchObject({ ok: false, code: 'SELF_PAUSE_ACTIVE' });
    expect(planPause(state, at(-HOUR), NOW)).toMatchObject({ ok: false, code: 'SELF_PAUSE_ACTIVE' });
  });

  it('accepts the stored value again, and clearing a pause that is over', () => {
    const running = { ...NO_LIMITS, paused_until: at(48 * HOUR) };
    expect(planPause(running, at(48 * HOUR), NOW)).toEqual({ ok: true, state: running });
    const over = { ...NO_LIMITS, paused_until: at(-HOUR) };
    expect(planPause(over, null, NOW)).toEqual({ ok: true, state: NO_LIMITS });
    expect(planPause(over, at(-HOUR), NOW)).toEqual({ ok: true, state: over });
  });

  it('refuses a new pause in the past or absurdly far ahead (400 on paused_until)', () => {
    expect(planPause(NO_LIMITS, NOW, NOW)).toMatchObject({ ok: false, status: 400, field: 'paused_until' });
    expect(planPause(NO_LIMITS, at((MAX_PAUSE_DAYS + 1) * 24 * HOUR), NOW)).toMatchObject({
      ok: false,
      status: 400,
    });
  });
});

describe('what a paid order meets', () => {
  it('is refused during a self-pause and sees the limit in force, a due raise applied', () => {
    expect(spendGate({ ...NO_LIMITS, paused_until: at(HOUR) }, NOW)).toEqual({ paused: true });
    expect(spendGate({ ...NO_LIMITS, paused_until: at(-HOUR) }, NOW)).toEqual({ paused: false, limit: null });
    const pending = planLimit(limited(5000), 9000, NOW);
    expect(spendGate(pending, at(HOUR))).toEqual({ paused: false, limit: 5000 });
    expect(spendGate(pending, at(RAISE_DELAY_MS))).toEqual({ paused: false, limit: 9000 });
  });
});
