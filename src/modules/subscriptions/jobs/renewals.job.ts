import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import type { GatewayVerdict } from '#app/modules/payments/payment-gateways.js';
import { StoredCardChargesService } from '#app/modules/payments/stored-card-charges.service.js';
import { type FailedRenewal, RenewalEffectsService } from '../renewal-effects.service.js';
import { type ClaimedRenewal, RenewalsRepository } from '../renewals.repository.js';

/** Subscriptions a run claims at a time, and card charges it has in flight at once. */
export const RENEWAL_BATCH = 200;
export const CHARGES_IN_FLIGHT = 32;
/**
 * Batches a run works at once (as if that many runners ran): while one lane waits on the gateway another
 * claims or settles, so neither the database nor the gateway sits idle between batches.
 */
export const RUN_LANES = 2;
/** A charge still pending this long after its claim lost its answer: it is looked up, never charged again. */
const LOST_AFTER_MS = 60_000;
/** A lost charge the gateway still does not know this long after its claim never reached it. */
const NEVER_ARRIVED_MS = 60 * 60_000;

/** A charge that provably never reached the gateway (turned away, or timed out waiting for a connection). */
interface NotSent {
  notSent: true;
  httpStatus: number | null;
}
/** What became of one charge: the gateway's verdict, its answer lost (null), or never sent. */
type ChargeResult = GatewayVerdict | null | NotSent;
const notSent = (r: ChargeResult): r is NotSent => r !== null && 'notSent' in r;

/**
 * The renewal run (hourly, and `POST /admin/jobs/renewals/run`): this service is the scheduler of record
 * and charges each due membership's stored card itself (DESIGN §7 "Recurring"). Batch by batch: claim
 * due subscriptions (`FOR UPDATE SKIP LOCKED`: several runners never take the same one), write their
 * pending payments with the spend counted, charge each card once, then settle the batch in one
 * transaction through the same exactly-once claim as every payment. A charge whose answer was lost is
 * settled by looking it up under our reference, never by charging again. One that provably never reached
 * the gateway is called off and left due, for a later run to charge under a new payment: a gateway's outage,
 * or our own requests queued past their timeout, must not make a member past due.
 */
@Injectable()
export class RenewalsJob implements OnModuleInit {
  private readonly logger = new Logger(RenewalsJob.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly renewals: RenewalsRepository,
    private readonly charges: StoredCardChargesService,
    private readonly effects: RenewalEffectsService,
    private readonly tx: TransactionRunner,
    private readonly accounts: AccountsService,
  ) {}

  onModuleInit(): void {
    this.jobs.register('subscriptions.renewals', async () => {
      await this.run(new Date());
    });
    this.jobs.schedule('subscriptions.renewals', '7 * * * *', {});
    this.jobs.runnable('renewals', () => this.run(new Date()));
  }

  /** Answers how many memberships renewed. */
  async run(now: Date): Promise<number> {
    const lost = await this.settleLost(now);
    // Memberships whose charge this run could not send are due again at once: the run leaves them to the
    // next one rather than charge them again and again while the gateway turns it away.
    const unsent = new Set<string>();
    const lanes = await Promise.all(Array.from({ length: RUN_LANES }, () => this.lane(now, unsent)));
    return lanes.reduce((sum, n) => sum + n, lost);
  }

  /** Claim, charge, settle, until nothing is due: one lane's database work overlaps another's charges. */
  private async lane(now: Date, unsent: Set<string>): Promise<number> {
    let renewed = 0;
    for (;;) {
      const batch = await this.tx.run(() => this.claim(now, [...unsent]));
      if (!batch.claimed.length) return renewed;
      renewed += await this.chargeAndSettle(batch.claimed, now, unsent);
    }
  }

  /** Claims a batch and writes its pending payments; those the members' own limits refuse are declined. */
  private async claim(now: Date, skip: string[]): Promise<{ claimed: ClaimedRenewal[] }> {
    // A batch writes payments and activity referencing its members, whose rows an erasure locks before their
    // memberships. The run locks memberships first, so it takes the members' rows without waiting
    // (`holdAccountsSkippingErasures`) and leaves a member being erased alone: the erasure ends the membership.
    const due = await this.renewals.lockDue(now, RENEWAL_BATCH, skip);
    const held = new Set(
      await this.accounts.holdAccountsSkippingErasures([...new Set(due.map((d) => d.user_id))]),
    );
    const claimed = await this.renewals.claimDue(due.filter((d) => held.has(d.user_id)).map((d) => d.id));
    const withCard = claimed.filter((c) => c.gatewayone_registration_id);
    const refused: Map<string, string> = await this.charges.createPending(
      withCard.map((c) => ({
        id: c.pending_payment_id,
        siteId: c.site_id,
        userId: c.user_id,
        subscriptionId: c.id,
        amountCents: c.amount_cents,
        currency: c.currency,
        description: `${c.tier_title} membership renewal`,
      })),
      now,
    );
    // Without a stored card nothing can be charged: the membership goes past due like a declined one.
    for (const c of claimed) if (!c.gatewayone_registration_id) refused.set(c.pending_payment_id, 'NO_CARD');
    const declined = claimed.filter((c) => refused.has(c.pending_payment_id));
    await this.effects.declined(
      declined.map((c) => failure(c, refused.get(c.pending_payment_id) ?? 'refused')),
      now,
    );
    return { claimed: claimed.filter((c) => !refused.has(c.pending_payment_id)) };
  }

  private async chargeAndSettle(claimed: ClaimedRenewal[], now: Date, unsent: Set<string>): Promise<number> {
    const verdicts = await inParallel(claimed, CHARGES_IN_FLIGHT, async (c): Promise<ChargeResult> => {
      try {
        return await this.charges.charge(
          { id: c.pending_payment_id, amountCents: c.amount_cents, currency: c.currency },
          c.gatewayone_registration_id ?? '',
        );
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        if (error.kind === 'unavailable' && !error.mayHaveActed) {
          this.logger.warn(
            { subscription_id: c.id, http_status: error.httpStatus ?? null },
            'renewal charge never reached the gateway; charged by a later run',
          );
          unsent.add(c.id);
          return { notSent: true, httpStatus: error.httpStatus ?? null };
        }
        this.logger.warn(
          { subscription_id: c.id, kind: error.kind },
          'renewal charge unanswered; looked up later',
        );
        return null;
      }
    });
    return this.settle(
      claimed.map((c, i) => ({ claim: c, verdict: verdicts[i] })),
      now,
    );
  }

  /**
   * One transaction per batch: the paid ones renew, the declined ones go past due, the unsent ones are due
   * again; unknown ones wait.
   */
  private settle(
    results: Array<{ claim: ClaimedRenewal; verdict: ChargeResult }>,
    now: Date,
  ): Promise<number> {
    const answered = results.flatMap((r) =>
      r.verdict && !notSent(r.verdict) ? [{ claim: r.claim, verdict: r.verdict }] : [],
    );
    const paid = answered.filter((r) => r.verdict.outcome === 'succeeded');
    const declined = answered.filter(
      (r) => r.verdict.outcome === 'failed' || r.verdict.outcome === 'cancelled',
    );
    const unsent = results.flatMap((r) =>
      r.verdict && notSent(r.verdict) ? [{ claim: r.claim, httpStatus: r.verdict.httpStatus }] : [],
    );
    return this.tx.run(async () => {
      const won = await this.charges.settleSucceeded(
        paid.map((r) => ({ paymentId: r.claim.pending_payment_id, verdict: r.verdict })),
      );
      const wonIds = new Set(won.map((p) => p.id));
      const renewed = await this.effects.paid(
        paid
          .filter((r) => wonIds.has(r.claim.pending_payment_id))
          .map((r) => ({
            subscriptionId: r.claim.id,
            paymentId: r.claim.pending_payment_id,
            registrationId: null,
            billingInterval: r.claim.billing_interval,
            periodStart: r.claim.current_period_start,
            periodEnd: r.claim.current_period_end,
            amountCents: r.claim.amount_cents,
          })),
        now,
      );
      const failedIds = new Set(
        await this.charges.settleFailed(
          declined.map((r) => ({ paymentId: r.claim.pending_payment_id, verdict: r.verdict })),
        ),
      );
      await this.effects.declined(
        declined
          .filter((r) => failedIds.has(r.claim.pending_payment_id))
          .map((r) => failure(r.claim, r.verdict.resultCode ?? 'declined')),
        now,
      );
      const cancelled = new Set(
        await this.charges.cancelUnsent(
          unsent.map((u) => ({ paymentId: u.claim.pending_payment_id, httpStatus: u.httpStatus })),
        ),
      );
      await this.renewals.releaseUnsent(
        unsent
          .filter((u) => cancelled.has(u.claim.pending_payment_id))
          .map((u) => ({ subscriptionId: u.claim.id, paymentId: u.claim.pending_payment_id })),
      );
      return renewed;
    });
  }

  /**
   * Charges whose answer was lost in an earlier run, every one of them, a batch at a time (a gateway's
   * outage can leave thousands; one batch an hour would keep members unrenewed for days): looked up under
   * our reference and settled. One the gateway has never heard of an hour after its claim never reached
   * it: it fails like a decline, and the dunning schedule charges the period again later under a new
   * reference. One still unanswered, or still pending at the gateway, waits for the next run.
   */
  private async settleLost(now: Date): Promise<number> {
    const olderThan = new Date(now.getTime() - LOST_AFTER_MS);
    let settled = 0;
    let afterId: string | undefined;
    for (;;) {
      const lost = await this.tx.run(() => this.renewals.lostCharges(olderThan, RENEWAL_BATCH, afterId));
      if (!lost.length) return settled;
      settled += await this.lookUpAndSettle(lost, now);
      afterId = lost[lost.length - 1].id;
    }
  }

  private async lookUpAndSettle(
    lost: Array<ClaimedRenewal & { claimed_at: Date }>,
    now: Date,
  ): Promise<number> {
    const verdicts = await inParallel(lost, CHARGES_IN_FLIGHT, async (c) => {
      const verdict = await this.charges.lookUp(c.pending_payment_id).catch((error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        return null;
      });
      const unknownForLong =
        verdict?.outcome === 'pending' &&
        !verdict.gatewayPaymentId &&
        now.getTime() - c.claimed_at.getTime() > NEVER_ARRIVED_MS;
      return unknownForLong
        ? { ...verdict, outcome: 'failed' as const, resultCode: 'NOT_AT_GATEWAY' }
        : verdict;
    });
    return this.settle(
      lost.map((c, i) => ({ claim: c, verdict: verdicts[i] })),
      now,
    );
  }
}

function failure(c: ClaimedRenewal, reason: string): FailedRenewal {
  return {
    subscriptionId: c.id,
    paymentId: c.pending_payment_id,
    userId: c.user_id,
    siteId: c.site_id,
    tierTitle: c.tier_title,
    amountCents: c.amount_cents,
    currency: c.currency,
    pastDueSince: c.past_due_since,
    failedCharges: c.failed_charges,
    reason,
  };
}

/** Runs `work` over `items` with at most `width` at once, answers in order. */
async function inParallel<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}
