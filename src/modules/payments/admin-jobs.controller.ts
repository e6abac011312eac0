import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '#app/common/auth/auth.decorators.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { Prop } from '#app/common/validation/fields.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { StaffAction } from '#app/modules/users/staff-action.js';

export class JobRunDto {
  @Prop(String, { example: 'reconciliation' }) name!: string;
  @Prop('integer', { description: 'What the run acted on (payments settled, …).' }) affected!: number;
}

/** Scheduled jobs, run now by a superadmin (DESIGN §10). Names whose feature has not landed answer 404. */
@ApiTags('ops')
@Controller('admin/jobs')
export class AdminJobsController {
  constructor(private readonly jobs: JobQueue) {}

  @StaffAction({ type: 'job_run', resource: 'job', what: 'Job run by hand' })
  @Post(':name/run')
  @Auth('superadmin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run a scheduled job now' })
  @ApiParam({
    name: 'name',
    enum: ['reconciliation', 'renewals', 'expiries', 'reminders', 'raffles.close'],
    description: 'A job that has not arrived yet with its feature answers 404.',
  })
  @ApiOkResponse({ type: JobRunDto })
  @ApiErrors(404)
  async runJob(@Param('name') name: string): Promise<JobRunDto> {
    const affected = await this.jobs.runNow(name);
    if (affected === undefined) throw AppException.notFound('Job');
    return { name, affected };
  }
}
