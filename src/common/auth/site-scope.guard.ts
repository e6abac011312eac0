import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import type { AppRequest } from '#app/common/http/request-context.js';
import { resolveSite, siteSources } from './site-scope.js';

/**
 * Resolves `req.siteId` for every route; refuses (403) a caller naming a site it does not belong to, and
 * (400) a request naming two different sites.
 */
@Injectable()
export class SiteScopeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AppRequest>();
    const scope = resolveSite(siteSources(req), req.user);
    if (!scope.ok && scope.why === 'two-sites')
      throw AppException.validation(
        [
          {
            field: 'site_id',
            message: 'names two different sites (path, query, body or X-Site-Id): name one',
          },
        ],
        'The request names two different sites.',
      );
    if (!scope.ok) throw AppException.forbidden('You may not act on another site.');
    req.siteId = scope.siteId;
    return true;
  }
}
