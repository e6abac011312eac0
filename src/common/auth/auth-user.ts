import type { Role } from './roles.js';

/** The caller, as the JWT strategy resolves it from a valid access token and a live user row. */
export interface AuthUser {
  id: string;
  siteId: string;
  role: Role;
  email: string;
  /** The access token's id: lets a session be told apart in the activity log. */
  jti: string;
}
