import { HttpStatus } from '@nestjs/common';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * A failure the client should see, with a stable UPPER_SNAKE `code` (DESIGN §4). Features throw these
 * (or subclasses); the global filter turns them into RFC 9457 problem details.
 */
export class AppException extends Error {
  constructor(
    readonly status: HttpStatus,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = new.target.name;
  }

  static validation(errors: FieldError[], detail = 'The request is not valid.'): AppException {
    return new AppException(HttpStatus.BAD_REQUEST, 'VALIDATION_FAILED', detail, errors);
  }

  static unauthenticated(detail = 'A valid access token is required.'): AppException {
    return new AppException(HttpStatus.UNAUTHORIZED, 'UNAUTHENTICATED', detail);
  }

  static forbidden(detail = 'You are not allowed to do this.'): AppException {
    return new AppException(HttpStatus.FORBIDDEN, 'FORBIDDEN', detail);
  }

  static notFound(what = 'Resource'): AppException {
    return new AppException(HttpStatus.NOT_FOUND, 'NOT_FOUND', `${what} not found.`);
  }

  static conflict(code: string, detail: string): AppException {
    return new AppException(HttpStatus.CONFLICT, code, detail);
  }

  /** A business rule broken; `errors` names the fields it concerns, where it is about some. */
  static unprocessable(code: string, detail: string, errors?: FieldError[]): AppException {
    return new AppException(HttpStatus.UNPROCESSABLE_ENTITY, code, detail, errors);
  }
}
