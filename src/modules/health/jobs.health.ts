import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';

/** Ready only once the job queue has started: enqueueing inside business transactions needs it. */
@Injectable()
export class JobsHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly queue: JobQueue,
  ) {}

  isHealthy<const Key extends string>(key: Key) {
    const indicator = this.health.check(key);
    return this.queue.isRunning() ? indicator.up() : indicator.down({ message: 'job queue is not running' });
  }
}
