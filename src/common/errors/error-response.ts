import { HttpException, HttpStatus } from '@nestjs/common';
import { AppException, type FieldError } from './app.exception.js';
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

const DATABASE_DOWN =
  /ECONNREFUSED|Connection terminated|connect ETIMEDOUT|timeout exceeded when trying to connect/;

function isHttpError(error: unknown): error is { status: number; type?: string; expose?: boolean } {
  return (
    typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number'
  );
}

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
          : error.type === 'entity.too.deep' && error instanceof Error
            ? error.message
            : 'The request body could not be read.';
    return { status: error.status, code: codeForStatus(error.status), detail, internal: false };
  }
  if (error instanceof Error && DATABASE_DOWN.test(error.message)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      code: 'SERVICE_UNAVAILABLE',
      detail: 'The service is temporarily unavailable.',
      headers: { 'Retry-After': '5' },
      internal: true,
    };
  }
  return { status: 500, code: 'INTERNAL_ERROR', detail: 'An unexpected error occurred.', internal: true };
}
