import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import type { RateRule } from './rate-limit.rules.js';

export const RATE_LIMIT_RULES = 'rate-limit:rules';

/** Limits a route by every given rule (all are counted; any one over its limit answers 429). */
export function RateLimit(...rules: readonly RateRule[]): MethodDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT_RULES, rules), ApiErrors(429));
}
