import { STATUS_CODES } from 'node:http';
import type { FieldError } from './app.exception.js';

/** RFC 9457 problem details, as every error outside endpoints 3 and 4 is answered (DESIGN §4). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  errors?: FieldError[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problem(
  status: number,
  code: string,
  detail: string,
  requestId: string,
  errors?: FieldError[],
): Problem {
  return {
    type: `about:blank#${code.toLowerCase()}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
    request_id: requestId,
    ...(errors?.length ? { errors } : {}),
  };
}

/** The order endpoints' own failure body (endpoints 3 and 4, DESIGN §4). */
export interface OrderFailure {
  success: false;
  error: string;
  error_code: string;
  message: string;
}

export function orderFailure(code: string, detail: string, errors?: FieldError[]): OrderFailure {
  return {
    success: false,
    error: detail,
    error_code: code,
    message: errors?.map((e) => `${e.field}: ${e.message}`).join('; ') || detail,
  };
}

/** Codes for failures raised by the framework itself rather than by a feature. */
export function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'VALIDATION_FAILED';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 422:
      return 'UNPROCESSABLE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL_ERROR' : 'ERROR';
  }
}
