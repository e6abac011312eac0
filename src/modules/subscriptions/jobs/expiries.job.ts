import { Injectable, type OnModuleInit } from '@nestjs/common';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { ExpiriesRepository } from '../expiries.repository.js';

/**
 * Memberships whose time has come, moved set-based (every 15 minutes, and `POST /admin/jobs/expiries/run`):
 * an unpaid first checkout after 24 h (`incomplete_expired`), a cancellation at its period's end
 * (`cancelled`), a membership past due after the 7-day grace (`expired`), a pause at its date (`active`,
 * the period extended by the pause). Trials convert or lapse through the renewal run's first charge.
 */
@Injectable()
export class ExpiriesJob implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly expiries: ExpiriesRepository,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
  ) {}

  onModuleInit(): void {
    this.jobs.register('subscriptions.expiries', async () => {
      await this.run(new Date());
    });
    this.jobs.schedule('subscriptions.expiries', '*/15 * * * *', {});
    this.jobs.runnable('expiries', () => this.run(new Date()));
  }

  async run(now: Date): Promise<number> {
    return this.tx.run(async () => {
      const moved = await this.expiries.expire(now);
      this.activity.recordManyLater(
        moved.map((s) => ({
          userId: s.user_id,
          siteId: s.site_id,
          type: `subscription_${s.status}`,
          description: `Membership ${s.tier_title} is now ${s.status} (schedule)`,
          resourceType: 'subscription',
          resourceId: s.id,
        })),
        NO_REQUEST,
      );
      // A membership whose grace ran out here and still has a schedule at the gateway from before its import would
      // go on being charged there: deleted, as a cancellation deletes it (one come due here had it deleted then).
      const schedules = moved.flatMap((s) =>
        s.gatewayone_schedule_id && s.status === 'expired'
          ? [{ subscription_id: s.id, schedule_id: s.gatewayone_schedule_id }]
          : [],
      );
      await this.jobs.enqueueMany('subscriptions.delete-schedule', schedules);
      return moved.length;
    });
  }
}
