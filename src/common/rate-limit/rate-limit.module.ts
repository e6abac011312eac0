import { Global, Inject, Logger, Module, type OnModuleDestroy } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Redis } from 'ioredis';
import { AppConfig } from '#app/config/app-config.js';

/** The Redis client behind the rate limits, or null when REDIS_URL is unset (in-memory counters). */
export const RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');

function connect(url: string): Redis {
  const logger = new Logger('RateLimit');
  // Few retries per command: the guard fails open rather than holding requests while Redis is away.
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  // Without a listener ioredis reports every reconnect failure as an unhandled 'error' event.
  redis.on('error', (error: Error) => logger.warn({ err: error }, 'rate limit Redis error'));
  return redis;
}

/**
 * Provides the ThrottlerStorage the RateLimitGuard counts in: Redis when configured (shared by all
 * instances, DESIGN §2), else in process memory (its sweep timer is cleared by its own
 * onApplicationShutdown). Tests can override `ThrottlerStorage` to lift the limits.
 */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMIT_REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig): Redis | null => (config.redisUrl ? connect(config.redisUrl) : null),
    },
    {
      provide: ThrottlerStorage,
      inject: [RATE_LIMIT_REDIS],
      useFactory: (redis: Redis | null): ThrottlerStorage =>
        // Given a client, the Redis storage does not close it: onModuleDestroy below does.
        redis ? new ThrottlerStorageRedisService(redis) : new ThrottlerStorageService(),
    },
  ],
  exports: [ThrottlerStorage],
})
export class RateLimitModule implements OnModuleDestroy {
  constructor(@Inject(RATE_LIMIT_REDIS) private readonly redis: Redis | null) {}

  async onModuleDestroy(): Promise<void> {
    if (!this.redis) return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
