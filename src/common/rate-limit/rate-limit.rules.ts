import { normalizedEmail } from '#app/common/email-address.js';

/** One counter: at most `limit` requests per `ttlSeconds`, counted per client IP or per e-mail address. */
export interface RateRule {
  /** Unique across rules: it names the counter. */
  name: string;
  limit: number;
  ttlSeconds: number;
  by: 'ip' | 'email';
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** DESIGN §9 defaults, and endpoint 1's (below). */
export const RATE_LIMITS = {
  login: [
    { name: 'login-ip', limit: 10, ttlSeconds: MINUTE, by: 'ip' },
    { name: 'login-email', limit: 10, ttlSeconds: MINUTE, by: 'email' },
  ],
  register: [{ name: 'register-ip', limit: 5, ttlSeconds: MINUTE, by: 'ip' }],
  passwordReset: [
    { name: 'password-reset-email', limit: 5, ttlSeconds: HOUR, by: 'email' },
    { name: 'password-reset-ip', limit: 20, ttlSeconds: HOUR, by: 'ip' },
  ],
  magicLink: [
    { name: 'magic-link-email', limit: 5, ttlSeconds: HOUR, by: 'email' },
    { name: 'magic-link-ip', limit: 20, ttlSeconds: HOUR, by: 'ip' },
  ],
  // Not in DESIGN §9 (DECISIONS, the auth review): endpoint 1 costs at most one argon2 hash, as a login
  // does, so it takes login's per-IP figure. No e-mail rule: its body names no address.
  passwordSetConfirm: [{ name: 'password-set-confirm-ip', limit: 10, ttlSeconds: MINUTE, by: 'ip' }],
  spin: [{ name: 'spin-ip', limit: 10, ttlSeconds: HOUR, by: 'ip' }],
  orderCreate: [{ name: 'order-create-ip', limit: 30, ttlSeconds: MINUTE, by: 'ip' }],
} as const satisfies Record<string, readonly RateRule[]>;

/** Longer values cannot pass validation anyway; capping keeps a hostile body from making huge keys. */
const MAX_EMAIL = 254;
const MAX_SITE = 100;

export interface RateSubject {
  ip: string | undefined;
  body: unknown;
}

/**
 * The storage key of a rule's counter for one request, or undefined when the rule does not apply
 * (an e-mail rule on a body without a usable e-mail). Keys are never logged.
 */
export function rateLimitKey(rule: RateRule, subject: RateSubject): string | undefined {
  if (rule.by === 'ip') return `${rule.name}:ip:${subject.ip || 'unknown'}`;
  const body =
    typeof subject.body === 'object' && subject.body !== null
      ? (subject.body as Record<string, unknown>)
      : {};
  const email = typeof body.email === 'string' ? normalizedEmail(body.email) : '';
  if (!email || email.length > MAX_EMAIL) return undefined;
  // The same address on two sites is two accounts (DESIGN §3), hence two counters.
  const site = typeof body.site_id === 'string' ? body.site_id.slice(0, MAX_SITE) : '';
  return `${rule.name}:email:${site}:${email}`;
}
