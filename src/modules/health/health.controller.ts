import { Controller, Get, Header, HttpStatus, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, type HealthCheckResult, TypeOrmHealthIndicator } from '@nestjs/terminus';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  type ApiPropertyOptions,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from '#app/common/auth/auth.decorators.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { HttpDrain } from './http-drain.js';
import { JobsHealthIndicator } from './jobs.health.js';

class LivenessDto {
  @ApiProperty({ type: String, enum: ['ok'], example: 'ok' }) status!: 'ok';
  @ApiProperty({ type: Number, example: 42.5, description: 'Seconds since the process started.' })
  uptime_seconds!: number;
}

/** Terminus' per-indicator map: `{ database: { status: 'up' }, ... }`. */
const INDICATORS: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['up', 'down', 'degraded'] } },
    additionalProperties: true,
  },
  example: { database: { status: 'up' }, jobs: { status: 'up' } },
};

class ReadinessDto {
  @ApiProperty({ type: String, enum: ['ok', 'degraded'], example: 'ok' }) status!: string;
  @ApiPropertyOptional(INDICATORS) info?: Record<string, unknown>;
  @ApiPropertyOptional(INDICATORS) error?: Record<string, unknown>;
  @ApiProperty(INDICATORS) details!: Record<string, unknown>;
}

/** Database pings wait behind an open transaction on the embedded PGlite (STACK.md); allow for one. */
const DATABASE_TIMEOUT_MS = 2000;

@ApiTags('ops')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly jobs: JobsHealthIndicator,
    private readonly drain: HttpDrain,
  ) {}

  /** The process answers: nothing else is checked, so a slow database never gets the instance restarted. */
  @Get('live')
  @Public()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Liveness: the process answers',
    description: 'Checks nothing else, so a slow database never gets the instance restarted.',
  })
  @ApiOkResponse({ type: LivenessDto, description: 'The process is up.' })
  live(): LivenessDto {
    return { status: 'ok', uptime_seconds: Math.round(process.uptime() * 10) / 10 };
  }

  /** Whether this instance should receive traffic: database reachable and job queue started. */
  @Get('ready')
  @Public()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Readiness: database and job queue are up',
    description:
      'Whether this instance should receive traffic; 503 while a dependency is down or it shuts down.',
  })
  @ApiOkResponse({ type: ReadinessDto, description: 'Database and job queue are up.' })
  @ApiErrors('NOT_READY')
  async ready(): Promise<HealthCheckResult> {
    if (this.drain.isDraining) throw notReady('The instance is shutting down.');
    try {
      return await this.health.check([
        () => this.database.pingCheck('database').withTimeout(DATABASE_TIMEOUT_MS),
        () => this.jobs.isHealthy('jobs'),
      ]);
    } catch (error) {
      // Terminus throws a 503 HttpException, which the global filter would log as our own failure and
      // answer without saying what is down; a NOT_READY problem names it (terminus logs the details).
      if (error instanceof ServiceUnavailableException) throw notReady(whatIsDown(error));
      throw error;
    }
  }
}

function whatIsDown(error: ServiceUnavailableException): string {
  const result = error.getResponse() as Partial<HealthCheckResult>;
  const down = Object.keys(result.error ?? {});
  return result.status === 'shutting_down'
    ? 'The instance is shutting down.'
    : `Not ready: ${down.length ? down.join(', ') : 'a dependency'} is down.`;
}

function notReady(detail: string): AppException {
  return new AppException(HttpStatus.SERVICE_UNAVAILABLE, 'NOT_READY', detail, undefined, {
    'Retry-After': '5',
  });
}
