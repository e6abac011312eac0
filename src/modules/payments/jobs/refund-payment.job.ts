import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { RefundsService } from '../refunds.service.js';

/**
 * Sends a queued refund (a paid order that could not be entered, a cooling-off cancellation, a merch order
 * cancelled or failed, a membership payment that paid for no period). A refund not made is retried by the
 * queue, and after its attempts sent again later for as long as it is owed (`keepsPromise` in `queue-policy.ts`); one that can
 * no longer be made (the payment not settled, gone, or refunded whole meanwhile) ends here.
 */
@Injectable()
export class RefundPaymentJob implements OnModuleInit {
  private readonly logger = new Logger(RefundPaymentJob.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly refunds: RefundsService,
  ) {}

  onModuleInit(): void {
    this.jobs.register('payments.refund', async (data) => {
      const result = await this.refunds.refundRemaining(
        data.payment_transaction_id,
        data.amount_cents,
        data.reason,
        data.tell_buyer,
      );
      // Refused its reservation: the payment is not settled, or another refund (an admin's) took the amount
      // between the job's read and its reservation, which the gateway may yet refuse. Ended only when nothing
      // of the payment is left to give back.
      if (
        !result.done &&
        result.unrefundable &&
        !(await this.refunds.mayStillRefund(data.payment_transaction_id))
      ) {
        this.logger.warn(
          { payment_transaction_id: data.payment_transaction_id, reason: result.reason },
          'queued refund not sent: nothing of it can be refunded',
        );
        return;
      }
      if (!result.done)
        throw new Error(`refund of ${data.payment_transaction_id} not done: ${result.reason}`);
      this.logger.log({ payment_transaction_id: data.payment_transaction_id }, 'refund sent');
    });
  }
}
