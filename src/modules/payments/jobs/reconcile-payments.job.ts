import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { PaymentGateways } from '../payment-gateways.js';
import { PaymentOutcomeService } from '../payment-outcome.service.js';
import { PaymentsRepository } from '../payments.repository.js';
import { isAbandoned, reconciliationMoves } from '../payments.rules.js';
import { HeldRefundsService } from '../held-refunds.service.js';
import type { PaymentTransaction } from '../entities/payment-transaction.entity.js';

/** Open payments older than this are asked about: younger ones are still in the buyer's hands. */
export const RECONCILE_AFTER_MS = 2 * 60_000;
/**
 * A refund reserved longer ago than this is held (its answer was lost) or was left by a stopped process: far
 * past any refund call's time budget, so it is never one still in flight, even when an admin runs the job.
 */
export const HELD_REFUND_AFTER_MS = 2 * 60_000;
const BATCH = 100;
/** At most this many batches of open payments a scheduled run asks about; the rest wait for the next. */
const SCHEDULED_BATCHES = 10;
/**
 * At most this many batches of payments given up here (watched for a late success) a scheduled run asks about,
 * after the open ones: a safety net for a lost webhook, which a flood of declines must not turn into a thousand
 * gateway calls every five minutes.
 */
const SCHEDULED_WATCHED_BATCHES = 1;

/**
 * Polls the gateway for payments still open that no webhook or confirmation settled (a lost webhook, a
 * closed browser), for those given up here that may have been paid since, and for refunds whose answer was lost: every five minutes, or now through
 * `POST /admin/jobs/reconciliation/run`.
 */
@Injectable()
export class ReconcilePaymentsJob implements OnModuleInit {
  private readonly logger = new Logger(ReconcilePaymentsJob.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly payments: PaymentsRepository,
    private readonly gateways: PaymentGateways,
    private readonly outcomes: PaymentOutcomeService,
    private readonly heldRefunds: HeldRefundsService,
    private readonly tx: TransactionRunner,
  ) {}

  onModuleInit(): void {
    this.jobs.register('payments.reconcile', async () => {
      await this.run(new Date(Date.now() - RECONCILE_AFTER_MS));
    });
    this.jobs.schedule('payments.reconcile', '*/5 * * * *', {});
    // Run now by an admin, it asks about every open payment, however young, each once.
    // The run's start by the database's clock, which notes each ask: by this process's, a clock ahead of the
    // database's would find the payments just asked still unasked since, and ask them again.
    this.jobs.runnable('reconciliation', async () => this.run(new Date(), await this.payments.databaseNow()));
  }

  /**
   * Answers how many payments it settled (their status, or a held refund). Scheduled: the open payments
   * created before `olderThan` that are due (`claimToReconcile`), up to `SCHEDULED_BATCHES` batches, then those
   * watched for a late success, up to `SCHEDULED_WATCHED_BATCHES`; by an admin (`askedBefore`, the run's
   * start): every open one not asked since, however many.
   */
  async run(olderThan: Date, askedBefore: Date | null = null): Promise<number> {
    const heldBefore = Math.min(olderThan.getTime(), Date.now() - HELD_REFUND_AFTER_MS);
    let settled = await this.heldRefunds.settle(new Date(heldBefore), BATCH);
    settled += await this.ask('open', olderThan, askedBefore, SCHEDULED_BATCHES);
    // The watched queue is the schedule's: an admin's run asks about what is open now, and a week of declines
    // asked one by one would hold its answer for minutes (longer while the gateway is slow).
    if (!askedBefore) settled += await this.ask('watched', olderThan, null, SCHEDULED_WATCHED_BATCHES);
    return settled;
  }

  /** Asks about one queue's due payments, batch by batch: at most `batches` on a schedule, all for an admin. */
  private async ask(
    queue: 'open' | 'watched',
    olderThan: Date,
    askedBefore: Date | null,
    batches: number,
  ): Promise<number> {
    let settled = 0;
    for (let batch = 0; askedBefore || batch < batches; batch++) {
      const due = await this.tx.run(() =>
        this.payments.claimToReconcile(queue, olderThan, askedBefore, BATCH),
      );
      for (const payment of due) if (await this.reconcile(payment)) settled++;
      if (due.length < BATCH) break;
    }
    return settled;
  }

  /**
   * Asks the gateway about one payment and applies its verdict, a checkout still open a day on as
   * abandoned (`isAbandoned`), a late success of one given up as any success; answers whether its status moved.
   */
  private async reconcile(payment: PaymentTransaction): Promise<boolean> {
    try {
      const verdict = await this.gateways.verdict(payment);
      // A payment given up here is only watched for a late success: anything else changes nothing.
      if (!reconciliationMoves(payment.status, verdict.outcome)) return false;
      const abandoned = isAbandoned(verdict.outcome, payment.created_at, new Date());
      const after = await this.outcomes.apply(payment.id, {
        outcome: abandoned ? 'cancelled' : verdict.outcome,
        source: abandoned ? 'reconciliation: abandoned' : 'reconciliation',
        gatewayPaymentId: verdict.gatewayPaymentId,
        gatewayResponse: verdict.raw,
      });
      return !!after && after.status !== payment.status;
    } catch (error) {
      // One gateway failure must not stop the others; the payment is asked again once due.
      if (!(error instanceof ProviderError)) throw error;
      this.logger.warn(
        { payment_transaction_id: payment.id, kind: error.kind },
        'reconciliation could not ask',
      );
      return false;
    }
  }
}
