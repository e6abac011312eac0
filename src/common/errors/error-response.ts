import { HttpException, HttpStatus } from '@nestjs/common';
import { AppException, type FieldError } from './app.exception.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { codeForStatus } from './problem.js';

/** What any thrown value means to a client: status, code, text, field errors and headers. */
export interface ErrorResponse {
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** True when the failure is ours, not the client's: logged with its stack, never shown. */
  internal: boolean;
}

function isHttpError(error: unknown): error is { status: number; type?: string; expose?: boolean } {
  return (
    typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number'
  );
}

/** body-parser's error `type` for a body the service refuses before parsing; its message is the detail. */
export const REFUSED_BODY_TYPE = 'entity.refused';

export const DATABASE_UNAVAILABLE_DETAIL =
  'The service cannot reach its database right now; try again in a few seconds.';

export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof AppException) {
    const { status, code, detail, errors, headers } = error;
    return { status, code, detail, errors, headers, internal: false };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const body = error.getResponse();
    const message =
      typeof body === 'string' ? body : ((body as { message?: unknown }).message as string | undefined);
    const detail =
      status >= 500 ? 'An unexpected error occurred.' : typeof message === 'string' ? message : error.message;
    return { status, code: codeForStatus(status), detail, internal: status >= 500 };
  }
  // Errors raised by Express middleware (body-parser): malformed JSON, oversized or too deeply nested
  // body, bad charset.
  if (isHttpError(error) && error.status >= 400 && error.status < 500 && error.type) {
    const detail =
      error.type === 'entity.parse.failed'
        ? 'The request body is not valid JSON.'
        : error.type === 'entity.too.large'
          ? 'The request body is too large.'
          : error.type === REFUSED_BODY_TYPE && error instanceof Error
            ? error.message
            : 'The request body could not be read.';
    const { errors } = error as { errors?: FieldError[] };
    return {
      status: error.status,
      code: codeForStatus(error.status),
      detail,
      ...(error.type === REFUSED_BODY_TYPE && errors?.length ? { errors } : {}),
      internal: false,
    };
  }
  // The database restarting or unreachable: a transaction cut off is rolled back with its connection (one
  // whose COMMIT went but whose answer was lost has taken effect, and the retry finds it done), so the
  // client may send the same request again.
  if (isDatabaseUnavailable(error)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      code: 'DATABASE_UNAVAILABLE',
      detail: DATABASE_UNAVAILABLE_DETAIL,
      headers: { 'Retry-After': '5' },
      internal: true,
    };
  }
  return { status: 500, code: 'INTERNAL_ERROR', detail: 'An unexpected error occurred.', internal: true };
}
