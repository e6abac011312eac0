import type { Role } from '#app/common/auth/roles.js';

/** Why an admin may not delete this account, or null when it may. */
export type AdminDeletionRefusal = 'NOT_FOUND' | 'SELF' | 'ROLE';

/**
 * Who deletes whom on `DELETE /admin/users/{id}` (DESIGN §3): an admin acts within its own site (a user
 * of another site answers 404, as every admin route does, so ids cannot be probed); only a superadmin
 * deletes an admin or a superadmin, as only a superadmin grants roles; nobody deletes itself here (the
 * account's own route asks for its password).
 */
export function adminDeletionRefusal(
  actor: { id: string; role: Role; siteId: string },
  target: { id: string; role: Role; site_id: string },
): AdminDeletionRefusal | null {
  if (actor.role !== 'superadmin' && target.site_id !== actor.siteId) return 'NOT_FOUND';
  if (actor.id === target.id) return 'SELF';
  if (target.role !== 'user' && actor.role !== 'superadmin') return 'ROLE';
  return null;
}

/** What `DELETE /users/me` must check before erasing the caller's own account. */
export type SelfDeletionCheck = 'NONE' | 'PASSWORD' | 'PASSWORD_MISSING' | 'LOCKED';

/**
 * An account with a password proves it again (a stolen access token alone must not erase an account);
 * one made without a password (guest purchase, website form) has nothing to prove beyond the token
 * that a sign-in link gave. A locked account (too many wrong passwords) is refused without checking,
 * so the wrong-password answer is no way around the login lock.
 */
export function selfDeletionCheck(
  account: { hasPassword: boolean; lockedUntil: Date | null },
  givenPassword: string | undefined,
  now: Date,
): SelfDeletionCheck {
  if (!account.hasPassword) return 'NONE';
  if (account.lockedUntil && account.lockedUntil > now) return 'LOCKED';
  if (givenPassword === undefined || givenPassword === '') return 'PASSWORD_MISSING';
  return 'PASSWORD';
}
