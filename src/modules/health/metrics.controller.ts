import { Controller, Get, Header, Headers } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { Public } from '#app/common/auth/auth.decorators.js';
import { sameSecretText } from '#app/common/crypto/constant-time.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { AppConfig } from '#app/config/app-config.js';
import { MetricsService } from './metrics.service.js';

/**
 * Whether a scrape may read the metrics: always when no METRICS_TOKEN is configured, else only with
 * `Authorization: Bearer <METRICS_TOKEN>`. Compared in constant time.
 */
export function metricsAuthorized(expected: string | undefined, authorization: string | undefined): boolean {
  if (!expected) return true;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && sameSecretText(given, expected);
}

@ApiTags('ops')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  /** Public to the JWT guard (the token here is not a user's); METRICS_TOKEN guards it instead. */
  @Get()
  @Public()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'Public unless METRICS_TOKEN is configured; then `Authorization: Bearer <METRICS_TOKEN>` (not a user token).',
  })
  @ApiOkResponse({ description: 'Prometheus exposition format, version 0.0.4.', schema: { type: 'string' } })
  @ApiErrors({ code: 'UNAUTHENTICATED', detail: 'A valid metrics token is required.' })
  async scrape(@Headers('authorization') authorization: string | undefined): Promise<string> {
    if (!metricsAuthorized(this.config.metricsToken, authorization)) {
      throw AppException.unauthenticated('A valid metrics token is required.');
    }
    return this.metrics.render();
  }
}
