import type { AuthUser } from './auth-user.js';

export interface SiteSources {
  /** A `:site_id` path parameter (`/admin/site-configs/{site_id}`): the most explicit naming of all. */
  path?: unknown;
  query?: unknown;
  body?: unknown;
  header?: unknown;
}

function field(container: unknown, name: string): unknown {
  return typeof container === 'object' && container !== null
    ? (container as Record<string, unknown>)[name]
    : undefined;
}

/** Where a request may name its site, as Express hands the request over. */
export function siteSources(req: {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  headers?: Record<string, unknown>;
}): SiteSources {
  return {
    path: field(req.params, 'site_id'),
    query: field(req.query, 'site_id'),
    body: field(req.body, 'site_id'),
    header: req.headers?.['x-site-id'],
  };
}

export type SiteScope =
  | { ok: true; siteId: string | undefined }
  | { ok: false; why: 'other-site' }
  | { ok: false; why: 'two-sites' };

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The sites a request names, most explicit first: path, query, body, `X-Site-Id`. */
function namedSites(sources: SiteSources): string[] {
  return [sources.path, sources.query, sources.body, sources.header]
    .map(text)
    .filter((site): site is string => site !== undefined);
}

/**
 * The site a request names, read the way `resolveSite` reads it, for what runs before the caller is known
 * (the rate limits): the most explicit, or undefined when it names none.
 */
export function namedSite(sources: SiteSources): string | undefined {
  return namedSites(sources)[0];
}

/**
 * Which site a request acts on (DESIGN §3): the one it names (a `site_id` path parameter, query or body
 * `site_id`, `X-Site-Id`), else the token's site. A request naming two different sites is refused, whoever
 * sends it: whatever read another of its names (a rate limit, a key's scope) would act on a site the route
 * does not. Only a superadmin may name a site other than its token's.
 */
export function resolveSite(sources: SiteSources, user: AuthUser | undefined): SiteScope {
  const named = namedSites(sources);
  if (named.some((site) => site !== named[0])) return { ok: false, why: 'two-sites' };
  if (!user) return { ok: true, siteId: named[0] };
  if (named.length && named[0] !== user.siteId && user.role !== 'superadmin')
    return { ok: false, why: 'other-site' };
  return { ok: true, siteId: named[0] ?? user.siteId };
}
