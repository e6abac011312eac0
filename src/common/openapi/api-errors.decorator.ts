import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ProblemDto } from './problem.dto.js';

type ErrorStatus = 400 | 404 | 409 | 422 | 429;

const DECORATORS: Record<ErrorStatus, (description: string) => MethodDecorator & ClassDecorator> = {
  400: (description) => ApiBadRequestResponse({ type: ProblemDto, description }),
  404: (description) => ApiNotFoundResponse({ type: ProblemDto, description }),
  409: (description) => ApiConflictResponse({ type: ProblemDto, description }),
  422: (description) => ApiUnprocessableEntityResponse({ type: ProblemDto, description }),
  429: (description) => ApiTooManyRequestsResponse({ type: ProblemDto, description }),
};

const DEFAULTS: Record<ErrorStatus, string> = {
  400: 'Malformed JSON, wrong types, missing or unknown fields (VALIDATION_FAILED, with `errors`).',
  404: 'Unknown, or not yours (NOT_FOUND).',
  409: 'Conflicts with the current state.',
  422: 'Well-formed but breaks a business rule.',
  429: 'Rate limit reached (RATE_LIMITED); see Retry-After.',
};

/** Documents the problem+json answers of a route: `@ApiErrors(400, 404)` or `@ApiErrors({ 409: 'why' })`. */
export function ApiErrors(
  ...statuses: Array<ErrorStatus | Partial<Record<ErrorStatus, string>>>
): MethodDecorator {
  const decorators = statuses.flatMap((entry) =>
    typeof entry === 'number'
      ? [DECORATORS[entry](DEFAULTS[entry])]
      : Object.entries(entry).map(([status, text]) => DECORATORS[Number(status) as ErrorStatus](text)),
  );
  return applyDecorators(...decorators);
}
