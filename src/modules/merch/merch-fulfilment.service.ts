import { Injectable, Logger } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { FulfilmentClient } from '#app/infra/providers/fulfilment/fulfilment.client.js';
import type { FulfilmentOrder } from '#app/infra/providers/fulfilment/fulfilment.types.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { PurposeOrdersService } from '#app/modules/payments/purpose-orders.service.js';
import type { MerchOrder } from './entities/merch-order.entity.js';
import { MerchRepository } from './merch.repository.js';
import {
  afterSubmitFailure,
  assetList,
  isFinal,
  nextStage,
  refundsOn,
  refusesTheOrder,
  stageOf,
  stageOnSubmit,
} from './merch.rules.js';

/** The least a callback token may be (DESIGN §7): anything shorter is not one of ours. */
const MIN_TOKEN = 16;

/**
 * How long an order the provider may hold waits before it is sent again, once a job's attempts are spent
 * (seconds): the provider is then given a new round of attempts rather than the buyer a refund.
 */
const RESUBMIT_AFTER_S = 60 * 60;

/** Why an order refunded whole before any attempt reached the provider ends cancelled. */
const REFUNDED_BEFORE_SENT = 'refunded before it was sent to the provider';

/** How often one re-read decides again when the order moved under it, before leaving it to the job's retry. */
const SYNC_ATTEMPTS = 3;

const recorded = (remote: FulfilmentOrder): Partial<MerchOrder> => ({
  charges: remote.charges,
  shipments: remote.shipments,
  status_details: { provider_stage: remote.stage, read_at: new Date().toISOString() },
});

/**
 * A paid merch order at the print-on-demand provider (DESIGN §7): sent once by a retried job with one
 * `idempotencyKey` per order (a repeat after a lost answer is the provider's `AlreadyExists`, the same
 * order); a callback only wakes a job that re-reads the provider's own record and moves `status_stage`
 * from what that says, forward only. A cancelled or failed order refunds its payment, once (the stage
 * moves by compare-and-set and the refund is queued in the same transaction).
 */
@Injectable()
export class MerchFulfilmentService {
  private readonly logger = new Logger(MerchFulfilmentService.name);

  constructor(
    private readonly merch: MerchRepository,
    private readonly provider: FulfilmentClient,
    private readonly orders: PurposeOrdersService,
    private readonly jobs: JobQueue,
    private readonly tx: TransactionRunner,
  ) {}

  /** In the paying transaction: the order goes to the provider once it commits. */
  async queueSubmission(orderId: string): Promise<void> {
    await this.jobs.enqueue(
      'merch.submit',
      { merch_order_id: orderId },
      { singletonKey: `merch-submit:${orderId}` },
    );
  }

  /**
   * The `merch.submit` job. A provider that cannot be reached throws: the job is retried with back-off. Each
   * attempt first marks the order as being sent (`sending_at`), so that a whole refund landing meanwhile does
   * not cancel here an order the provider is making (`MerchPaymentsHandler.refunded` leaves it a note instead).
   */
  async submit(orderId: string, lastAttempt: boolean): Promise<void> {
    const order = await this.merch.findOrder(orderId);
    if (!order || order.status_stage !== 'awaiting_payment' || order.fulfilment_order_id) return;
    // An earlier attempt whose answer was lost, or that left its mark and no outcome (its worker stopped
    // mid-call), may have reached the provider.
    const earlierMayHaveActed = Boolean(order.metadata.answer_lost_at || order.metadata.sending_at);
    const noted = await this.merch.markSending(order.id, new Date());
    if (!noted) return;
    if (noted.refunded_whole_at && !earlierMayHaveActed) {
      // Refunded whole before any attempt could have reached the provider: nothing to send, nothing to refund.
      await this.merch.moveOrder(order.id, ['awaiting_payment'], {
        status_stage: 'cancelled',
        status_details: { reason: REFUNDED_BEFORE_SENT },
      });
      return;
    }
    const items = await this.merch.itemsOf(order.id);
    let created;
    try {
      created = await this.provider.createOrder({
        merchantReference: order.id,
        idempotencyKey: order.idempotency_key,
        callbackUrl: order.callback_url,
        shippingMethod: order.shipping_method,
        recipient: {
          name: order.recipient_name,
          email: order.recipient_email,
          phoneNumber: order.recipient_phone,
          address: {
            line1: order.address_line1,
            line2: order.address_line2,
            postalOrZipCode: order.postal_or_zip_code,
            countryCode: order.country_code,
            townOrCity: order.town_or_city,
            stateOrCounty: order.state_or_county,
          },
        },
        items: items.map((item) => ({
          merchantReference: item.id,
          sku: item.sku,
          copies: item.copies,
          sizing: item.sizing,
          attributes: item.attributes,
          assets: assetList(item.assets),
        })),
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      await this.failedAttempt(order, error, lastAttempt, earlierMayHaveActed);
      return;
    }
    await this.submitted(order, created.order, created.outcome);
  }

  /**
   * The provider's answer to a submission is its record: an order it cancelled while our answer was lost ends
   * (and is refunded) here, since its callbacks came before we knew its id. An order whose payment was refunded
   * whole while it was being sent is the provider's now: it is followed like any other, its refund noted, never
   * refunded twice, and an admin is told to cancel it there (DESIGN §7 gives us no call to do so).
   */
  private async submitted(order: MerchOrder, remote: FulfilmentOrder, outcome: string): Promise<void> {
    const metadata = await this.move(
      order,
      { ...recorded(remote), status_stage: stageOnSubmit(remote.stage), fulfilment_order_id: remote.id },
      { submitted_at: new Date().toISOString(), outcome },
    );
    if (metadata?.refunded_whole_at)
      this.logger.warn(
        { merch_order_id: order.id, fulfilment_order_id: remote.id },
        'merch order refunded whole while it was being sent: the provider holds it; cancel it there if it should not ship',
      );
  }

  /**
   * An attempt that got no order back. The order refused, or never processed on any attempt: the order failed
   * and the buyer is refunded (unless a whole refund came first). A refusal of our key or URL is not the
   * order's: it is waited out as an outage is (`refusesTheOrder`). An attempt the provider may have acted on (a lost
   * answer) is noted on the order, so that a later attempt's plain outage cannot refund an order made
   * meanwhile; when the last attempt ends so, the order keeps waiting and a new job sends it again later with
   * the same idempotencyKey. An attempt that provably never reached the provider takes its mark back.
   */
  private async failedAttempt(
    order: MerchOrder,
    error: ProviderError,
    lastAttempt: boolean,
    earlierMayHaveActed: boolean,
  ): Promise<void> {
    const then = afterSubmitFailure({
      refused: refusesTheOrder(error),
      mayHaveActed: error.mayHaveActed,
      lastAttempt,
      earlierMayHaveActed,
    });
    if (then === 'fail') {
      this.logger.warn({ merch_order_id: order.id, err: error.message }, 'fulfilment refused the order');
      await this.move(order, { status_stage: 'failed', status_details: { error: error.message } });
      return;
    }
    const lost = { answer_lost_at: new Date().toISOString() };
    if (then === 'retry') {
      if (error.mayHaveActed) await this.merch.moveOrderNoting(order.id, ['awaiting_payment'], {}, lost);
      else if (!earlierMayHaveActed) await this.merch.clearSending(order.id);
      throw error;
    }
    this.logger.warn(
      { merch_order_id: order.id, err: error.message },
      'fulfilment may hold the order: kept, sent again later',
    );
    await this.tx.run(async () => {
      const waiting = await this.merch.moveOrderNoting(
        order.id,
        ['awaiting_payment'],
        {},
        error.mayHaveActed ? lost : {},
      );
      if (waiting)
        await this.jobs.enqueue(
          'merch.submit',
          { merch_order_id: order.id },
          { singletonKey: `merch-submit:${order.id}`, startAfter: RESUBMIT_AFTER_S },
        );
    });
  }

  /** `POST /merch/fulfilment/callback/{token}`: a hint; the re-read runs in a job. */
  async callback(token: string): Promise<{ received: boolean }> {
    const order = token.length >= MIN_TOKEN ? await this.merch.findByToken(token) : null;
    if (!order) throw AppException.notFound('Callback');
    await this.jobs.enqueue('merch.sync', { merch_order_id: order.id });
    return { received: true };
  }

  /**
   * The `merch.sync` job: the provider's own record decides. Two re-reads may run at once (two callbacks); the
   * one whose move finds the order moved since it read it decides again from where the order is now, so the
   * later news is never dropped (an `InProgress` read first, written last, would leave a cancellation unseen).
   */
  async sync(orderId: string): Promise<void> {
    for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
      const order = await this.merch.findOrder(orderId);
      if (!order || isFinal(order.status_stage)) return;
      if (!order.fulfilment_order_id) {
        // A callback that came before our submission's answer was recorded: re-read once the order's id is
        // known (the queue's back-off), rather than drop the news.
        if (order.status_stage === 'awaiting_payment')
          throw new Error(`merch order ${order.id} not yet submitted: re-read later`);
        return;
      }
      const remote = await this.provider.getOrder(order.fulfilment_order_id);
      const target = nextStage(order.status_stage, stageOf(remote.stage));
      const changes = target ? { ...recorded(remote), status_stage: target } : recorded(remote);
      if (await this.move(order, changes)) return;
    }
    throw new Error(`merch order ${orderId} kept moving while it was re-read: re-read later`);
  }

  /**
   * Moves an order from the stage it was read in (and records what the provider said, `patch` merged into its
   * metadata); refunds once when it ends cancelled or failed, unless its payment was refunded whole meanwhile
   * (read from the row as written, so a note added during a call counts). Answers the metadata as written, or
   * null when the order had moved meanwhile: nothing was written.
   */
  private async move(
    order: MerchOrder,
    changes: Partial<MerchOrder>,
    patch: Record<string, unknown> = {},
  ): Promise<Record<string, unknown> | null> {
    return this.tx.run(async () => {
      const metadata = await this.merch.moveOrderNoting(order.id, [order.status_stage], changes, patch);
      const target = changes.status_stage;
      if (metadata && target && refundsOn(target) && order.payment_id && !metadata.refunded_whole_at)
        await this.orders.queueRefund(order.payment_id, order.amount_cents, `Merch order ${target}`, {
          tellBuyer: true,
        });
      return metadata;
    });
  }
}
