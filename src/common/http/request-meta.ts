import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AppRequest } from './request-context.js';

/** Who is asking, for the activity log: never trusted for decisions, only recorded. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  sessionId: string | null;
  /** The signed-in user making the request, when there is one (it may act on another user's records). */
  actorId: string | null;
}

export const NO_REQUEST: RequestMeta = {
  ip: null,
  userAgent: null,
  requestId: null,
  sessionId: null,
  actorId: null,
};

export function requestMetaOf(req: AppRequest): RequestMeta {
  const ua = req.headers['user-agent'];
  return {
    ip: req.ip ?? null,
    userAgent: typeof ua === 'string' ? ua.slice(0, 500) : null,
    requestId: req.id,
    sessionId: req.user?.jti ?? null,
    actorId: req.user?.id ?? null,
  };
}

export const ReqMeta = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestMeta => {
  return requestMetaOf(ctx.switchToHttp().getRequest<AppRequest>());
});
