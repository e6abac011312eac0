import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppException } from '#app/common/errors/app.exception.js';
import type { AppRequest } from '#app/common/http/request-context.js';
import { AUTH_POLICY, type AuthPolicy } from './auth.decorators.js';

/**
 * Global guard: every route is protected unless it says `@Public()`; `@OptionalAuth()` routes accept
 * no token but refuse a bad one. A route declaring nothing is refused outright, never left open.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = policyOf(this.reflector, context);
    if (policy?.kind === 'public') return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    if (policy?.kind === 'optional' && !req.headers.authorization) return true;
    return (await super.canActivate(context)) as boolean;
  }

  /**
   * Token problems arrive as `info` with no user: 401. An `err` is a failure of ours while checking a
   * good token (the database is down): it must surface as such, not pass for a bad token.
   */
  override handleRequest<T>(err: unknown, user: T): T {
    if (err instanceof Error) throw err;
    if (err) throw new Error('authentication failed unexpectedly');
    if (!user) throw AppException.unauthenticated();
    return user;
  }
}

export function policyOf(reflector: Reflector, context: ExecutionContext): AuthPolicy | undefined {
  return reflector.getAllAndOverride<AuthPolicy | undefined>(AUTH_POLICY, [
    context.getHandler(),
    context.getClass(),
  ]);
}
