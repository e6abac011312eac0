import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { IDEMPOTENCY_HEADER, KEY_MAX_LENGTH, REPLAY_WINDOW_HOURS } from './idempotency.rules.js';

export const IDEMPOTENT = 'idempotency:enabled';

/**
 * Makes a POST route safe to retry with an `Idempotency-Key` header (DESIGN §6): the same key and body
 * within 24 h replay the first answer (status and body, with `Idempotent-Replayed: true`); another body
 * is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 IDEMPOTENCY_KEY_IN_USE.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        `1–${KEY_MAX_LENGTH} characters, unique per intended operation. Retrying with the same key and ` +
        `body within ${REPLAY_WINDOW_HOURS} h replays the first answer (same status and body, header ` +
        '`Idempotent-Replayed: true`) instead of acting twice. 5xx answers are not kept.',
      schema: { type: 'string', minLength: 1, maxLength: KEY_MAX_LENGTH },
    }),
    // A key of the wrong length is 400 VALIDATION_FAILED, also on routes that take no body.
    ApiErrors(400, 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'),
  );
}
