import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { GatewayOneClient } from '#app/infra/providers/gatewayone/gatewayone.client.js';

/**
 * A membership imported from an earlier system may still have a schedule at the gateway
 * (`gatewayone_schedule_id`): once it is cancelled, that schedule is deleted, retried until it is gone
 * (a schedule the gateway no longer knows counts as gone).
 */
@Injectable()
export class DeleteScheduleJob implements OnModuleInit {
  private readonly logger = new Logger(DeleteScheduleJob.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly gateway: GatewayOneClient,
  ) {}

  onModuleInit(): void {
    this.jobs.register('subscriptions.delete-schedule', async (data) => {
      await this.gateway.deleteSchedule(data.schedule_id);
      this.logger.log({ subscription_id: data.subscription_id }, 'gateway schedule deleted');
    });
  }
}
