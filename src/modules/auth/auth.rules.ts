import { COMMON_PASSWORDS } from './common-passwords.js';

export const PASSWORD_LENGTH = { min: 10, max: 128 } as const;

/** Lifetimes (DESIGN §3): access 15 min, refresh 30 days, reset/set links 60 min, sign-in links 15 min. */
export const TTL = {
  accessSeconds: 15 * 60,
  refreshDays: 30,
  resetMinutes: 60,
  setMinutes: 60,
  magicLinkMinutes: 15,
} as const;

/** Why a password is refused, or an empty list. */
export function passwordProblems(password: string, email?: string): string[] {
  const problems: string[] = [];
  // Characters, not UTF-16 units: an emoji is one character and two units, and five of them are not ten.
  const characters = [...password].length;
  if (characters < PASSWORD_LENGTH.min) problems.push(`must be at least ${PASSWORD_LENGTH.min} characters`);
  if (characters > PASSWORD_LENGTH.max) problems.push(`must be at most ${PASSWORD_LENGTH.max} characters`);
  if (COMMON_PASSWORDS.has(password.toLowerCase())) problems.push('is too common; choose another');
  if (email && password.toLowerCase() === email.toLowerCase())
    problems.push('must not be your e-mail address');
  return problems;
}

/**
 * Whether a refresh that came at `cameAt` raced the rotation of its token at `rotatedAt` (two requests with
 * one token at once: the loser is refused, the family kept) rather than presenting a copy after it (reuse:
 * the family is revoked). Only a token rotated after the request came is a race.
 */
export function isRaced(cameAt: Date, rotatedAt: Date): boolean {
  return cameAt.getTime() <= rotatedAt.getTime();
}

/** Where the links in staff accounts' e-mails lead: pages of this service (`mountStaffPages`). */
export const STAFF_PAGES_PATH = '/staff';

/** The address staff links start from: the service's own, never a site's `frontend_url`. */
export function staffLinkBase(service: { publicBaseUrl: string }): string {
  return `${service.publicBaseUrl.replace(/\/+$/, '')}${STAFF_PAGES_PATH}`;
}

export function minutesFrom(now: Date, minutes: number): Date {
  return new Date(now.getTime() + minutes * 60_000);
}

/** Under 18 on `now`, from a YYYY-MM-DD date of birth. */
export function isUnder18(dateOfBirth: string, now: Date): boolean {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  // A date that cannot be read proves no age: refused as under 18 rather than let through.
  if (!date) return true;
  const [y, m, d] = date.slice(1).map(Number);
  const eighteenth = Date.UTC(y + 18, m - 1, d);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return today < eighteenth;
}

/** A site may switch the 18+ declaration off (`additional_settings.age_check = "none"`). */
export function siteRequiresAgeCheck(settings: Record<string, unknown>): boolean {
  return settings.age_check !== 'none';
}

/** Links in e-mails point at the site's front end, falling back to the service's own address. */
export function frontendLink(base: string, path: string, token: string): string {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('token', token);
  return url.toString();
}

/** The links a password reset or set is made with (endpoint 1). */
export const PASSWORD_LINKS = ['password_reset', 'password_set'] as const;

/**
 * What a completed reset or set spends: every other password link, and every sign-in link too. A sign-in
 * link is as good as the password for 15 minutes, so one issued before the reset (perhaps to whoever made
 * the owner reset) must not outlive the password it was issued under.
 */
export const SPENT_BY_PASSWORD_CHANGE = [...PASSWORD_LINKS, 'magic_link'] as const;

/**
 * Whether a one-time token could be spent now for one of `purposes`: unused, unexpired, of the right kind.
 * Only a preview: spending it is the repository's conditional UPDATE, which decides a race.
 */
export function isSpendable(
  token: { purpose: string; used_at: Date | null; expires_at: Date },
  purposes: readonly string[],
  now: Date,
): boolean {
  return (
    token.used_at === null && token.expires_at.getTime() > now.getTime() && purposes.includes(token.purpose)
  );
}
