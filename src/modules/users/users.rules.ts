import type { Role } from '#app/common/auth/roles.js';
import type { UpdateProfileDto } from './dto/update-profile.dto.js';

/** A user may send its own role back unchanged, never a different one (DESIGN §3). */
export function isRoleChangeAttempt(body: Pick<UpdateProfileDto, 'role'>, current: Role): boolean {
  return body.role !== undefined && body.role !== current;
}

/** Who may set which role: only a superadmin grants or removes `admin`, never `superadmin`, never on itself. */
export function canAssignRole(
  actor: { id: string; role: Role },
  target: { id: string; role: Role },
  role: Role,
): boolean {
  if (actor.role !== 'superadmin') return false;
  if (actor.id === target.id) return false;
  if (target.role === 'superadmin') return false;
  return role === 'user' || role === 'admin';
}

/** Marketing consent changes are dated and logged; unchanged values are not. */
export function consentChanged(current: boolean, requested: boolean | undefined): requested is boolean {
  return requested !== undefined && requested !== current;
}

/**
 * What a deleted account's e-mail becomes: unique per user (the site's unique index still holds), under
 * `.invalid` (RFC 2606: never delivered), so the real address is free to register again.
 */
export function tombstoneEmail(userId: string): string {
  return `deleted-${userId}@deleted.invalid`;
}
