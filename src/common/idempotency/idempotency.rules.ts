import { createHash } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';

/**
 * Rules of the `Idempotency-Key` header (DESIGN §6), as plain functions.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const KEY_MAX_LENGTH = 255;
/** A completed answer is replayed for this long after the first request. */
export const REPLAY_WINDOW_HOURS = 24;
/**
 * How long an in-progress claim holds its key. A process that dies mid-request leaves its claim behind;
 * after this lease a retry may run again instead of hearing 409 for a whole day.
 */
export const CLAIM_LEASE_SECONDS = 300;

/** The header's key; undefined when absent; 400 when empty or longer than 255 characters. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (key.length < 1 || key.length > KEY_MAX_LENGTH)
    throw AppException.validation(
      [{ field: IDEMPOTENCY_HEADER, message: `must be 1 to ${KEY_MAX_LENGTH} characters` }],
      'The Idempotency-Key header is not valid.',
    );
  return key;
}

/**
 * A key belongs to a route and a caller; anonymous callers share the route's space on the site the request
 * acts on (the key and the site), so one key used on two sites is two requests, not a replay of the
 * first site's answer. A signed-in caller's own space is already of one site.
 */
export function idempotencyScope(
  method: string,
  routePath: string,
  userId: string | undefined,
  siteId?: string,
): string {
  const caller = userId ? `user:${userId}` : siteId ? `anon site:${siteId}` : 'anon';
  return `${method.toUpperCase()} ${routePath} ${caller}`;
}

/** JSON with object keys sorted at every depth, so the same content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const object = value as Record<string, unknown>;
  const fields = Object.keys(object)
    .filter((name) => object[name] !== undefined)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalJson(object[name])}`);
  return `{${fields.join(',')}}`;
}

/** What makes two requests "the same": the concrete path (ids in it), the query and the JSON body. */
export function requestHash(request: { path: string; query: unknown; body: unknown }): string {
  return createHash('sha256')
    .update(canonicalJson({ path: request.path, query: request.query ?? {}, body: request.body ?? null }))
    .digest('hex');
}

export type ExistingKeyOutcome = 'replay' | 'in_use' | 'reused';

/** A key already claimed: another body is 422, a first request still running is 409, else replay. */
export function existingKeyOutcome(
  row: { request_hash: string; state: 'in_progress' | 'completed' },
  hash: string,
): ExistingKeyOutcome {
  if (row.request_hash !== hash) return 'reused';
  return row.state === 'completed' ? 'replay' : 'in_use';
}

/**
 * Whether an answer is kept for replay: every status except 5xx (a retry after a fault should run
 * again), and except validation failures (400 VALIDATION_FAILED), which never passed validation.
 */
export function shouldStore(status: number, code?: string): boolean {
  if (status >= 500) return false;
  return !(status === 400 && code === 'VALIDATION_FAILED');
}

export const IDEMPOTENCY_ERRORS = {
  reused: () =>
    AppException.unprocessable(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with a different request; use a new key for a new request.',
    ),
  inUse: () =>
    new AppException(
      HttpStatus.CONFLICT,
      'IDEMPOTENCY_KEY_IN_USE',
      'A request with this Idempotency-Key is still being processed; retry shortly.',
      undefined,
      { 'Retry-After': '1' },
    ),
};
