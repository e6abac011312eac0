import express from 'express';
import request from 'supertest';
import { metricsAuthorized } from './metrics.controller.js';
import { MetricsService, metricsMiddleware } from './metrics.service.js';

describe('metricsAuthorized', () => {
  it('is open without a configured token', () => {
    expect(metricsAuthorized(undefined, undefined)).toBe(true);
  });

  it('wants the exact Bearer token when one is configured', () => {
    expect(metricsAuthorized('s3cret', 'Bearer s3cret')).toBe(true);
    expect(metricsAuthorized('s3cret', 'bearer s3cret')).toBe(true);
    expect(metricsAuthorized('s3cret', undefined)).toBe(false);
    expect(metricsAuthorized('s3cret', 'Bearer s3cre')).toBe(false);
    expect(metricsAuthorized('s3cret', 'Bearer s3cret-and-more')).toBe(false);
    expect(metricsAuthorized('s3cret', 's3cret')).toBe(false);
    expect(metricsAuthorized('s3cret', 'Basic s3cret')).toBe(false);
  });
});

describe('MetricsService and metricsMiddleware', () => {
  it('records durations by route pattern and status, on a registry of its own', async () => {
    const metrics = new MetricsService();
    // A second instance in the same process must not collide ("already registered").
    const other = new MetricsService();
    const app = express();
    app.use(metricsMiddleware(metrics));
    const router = express.Router();
    router.get('/:id', (_req, res) => {
      res.status(201).send('ok');
    });
    app.use('/raffles', router);

    await request(app).get('/raffles/abc').expect(201);
    await request(app).get('/raffles/def').expect(201);
    await request(app).get('/nowhere').expect(404);

    const text = await metrics.render();
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/raffles/:id",status="201"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1',
    );
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(await other.render()).not.toContain('route="/raffles/:id"');
    metrics.onModuleDestroy();
    other.onModuleDestroy();
  });
});
