/** Five failed logins lock the account for fifteen minutes (DESIGN §3). */
export const LOCKOUT = { maxFailures: 5, minutes: 15 } as const;

export function lockedUntil(now: Date): Date {
  return new Date(now.getTime() + LOCKOUT.minutes * 60_000);
}

export function isLocked(user: { account_locked_until: Date | null }, now: Date): boolean {
  return user.account_locked_until !== null && user.account_locked_until.getTime() > now.getTime();
}
