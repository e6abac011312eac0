import { randomUUID } from 'node:crypto';
import type { NextFunction, Response } from 'express';
import type { AppRequest } from './request-context.js';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's X-Request-Id when it is sane, else makes one; echoes it on every response. */
export function requestId(req: AppRequest, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  req.id = typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', req.id);
  next();
}
