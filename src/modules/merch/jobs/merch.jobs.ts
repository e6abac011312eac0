import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { MerchFulfilmentService } from '../merch-fulfilment.service.js';

/** `merch.submit` (a paid order to the provider) and `merch.sync` (re-read after a callback). */
@Injectable()
export class MerchJobs implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly fulfilment: MerchFulfilmentService,
  ) {}

  onModuleInit(): void {
    this.jobs.register('merch.submit', (data, meta) =>
      this.fulfilment.submit(data.merch_order_id, meta.retryCount >= meta.retryLimit),
    );
    this.jobs.register('merch.sync', (data) => this.fulfilment.sync(data.merch_order_id));
  }
}
