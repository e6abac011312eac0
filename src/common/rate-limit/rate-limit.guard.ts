import {
  type CanActivate,
  type ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  Optional,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { AppRequest } from '#app/common/http/request-context.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { RATE_LIMIT_RULES } from './rate-limit.decorator.js';
import { RateLimitSettings } from './rate-limit-settings.js';
import { rateLimitKey, rateLimitSite, type RateRule, siteLimit } from './rate-limit.rules.js';
import { namedSite, siteSources } from '#app/common/auth/site-scope.js';

/**
 * Applies the `@RateLimit(...)` rules of a route (DESIGN §9), at the limits the site the request names has
 * set (`siteLimit`), else the defaults. Registered globally; routes without rules pass untouched. Counters
 * live in the shared ThrottlerStorage (Redis when configured), so the limits hold across instances.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger(RateLimitGuard.name);

  constructor(
    private readonly reflector: Reflector,
    @Inject(ThrottlerStorage) private readonly storage: ThrottlerStorage,
    @Optional() private readonly sites?: RateLimitSettings,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const rules = this.reflector.getAllAndOverride<readonly RateRule[] | undefined>(RATE_LIMIT_RULES, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rules?.length) return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    // The site the request names, read as the site scope reads it (which refuses one naming two), so
    // that its limits are those of the site the route acts on, however the site is named.
    const site = rateLimitSite(namedSite(siteSources(req)));
    const settings = await this.settingsOf(site);
    let retryAfter = 0;
    // Every rule counts the attempt, even once one is exceeded, so that no counter can be dodged.
    for (const rule of rules) {
      const limit = siteLimit(rule, settings);
      const key = rateLimitKey(rule, { ip: req.ip, body: req.body as unknown, site }, limit);
      if (!key) continue;
      const blockedFor = await this.hit(key, rule, limit);
      retryAfter = Math.max(retryAfter, blockedFor);
    }
    if (retryAfter > 0) {
      throw new AppException(
        HttpStatus.TOO_MANY_REQUESTS,
        'RATE_LIMITED',
        'Too many requests; try again later.',
        undefined,
        {
          'Retry-After': String(retryAfter),
        },
      );
    }
    return true;
  }

  /**
   * The named site's settings (from the sites feature's cached copy), or null: no site named, no such site,
   * or the settings could not be read, when the defaults apply rather than the request failing.
   */
  private async settingsOf(site: string): Promise<Record<string, unknown> | null> {
    if (!site || !this.sites) return null;
    try {
      return await this.sites.settingsOf(site);
    } catch (error) {
      this.logger.warn({ err: error }, 'site settings unavailable; default rate limits applied');
      return null;
    }
  }

  /** Seconds the key is blocked for (0 when under `limit`). */
  private async hit(key: string, rule: RateRule, limit: number): Promise<number> {
    const ttlMs = rule.ttlSeconds * 1000;
    try {
      // Blocked for one window once over the limit, as @nestjs/throttler's own guard does.
      const record = await this.storage.increment(key, ttlMs, limit, ttlMs, rule.name);
      return record.isBlocked ? Math.max(1, record.timeToBlockExpire) : 0;
    } catch (error) {
      // Fail open: a Redis outage must not take login down with it. The key holds an e-mail: not logged.
      this.logger.warn({ err: error, rule: rule.name }, 'rate limit storage unavailable; request allowed');
      return 0;
    }
  }
}
