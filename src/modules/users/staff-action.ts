import {
  applyDecorators,
  Logger,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { mergeMap, type Observable } from 'rxjs';
import type { AppRequest } from '#app/common/http/request-context.js';
import { requestMetaOf } from '#app/common/http/request-meta.js';
import { ActivityLogService } from './activity-log.service.js';
import { staffActionEntry, type StaffActionSpec } from './staff-action.rules.js';

const STAFF_ACTION = 'audit:staff-action';

/**
 * Records a staff member's action in their own activity log once it has succeeded: what they did, to which
 * resource (the route's `:id`, or the id the answer names), the fields they sent, and from where (ip, user
 * agent, request id). For the actions no feature records itself: prices and point costs set, raffles
 * published, closed and drawn, jobs run by hand. A refused request records nothing.
 */
export const StaffAction = (spec: StaffActionSpec): MethodDecorator =>
  applyDecorators(SetMetadata(STAFF_ACTION, spec), UseInterceptors(StaffActionInterceptor));

@Injectable()
export class StaffActionInterceptor implements NestInterceptor {
  private readonly logger = new Logger(StaffActionInterceptor.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly activity: ActivityLogService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<StaffActionSpec | undefined>(STAFF_ACTION, context.getHandler());
    const req = context.switchToHttp().getRequest<AppRequest>();
    return next.handle().pipe(
      mergeMap(async (answer: unknown) => {
        const entry = spec && req.user ? staffActionEntry(spec, req, answer) : null;
        // The action has committed: a record that cannot be written is an error in the log, not the answer.
        if (entry)
          await this.activity.record(entry, requestMetaOf(req)).catch((error: unknown) => {
            this.logger.error({ err: error, activity_type: entry.type }, 'could not record a staff action');
          });
        return answer;
      }),
    );
  }
}
