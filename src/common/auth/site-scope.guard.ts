import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import type { AppRequest } from '#app/common/http/request-context.js';
import { resolveSite } from './site-scope.js';

function field(container: unknown, name: string): unknown {
  return typeof container === 'object' && container !== null
    ? (container as Record<string, unknown>)[name]
    : undefined;
}

/** Resolves `req.siteId` for every route and refuses (403) a caller naming a site it does not belong to. */
@Injectable()
export class SiteScopeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AppRequest>();
    const scope = resolveSite(
      {
        path: field(req.params, 'site_id'),
        query: field(req.query, 'site_id'),
        body: field(req.body, 'site_id'),
        header: req.headers['x-site-id'],
      },
      req.user,
    );
    if (!scope.ok) throw AppException.forbidden('You may not act on another site.');
    req.siteId = scope.siteId;
    return true;
  }
}
