import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { JobsHealthIndicator } from './jobs.health.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

/**
 * Ops endpoints (DESIGN §9): liveness, readiness, Prometheus metrics. MetricsService is exported for
 * the timing middleware installed in app.setup.ts.
 */
@Module({
  imports: [TerminusModule.forRoot()],
  controllers: [HealthController, MetricsController],
  providers: [JobsHealthIndicator, MetricsService],
  exports: [MetricsService],
})
export class HealthModule {}
