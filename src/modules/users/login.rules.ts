/**
 * Five failed logins lock the account for fifteen minutes (DESIGN §3). The five must fall within fifteen minutes
 * of one another (`windowMinutes`): a member who mistypes once a month is not locked out in the fifth month.
 */
export const LOCKOUT = { maxFailures: 5, minutes: 15, windowMinutes: 15 } as const;

/** Failures before this instant no longer count towards a lock (a failure after a quiet window starts afresh). */
export function failureWindowStart(now: Date): Date {
  return new Date(now.getTime() - LOCKOUT.windowMinutes * 60_000);
}

export function lockedUntil(now: Date): Date {
  return new Date(now.getTime() + LOCKOUT.minutes * 60_000);
}

export function isLocked(user: { account_locked_until: Date | null }, now: Date): boolean {
  return user.account_locked_until !== null && user.account_locked_until.getTime() > now.getTime();
}
