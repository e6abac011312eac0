import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

type HttpLabels = 'method' | 'route' | 'status';

/**
 * Prometheus metrics on a registry of this application's own, not prom-client's global one, so that
 * several apps booted in one process (tests) do not collide with "metric already registered".
 */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<HttpLabels>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram<HttpLabels>({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
  }

  observeHttp(labels: Record<HttpLabels, string>, seconds: number): void {
    this.httpDuration.observe(labels, seconds);
  }

  /** A gauge whose value is read from `read` each time the metrics are scraped (nothing on any hot path). */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** The exposition text (`text/plain; version=0.0.4`). */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  onModuleDestroy(): void {
    this.registry.clear();
  }
}

/**
 * The route pattern (`/raffles/:id`), never the concrete path: label values must stay few, and ids in
 * them would grow the series without bound. Requests that matched no route share one label.
 */
export function routeLabel(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}

/** Express middleware timing every request; install it before anything that may answer early. */
export function metricsMiddleware(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      metrics.observeHttp(
        { method: req.method, route: routeLabel(req), status: String(res.statusCode) },
        seconds,
      );
    });
    next();
  };
}
