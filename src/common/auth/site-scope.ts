import type { AuthUser } from './auth-user.js';

export interface SiteSources {
  /** A `:site_id` path parameter (`/admin/site-configs/{site_id}`): the most explicit naming of all. */
  path?: unknown;
  query?: unknown;
  body?: unknown;
  header?: unknown;
}

export type SiteScope = { ok: true; siteId: string | undefined } | { ok: false };

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Which site a request acts on (DESIGN §3): a `site_id` path parameter, else query or body `site_id`, else
 * `X-Site-Id`, else the token's site. Only a superadmin may name a site other than its token's.
 */
export function resolveSite(sources: SiteSources, user: AuthUser | undefined): SiteScope {
  const named = text(sources.path) ?? text(sources.query) ?? text(sources.body) ?? text(sources.header);
  if (!user) return { ok: true, siteId: named };
  if (named && named !== user.siteId && user.role !== 'superadmin') return { ok: false };
  return { ok: true, siteId: named ?? user.siteId };
}
