import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { AppRequest } from '#app/common/http/request-context.js';
import { type ErrorResponse, toErrorResponse } from './error-response.js';
import { orderFailure, PROBLEM_CONTENT_TYPE, problem } from './problem.js';

/** Answers every failure as problem+json (or the order endpoints' own body) and hides the inside of 5xx. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<AppRequest>();
    const res = http.getResponse<Response>();
    sendError(exception, req, res, this.logger);
  }
}

export function sendError(exception: unknown, req: AppRequest, res: Response, logger: Logger): void {
  const error = toErrorResponse(exception);
  if (error.internal) {
    logger.error({ err: exception, request_id: req.id }, 'request failed');
  }
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  const payload = errorPayload(error, req);
  res.status(error.status).type(payload.contentType).send(JSON.stringify(payload.body));
}

/**
 * The body and content type a failure is answered with: the order endpoints' own shape, else problem
 * details. Shared with the idempotency interceptor, which stores exactly what the client was sent.
 */
export function errorPayload(
  error: ErrorResponse,
  req: AppRequest,
): { contentType: string; body: Record<string, unknown> } {
  if (req.errorShape === 'order') {
    return {
      contentType: 'application/json',
      body: { ...orderFailure(error.code, error.detail, error.errors) },
    };
  }
  return {
    contentType: PROBLEM_CONTENT_TYPE,
    body: { ...problem(error.status, error.code, error.detail, req.id, error.errors) },
  };
}
