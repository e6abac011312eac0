import { type ExecutionContext, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { AppException } from '#app/common/errors/app.exception.js';
import { RateLimit } from './rate-limit.decorator.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import type { RateLimitSettings } from './rate-limit-settings.js';
import { RATE_LIMITS } from './rate-limit.rules.js';

class Routes {
  @RateLimit(...RATE_LIMITS.login)
  login(): void {}

  @RateLimit({ name: 'tiny', limit: 1, ttlSeconds: 30, by: 'ip' })
  tiny(): void {}

  open(): void {}
}

function contextFor(
  handler: keyof Routes,
  req: { ip?: string; body?: unknown; query?: unknown; headers?: Record<string, unknown> },
): ExecutionContext {
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

  describe('at the limits a site sets itself', () => {
    const settings: Record<string, Record<string, unknown> | null> = {
      strict: { rate_limits: { 'login-ip': 2 } },
      roomy: { rate_limits: { 'login-ip': 12 } },
    };
    const sites: RateLimitSettings = { settingsOf: (id) => Promise.resolve(settings[id] ?? null) };
    const login = (ip: string, site: string, n: number) =>
      contextFor('login', { ip, body: { email: `u${n}@x.y`, site_id: site } });

    it('refuses past a lower limit and lets through up to a higher one; an unknown site has the default', async () => {
      const sited = new RateLimitGuard(new Reflector(), storage, sites);
      for (let n = 0; n < 2; n++)
        await expect(sited.canActivate(login('5.5.5.1', 'strict', n))).resolves.toBe(true);
      expect((await rejection(sited.canActivate(login('5.5.5.1', 'strict', 2)))).status).toBe(429);
      for (let n = 0; n < 12; n++)
        await expect(sited.canActivate(login('5.5.5.2', 'roomy', n))).resolves.toBe(true);
      expect((await rejection(sited.canActivate(login('5.5.5.2', 'roomy', 12)))).status).toBe(429);
      for (let n = 0; n < 10; n++)
        await expect(sited.canActivate(login('5.5.5.3', 'nowhere', n))).resolves.toBe(true);
      expect((await rejection(sited.canActivate(login('5.5.5.3', 'nowhere', 10)))).status).toBe(429);
    });

    it('keeps one count per IP whatever site it names: a new site id is no new budget', async () => {
      const sited = new RateLimitGuard(new Reflector(), storage, sites);
      for (let n = 0; n < 10; n++)
        await expect(sited.canActivate(login('5.5.5.4', `junk-${n}`, n))).resolves.toBe(true);
      expect((await rejection(sited.canActivate(login('5.5.5.4', 'junk-x', 10)))).status).toBe(429);
    });

    it('blocks an IP past a site’s lower limit on that site only', async () => {
      const sited = new RateLimitGuard(new Reflector(), storage, sites);
      for (let n = 0; n < 2; n++) await sited.canActivate(login('5.5.5.6', 'strict', n));
      expect((await rejection(sited.canActivate(login('5.5.5.6', 'strict', 2)))).status).toBe(429);
      await expect(sited.canActivate(login('5.5.5.6', 'nowhere', 3))).resolves.toBe(true);
    });

    it('holds a site’s limit however the request names the site: query or X-Site-Id as well as body', async () => {
      const sited = new RateLimitGuard(new Reflector(), storage, sites);
      const byQuery = (n: number) =>
        contextFor('login', { ip: '5.5.5.7', query: { site_id: 'strict' }, body: { email: `q${n}@x.y` } });
      for (let n = 0; n < 2; n++) await expect(sited.canActivate(byQuery(n))).resolves.toBe(true);
      expect((await rejection(sited.canActivate(byQuery(2)))).status).toBe(429);
      const byHeader = (n: number) =>
        contextFor('login', {
          ip: '5.5.5.8',
          headers: { 'x-site-id': 'strict' },
          body: { email: `h${n}@x.y` },
        });
      for (let n = 0; n < 2; n++) await expect(sited.canActivate(byHeader(n))).resolves.toBe(true);
      expect((await rejection(sited.canActivate(byHeader(2)))).status).toBe(429);
    });

    it('falls back to the defaults when the settings cannot be read', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const down: RateLimitSettings = { settingsOf: () => Promise.reject(new Error('database away')) };
      const sited = new RateLimitGuard(new Reflector(), storage, down);
      for (let n = 0; n < 10; n++)
        await expect(sited.canActivate(login('5.5.5.5', 'strict', n))).resolves.toBe(true);
      expect((await rejection(sited.canActivate(login('5.5.5.5', 'strict', 10)))).status).toBe(429);
      warn.mockRestore();
    });
  });
});
