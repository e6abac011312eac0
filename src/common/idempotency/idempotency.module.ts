import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** Hourly, at a minute unlikely to collide with other housekeeping. */
export const IDEMPOTENCY_CLEANUP_CRON = '17 * * * *';

/** `@Idempotent()` for any route: the interceptor is global and acts only on decorated handlers. */
@Module({
  providers: [IdempotencyRepository, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
})
export class IdempotencyModule implements OnModuleInit {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly jobs: JobQueue,
    private readonly keys: IdempotencyRepository,
  ) {}

  onModuleInit(): void {
    this.jobs.register('idempotency.cleanup', async () => {
      const purged = await this.keys.purgeExpired();
      if (purged) this.logger.log({ purged }, 'expired idempotency keys purged');
    });
    this.jobs.schedule('idempotency.cleanup', IDEMPOTENCY_CLEANUP_CRON, {});
  }
}
