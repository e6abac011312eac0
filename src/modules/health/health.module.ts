import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { HttpDrain } from './http-drain.js';
import { JobsHealthIndicator } from './jobs.health.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

/**
 * Ops endpoints (DESIGN §9): liveness, readiness, Prometheus metrics. MetricsService is exported for
 * the timing middleware installed in app.setup.ts; HttpDrain for main.ts's graceful shutdown.
 */
@Module({
  imports: [TerminusModule.forRoot()],
  controllers: [HealthController, MetricsController],
  providers: [JobsHealthIndicator, MetricsService, HttpDrain],
  exports: [MetricsService, HttpDrain],
})
export class HealthModule {}
