import { normalizedEmail } from '#app/common/email-address.js';
import { clientNetwork } from '../net/client-network.js';

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
  // Not in DESIGN §9 either: exchanging a sign-in link's token is a login, so it takes login's per-IP figure
  // (one link is exchanged once; a client sending token after token is guessing).
  magicLinkVerify: [{ name: 'magic-link-verify-ip', limit: 10, ttlSeconds: MINUTE, by: 'ip' }],
  spin: [{ name: 'spin-ip', limit: 10, ttlSeconds: HOUR, by: 'ip' }],
  orderCreate: [{ name: 'order-create-ip', limit: 30, ttlSeconds: MINUTE, by: 'ip' }],
} as const satisfies Record<string, readonly RateRule[]>;

/** Longer values cannot pass validation anyway; capping keeps a hostile body from making huge keys. */
const MAX_EMAIL = 254;
const MAX_SITE = 100;

export interface RateSubject {
  ip: string | undefined;
  body: unknown;
  /** The site the request names (`namedSite`: its path, query, body or `X-Site-Id`), if any. */
  site?: string;
}

/** Every rule's name: what a site's `additional_settings.rate_limits` may set. */
export const RATE_LIMIT_RULE_NAMES: readonly string[] = Object.values(RATE_LIMITS).flatMap((rules) =>
  rules.map((r) => r.name),
);

/** The site a limited request's limits and e-mail counters are of, bounded; '' when it names none. */
export function rateLimitSite(site: string | undefined): string {
  return (site ?? '').slice(0, MAX_SITE);
}

/** The most a site may set a rule to (requests per the rule's window). */
export const SITE_LIMIT_MAX = 10_000;

/**
 * A rule's limit on a site: `additional_settings.rate_limits["<rule name>"]` when it is a whole number from 1
 * to `SITE_LIMIT_MAX` (requests per the rule's own window, which a site does not change), else DESIGN §9's
 * default. Read leniently, as the other settings are: a value that is not such a number is no override.
 */
export function siteLimit(rule: RateRule, settings: Record<string, unknown> | null | undefined): number {
  const overrides = settings?.rate_limits;
  if (typeof overrides !== 'object' || overrides === null) return rule.limit;
  const limit = (overrides as Record<string, unknown>)[rule.name];
  return Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= SITE_LIMIT_MAX
    ? (limit as number)
    : rule.limit;
}

/**
 * The storage key of a rule's counter for one request at `limit` (the site's, `siteLimit`), or undefined
 * when the rule does not apply (an e-mail rule on a body without a usable e-mail). Keys are never logged.
 * An IP's counter is one for every site at the same limit: per site, a client could name a new site id with
 * each request (any text will do) and start a new count each time, so what an IP may spend (argon2 hashes
 * at login) would have no bound; the limits sites set are few, so the counts are. A limit a site sets counts
 * apart from the default's: one count held to two limits would block the IP everywhere once it passed the
 * lower one (the storage blocks a key, not a limit). An IPv6 client counts by its /64 (`clientNetwork`).
 */
export function rateLimitKey(rule: RateRule, subject: RateSubject, limit = rule.limit): string | undefined {
  const name = limit === rule.limit ? rule.name : `${rule.name}@${limit}`;
  if (rule.by === 'ip') return `${name}:ip:${clientNetwork(subject.ip)}`;
  const site = rateLimitSite(subject.site);
  const body =
    typeof subject.body === 'object' && subject.body !== null
      ? (subject.body as Record<string, unknown>)
      : {};
  const email = typeof body.email === 'string' ? normalizedEmail(body.email) : '';
  if (!email || email.length > MAX_EMAIL) return undefined;
  // The same address on two sites is two accounts (DESIGN §3), hence two counters.
  return `${name}:email:${site}:${email}`;
}
