import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppException } from '#app/common/errors/app.exception.js';
import type { AppRequest } from '#app/common/http/request-context.js';
import { policyOf } from './jwt-auth.guard.js';
import { hasRole } from './roles.js';

@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const policy = policyOf(this.reflector, context);
    if (!policy) throw AppException.forbidden('This route declares no access policy.');
    if (policy.kind !== 'role') return true;
    const user = context.switchToHttp().getRequest<AppRequest>().user;
    if (!user) throw AppException.unauthenticated();
    if (!hasRole(user.role, policy.role)) throw AppException.forbidden();
    return true;
  }
}
