import { randomBytes } from 'node:crypto';
import type { Role } from '#app/common/auth/roles.js';
import { PasswordHasher } from '#app/modules/auth/password-hasher.js';
import { SessionService } from '#app/modules/auth/session.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import type { User } from '#app/modules/users/entities/user.entity.js';
import { api } from './api';
import type { TestApp } from './app';

export const DEFAULT_PASSWORD = 'a-Long-enough-pass-7391';
let defaultHash: Promise<string> | undefined;

/** A unique suffix: tests share one database and are isolated by their own data (STACK.md). */
export function uid(): string {
  return randomBytes(5).toString('hex');
}

export async function makeSite(
  t: TestApp,
  opts: { frontendUrl?: string | null; settings?: Record<string, unknown> } = {},
): Promise<string> {
  const siteId = `site-${uid()}`;
  const frontendUrl = opts.frontendUrl === undefined ? `https://${siteId}.example.com` : opts.frontendUrl;
  await t.app.get(SitesService).ensureSite(siteId, `Site ${siteId}`, frontendUrl);
  if (opts.settings) {
    await t.db.query(`UPDATE site_configs SET additional_settings = $2 WHERE site_id = $1`, [
      siteId,
      opts.settings,
    ]);
  }
  return siteId;
}

export interface MadeUser {
  user: User;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

/** A user (any role) with a password and a fresh token pair, in one line. */
export async function makeUser(
  t: TestApp,
  siteId: string,
  opts: { role?: Role; email?: string; password?: string | null; signupSource?: string } = {},
): Promise<MadeUser> {
  const hasher = t.app.get(PasswordHasher);
  const password = opts.password === undefined ? DEFAULT_PASSWORD : opts.password;
  let passwordHash: string | null = null;
  if (password === DEFAULT_PASSWORD) passwordHash = await (defaultHash ??= hasher.hash(DEFAULT_PASSWORD));
  else if (password) passwordHash = await hasher.hash(password);
  const email = opts.email ?? `user-${uid()}@example.com`;
  const accounts = t.app.get(AccountsService);
  const user = await t.db.transaction((manager) =>
    accounts.create(
      {
        site_id: siteId,
        email,
        role: opts.role ?? 'user',
        signup_source: opts.signupSource ?? 'register',
        password_hash: passwordHash,
        has_consented: true,
        data_processing_consent: true,
      },
      manager,
    ),
  );
  const tokens = await t.app.get(SessionService).issue(user);
  return {
    user,
    email,
    password: password ?? '',
    token: tokens.access_token,
    refreshToken: tokens.refresh_token,
  };
}

/** A user's points balance as stored (0 before the first ledger entry). */
export async function pointsOf(t: TestApp, userId: string): Promise<number> {
  const rows = await t.db.query<Array<{ current_points: number }>>(
    `SELECT current_points FROM rewards_balances WHERE user_id = $1`,
    [userId],
  );
  return rows[0]?.current_points ?? 0;
}

/** Points a site's admin gives the user (`POST /admin/rewards/adjust`), as a member would first get some. */
export async function givePoints(
  t: TestApp,
  adminToken: string,
  user: MadeUser,
  amount: number,
  reason = 'Points to play with',
): Promise<void> {
  await api(t.app)
    .as(adminToken)
    .post('/admin/rewards/adjust', { user_id: user.user.id, amount, reason })
    .expect(201);
}

/**
 * `POST /auth/register` of a new member of `siteId` as a visitor would send it (`body` overrides any field), from
 * `ip` (a fresh address by default, so that the per-address limit and the self-referral check do not meet).
 */
export function registerOn(
  t: TestApp,
  siteId: string,
  body: Record<string, unknown> = {},
  ip = `203.0.113.${1 + Math.floor(Math.random() * 250)}`,
) {
  return api(t.app)
    .from(ip)
    .post('/auth/register', {
      email: `new-${uid()}@example.com`,
      password: DEFAULT_PASSWORD,
      site_id: siteId,
      data_processing_consent: true,
      age_confirmed: true,
      ...body,
    });
}

/** A member's referral code, as `GET /rewards/referral-code` answers it. */
export async function referralCodeOf(t: TestApp, token: string): Promise<string> {
  const res = await api(t.app).as(token).get('/rewards/referral-code').expect(200);
  return (res.body as { referral_code: string }).referral_code;
}
