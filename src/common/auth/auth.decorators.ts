import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { AppRequest } from '#app/common/http/request-context.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import type { AuthUser } from './auth-user.js';
import { namedSite, siteSources } from './site-scope.js';
import type { Role } from './roles.js';

export const AUTH_POLICY = 'auth:policy';

/** Every route states who may call it; a test fails for a route that states nothing. */
export type AuthPolicy = { kind: 'public' } | { kind: 'optional' } | { kind: 'role'; role: Role };

/** Anyone may call the route; a token, if sent, is ignored. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_POLICY, { kind: 'public' });

/**
 * Anyone may call the route; a valid token, when sent, names the caller, and a bad one is refused (401), as is
 * one naming another site than the request does (403, `SiteScopeGuard`).
 */
export const OptionalAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTH_POLICY, { kind: 'optional' }),
    // Not declared as a security requirement: the contract lists these routes as needing no token.
    ApiErrors(401, { code: 'FORBIDDEN', detail: 'You may not act on another site.' }),
  );

/** The caller needs a valid token and at least `role` (`user` < `admin` < `superadmin`). */
export const Auth = (role: Role = 'user'): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTH_POLICY, { kind: 'role', role }),
    ApiBearerAuth(),
    ApiErrors(401, {
      code: 'FORBIDDEN',
      detail:
        role === 'user'
          ? 'You may not act on another site.'
          : `You are not allowed to do this (it needs the ${role} role, on your own site).`,
    }),
  );

export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthUser | undefined => {
    return ctx.switchToHttp().getRequest<AppRequest>().user;
  },
);

/** The site the request acts on, resolved and checked by the site-scope guard (DESIGN §3). */
export const CurrentSite = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string | undefined => {
    return ctx.switchToHttp().getRequest<AppRequest>().siteId;
  },
);

/**
 * The site the request names (query, body, `X-Site-Id`, path), or undefined when it names none, checked by the
 * site-scope guard like `CurrentSite`: for the lists where naming no site means every site (a superadmin's).
 */
export const NamedSite = createParamDecorator((_data: unknown, ctx: ExecutionContext): string | undefined =>
  namedSite(siteSources(ctx.switchToHttp().getRequest<AppRequest>())),
);
