import type { Request } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';

/**
 * What the service attaches to an Express request. Kept in one declaration so every reader agrees.
 * `errorShape: 'order'` switches errors to the order endpoints' body (DESIGN §4).
 */
export interface AppRequest extends Request {
  id: string;
  user?: AuthUser;
  siteId?: string;
  errorShape?: 'order';
  rawBody?: Buffer;
}
