import type { Role } from './roles.js';

/** The guard's view of a user; provided by the users feature so `common/` depends on no feature. */
export interface AuthUserLookup {
  findActiveForToken(id: string): Promise<{
    id: string;
    site_id: string;
    role: Role;
    email: string;
    sessions_valid_from: Date | null;
  } | null>;
}

export const AUTH_USER_LOOKUP = Symbol('AUTH_USER_LOOKUP');
