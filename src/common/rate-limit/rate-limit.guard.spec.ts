import { type ExecutionContext, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { AppException } from '#app/common/errors/app.exception.js';
import { RateLimit } from './rate-limit.decorator.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RATE_LIMITS } from './rate-limit.rules.js';

class Routes {
  @RateLimit(...RATE_LIMITS.login)
  login(): void {}

  @RateLimit({ name: 'tiny', limit: 1, ttlSeconds: 30, by: 'ip' })
  tiny(): void {}

  open(): void {}
}

function contextFor(handler: keyof Routes, req: { ip?: string; body?: unknown }): ExecutionContext {
  return {
    getType: () => 'http',
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
}

async function rejection(promise: Promise<unknown>): Promise<AppException> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppException) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('RateLimitGuard', () => {
  let storage: ThrottlerStorageService;
  let guard: RateLimitGuard;

  beforeEach(() => {
    storage = new ThrottlerStorageService();
    guard = new RateLimitGuard(new Reflector(), storage);
  });

  afterEach(() => {
    storage.onApplicationShutdown();
  });

  it('lets routes without rules through', async () => {
    for (let i = 0; i < 50; i++)
      await expect(guard.canActivate(contextFor('open', { ip: '1.1.1.1' }))).resolves.toBe(true);
  });

  it('answers 429 RATE_LIMITED with Retry-After past the limit', async () => {
    await expect(guard.canActivate(contextFor('tiny', { ip: '1.1.1.1' }))).resolves.toBe(true);
    const error = await rejection(guard.canActivate(contextFor('tiny', { ip: '1.1.1.1' })));
    expect(error.status).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(error.headers?.['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // Another client is not affected.
    await expect(guard.canActivate(contextFor('tiny', { ip: '2.2.2.2' }))).resolves.toBe(true);
  });

  it('limits login per e-mail across IPs (10/min)', async () => {
    const body = { email: 'Jane@example.com', site_id: 's1', password: 'x' };
    for (let i = 0; i < 10; i++) {
      await expect(guard.canActivate(contextFor('login', { ip: `10.0.0.${i}`, body }))).resolves.toBe(true);
    }
    const error = await rejection(
      guard.canActivate(
        contextFor('login', { ip: '10.0.1.1', body: { ...body, email: 'jane@EXAMPLE.com' } }),
      ),
    );
    expect(error.status).toBe(429);
    // The same address on another site is a different account.
    await expect(
      guard.canActivate(contextFor('login', { ip: '10.0.1.2', body: { ...body, site_id: 's2' } })),
    ).resolves.toBe(true);
  });

  it('limits login per IP across e-mails (10/min)', async () => {
    for (let i = 0; i < 10; i++) {
      await guard.canActivate(
        contextFor('login', { ip: '9.9.9.9', body: { email: `u${i}@x.y`, site_id: 's' } }),
      );
    }
    const error = await rejection(
      guard.canActivate(contextFor('login', { ip: '9.9.9.9', body: { email: 'new@x.y' } })),
    );
    expect(error.status).toBe(429);
  });

  it('fails open when the storage is unavailable', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const broken: ThrottlerStorage = { increment: () => Promise.reject(new Error('ECONNREFUSED')) };
    const lenient = new RateLimitGuard(new Reflector(), broken);
    await expect(lenient.canActivate(contextFor('tiny', { ip: '1.1.1.1' }))).resolves.toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
