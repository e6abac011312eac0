import { HealthIndicatorService } from '@nestjs/terminus';
import type { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { JobsHealthIndicator } from './jobs.health.js';

describe('JobsHealthIndicator', () => {
  const indicatorFor = (running: boolean) =>
    new JobsHealthIndicator(new HealthIndicatorService(), { isRunning: () => running } as JobQueue);

  it('is up while the queue runs', () => {
    expect(indicatorFor(true).isHealthy('jobs')).toEqual({ jobs: { status: 'up' } });
  });

  it('is down otherwise', () => {
    expect(indicatorFor(false).isHealthy('jobs')).toEqual({
      jobs: { status: 'down', message: 'job queue is not running' },
    });
  });
});
