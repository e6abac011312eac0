import { addressHash, carriedFrom, holdKey, holdOf } from './limit-holds.rules.js';
import { NO_LIMITS, RAISE_DELAY_MS } from './responsible-play.rules.js';

const now = new Date('2030-03-10T12:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const DAY = 24 * 60 * 60 * 1000;

describe('limit holds: what a deleted account leaves for its address', () => {
  it('leaves nothing when no pause runs and no limit is set', () => {
    expect(holdOf(NO_LIMITS, 0, now)).toBeNull();
    expect(holdOf({ ...NO_LIMITS, paused_until: later(-1) }, 0, now)).toBeNull();
  });

  it('holds a running pause until it ends', () => {
    const hold = holdOf({ ...NO_LIMITS, paused_until: later(30 * DAY) }, 500, now);
    expect(hold).toEqual({
      paused_until: later(30 * DAY),
      monthly_spend_limit_cents: null,
      limit_until: null,
      month: '2030-03',
      spent_cents: 0,
      expires_at: later(30 * DAY),
    });
  });

  it('holds a limit, and the month’s spend under it, as long as raising it would take', () => {
    const hold = holdOf({ ...NO_LIMITS, monthly_spend_limit_cents: 5000 }, 4000, now);
    expect(hold).toMatchObject({
      monthly_spend_limit_cents: 5000,
      limit_until: later(RAISE_DELAY_MS),
      spent_cents: 4000,
      expires_at: later(RAISE_DELAY_MS),
    });
  });

  it('holds the limit in force: a raise whose time has come is that limit, one still waiting is not', () => {
    const waiting = {
      ...NO_LIMITS,
      monthly_spend_limit_cents: 1000,
      pending_limit_cents: 9000,
      pending_effective_at: later(DAY),
    };
    expect(holdOf(waiting, 0, now)?.monthly_spend_limit_cents).toBe(1000);
    const due = { ...waiting, pending_effective_at: later(-1) };
    expect(holdOf(due, 0, now)?.monthly_spend_limit_cents).toBe(9000);
    expect(holdOf({ ...due, pending_limit_cents: null }, 0, now)).toBeNull(); // removed, and it was due
  });

  it('carries to a new account what has not lapsed, the spend only within the same month', () => {
    const hold = holdOf(
      { ...NO_LIMITS, monthly_spend_limit_cents: 0, paused_until: later(3 * DAY) },
      700,
      now,
    )!;
    expect(carriedFrom(hold, later(1000))).toEqual({
      state: { ...NO_LIMITS, monthly_spend_limit_cents: 0, paused_until: later(3 * DAY) },
      spentCents: 700,
      month: '2030-03',
    });
    expect(carriedFrom(hold, later(2 * DAY))).toEqual({
      state: { ...NO_LIMITS, paused_until: later(3 * DAY) },
      spentCents: 0,
      month: '2030-03',
    });
    expect(carriedFrom(hold, later(3 * DAY))).toBeNull();
    const lateInMonth = holdOf(
      { ...NO_LIMITS, monthly_spend_limit_cents: 100 },
      90,
      new Date('2030-03-31T23:00:00Z'),
    )!;
    expect(carriedFrom(lateInMonth, new Date('2030-04-01T01:00:00Z'))?.spentCents).toBe(0);
  });

  it('hashes the address per site, whatever its case, under a key of its own', () => {
    const key = holdKey(Buffer.alloc(32, 7));
    expect(addressHash(key, 's1', 'Ann@Example.com ')).toBe(addressHash(key, 's1', 'ann@example.com'));
    expect(addressHash(key, 's1', 'ann@example.com')).not.toBe(addressHash(key, 's2', 'ann@example.com'));
    expect(addressHash(holdKey(Buffer.alloc(32, 8)), 's1', 'ann@example.com')).not.toBe(
      addressHash(key, 's1', 'ann@example.com'),
    );
    expect(addressHash(key, 's1', 'ann@example.com')).toMatch(/^[0-9a-f]{64}$/);
  });
});
