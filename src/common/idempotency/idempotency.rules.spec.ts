import { AppException } from '#app/common/errors/app.exception.js';
import {
  canonicalJson,
  existingKeyOutcome,
  idempotencyScope,
  parseIdempotencyKey,
  requestHash,
  shouldStore,
} from './idempotency.rules.js';

describe('the Idempotency-Key header', () => {
  it('is optional, and takes 1 to 255 characters', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('a')).toBe('a');
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });

  it('refuses an empty or overlong key with a 400 naming the header', () => {
    for (const bad of ['', 'k'.repeat(256)]) {
      let error: unknown;
      try {
        parseIdempotencyKey(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppException);
      expect(error).toMatchObject({ status: 400, errors: [{ field: 'Idempotency-Key' }] });
    }
  });
});

describe('what a key belongs to', () => {
  it('is the route and the caller, or the route alone for anonymous calls', () => {
    expect(idempotencyScope('post', '/raffles/:id/entries', 'u1')).toBe('POST /raffles/:id/entries user:u1');
    expect(idempotencyScope('POST', '/gatewayone/create-order', undefined)).toBe(
      'POST /gatewayone/create-order anon',
    );
  });

  it('is of the site an anonymous call acts on: one key on two sites is two requests', () => {
    expect(idempotencyScope('POST', '/gatewayone/create-order', undefined, 'a')).not.toBe(
      idempotencyScope('POST', '/gatewayone/create-order', undefined, 'b'),
    );
    expect(idempotencyScope('POST', '/raffles/:id/entries', 'u1', 'a')).toBe(
      'POST /raffles/:id/entries user:u1',
    );
  });
});

describe('what makes two requests the same', () => {
  it('ignores the order of object keys at every depth, but not of array items', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(new Date('2026-01-01T00:00:00Z'))).toBe('"2026-01-01T00:00:00.000Z"');
  });

  it('hashes the concrete path, the query and the body', () => {
    const base = { path: '/raffles/1/entries', query: {}, body: { quantity: 2, method: 'points' } };
    const hash = requestHash(base);
    expect(requestHash({ ...base, body: { method: 'points', quantity: 2 } })).toBe(hash);
    expect(requestHash({ ...base, body: { method: 'points', quantity: 3 } })).not.toBe(hash);
    expect(requestHash({ ...base, path: '/raffles/2/entries' })).not.toBe(hash);
    expect(requestHash({ ...base, query: { site_id: 'b' } })).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('a key that is already taken', () => {
  it('replays a finished answer, is busy while running, and refuses another request', () => {
    expect(existingKeyOutcome({ request_hash: 'h', state: 'completed' }, 'h')).toBe('replay');
    expect(existingKeyOutcome({ request_hash: 'h', state: 'in_progress' }, 'h')).toBe('in_use');
    expect(existingKeyOutcome({ request_hash: 'h', state: 'completed' }, 'other')).toBe('reused');
    expect(existingKeyOutcome({ request_hash: 'h', state: 'in_progress' }, 'other')).toBe('reused');
  });
});

describe('which answers are kept', () => {
  it('keeps successes and client errors, but not faults or validation failures', () => {
    expect(shouldStore(201)).toBe(true);
    expect(shouldStore(200)).toBe(true);
    expect(shouldStore(404, 'NOT_FOUND')).toBe(true);
    expect(shouldStore(422, 'INSUFFICIENT_POINTS')).toBe(true);
    expect(shouldStore(400, 'AMOUNT_MISMATCH')).toBe(true);
    expect(shouldStore(400, 'VALIDATION_FAILED')).toBe(false);
    expect(shouldStore(500, 'INTERNAL_ERROR')).toBe(false);
    expect(shouldStore(502, 'GATEWAY_ERROR')).toBe(false);
    expect(shouldStore(503, 'SERVICE_UNAVAILABLE')).toBe(false);
  });
});
