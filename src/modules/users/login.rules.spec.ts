import { failureWindowStart, isLocked, lockedUntil } from './login.rules.js';

describe('the login lockout', () => {
  const now = new Date('2030-06-15T10:00:00Z');

  it('locks for fifteen minutes from the failure that reaches the limit', () => {
    expect(lockedUntil(now).toISOString()).toBe('2030-06-15T10:15:00.000Z');
    expect(isLocked({ account_locked_until: lockedUntil(now) }, now)).toBe(true);
    expect(isLocked({ account_locked_until: now }, now)).toBe(false);
    expect(isLocked({ account_locked_until: null }, now)).toBe(false);
  });

  it('counts only failures of the last fifteen minutes', () => {
    expect(failureWindowStart(now).toISOString()).toBe('2030-06-15T09:45:00.000Z');
  });
});
