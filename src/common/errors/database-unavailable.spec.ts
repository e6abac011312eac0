import { HttpStatus } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { toErrorResponse } from './error-response.js';

/** An error as `pg` raises it: a message, and the socket's or the server's code. */
function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe('a database that went away', () => {
  it.each([
    ['the pool cannot connect (refused)', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['the connection was reset', pgError('read ECONNRESET', 'ECONNRESET')],
    ['the connection ended under a query', pgError('Connection terminated unexpectedly')],
    ['the pool gave up waiting for a connection', pgError('timeout exceeded when trying to connect')],
    [
      'a client that died is used again',
      pgError('Client has encountered a connection error and is not queryable'),
    ],
    [
      'the server shuts down (57P01)',
      pgError('terminating connection due to administrator command', '57P01'),
    ],
    ['the server is starting up (57P03)', pgError('the database system is starting up', '57P03')],
    ['a connection exception (08006)', pgError('connection failure', '08006')],
    ['the server is full (53300)', pgError('sorry, too many clients already', '53300')],
  ])('is recognised: %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is recognised inside TypeORM’s QueryFailedError', () => {
    const wrapped = new QueryFailedError('SELECT 1', [], pgError('read ECONNRESET', 'ECONNRESET'));
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', pgError('syntax error at or near "SELEC"', '42601')],
    ['a serialisation failure', pgError('could not serialize access', '40001')],
    [
      'a provider that refused (its socket error rides in `cause`)',
      new TypeError('fetch failed', { cause: pgError('connect ECONNREFUSED', 'ECONNREFUSED') }),
    ],
    ['a value that is not an error', 'ECONNRESET'],
  ])('is not mistaken for: %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('is answered 503 DATABASE_UNAVAILABLE with Retry-After, logged as ours, its words never shown', () => {
    const answer = toErrorResponse(
      new QueryFailedError('SELECT secret FROM t', [], pgError('Connection terminated unexpectedly')),
    );
    expect(answer).toMatchObject({
      status: HttpStatus.SERVICE_UNAVAILABLE,
      code: 'DATABASE_UNAVAILABLE',
      headers: { 'Retry-After': '5' },
      internal: true,
    });
    expect(answer.detail).not.toMatch(/SELECT|terminated/);
  });

  it('leaves a statement the database refused a 500', () => {
    expect(toErrorResponse(new QueryFailedError('SELECT', [], pgError('boom', '42703')))).toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
    });
  });
});
