import type { NextFunction, Request, Response } from 'express';

/**
 * The auth routes that act on a site (register, login, magic link, password reset) take it as the body's
 * `site_id`; DESIGN §3 lets a public caller name it by `X-Site-Id` instead. When the body names none, the header's
 * is copied into it before validation, so both ways are read alike (a request naming two sites is refused by the
 * site scope, as anywhere).
 */
export function siteFromHeader(req: Request, _res: Response, next: NextFunction): void {
  const header = req.headers['x-site-id'];
  const body = req.body as unknown;
  if (typeof header === 'string' && header && isObject(body) && body.site_id === undefined)
    body.site_id = header;
  next();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
