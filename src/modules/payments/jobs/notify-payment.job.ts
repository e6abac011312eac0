import { Injectable, type OnModuleInit } from '@nestjs/common';
import { formatMoney } from '#app/common/money.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { TTL } from '#app/modules/auth/auth.rules.js';
import { PasswordFlowsService } from '#app/modules/auth/password-flows.service.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import type { MailKind, MailVariables } from '#app/modules/mail/mail.types.js';
import { InstantWinsService } from '#app/modules/raffles/draws/instant-wins.service.js';
import { entryMailVariables } from '#app/modules/raffles/entries/entry-mail.js';
import { type PaymentMailFacts, PaymentMailFactsRepository } from '../payment-mail-facts.repository.js';

/**
 * The e-mails of a settled payment, composed after the fulfilment committed (so the hot path of a sale
 * only enqueues this job) from one read of everything they need: `purchase_new` (with a password-set
 * link) to a buyer whose account the purchase made, else `purchase_existing`, plus `raffle_entry`; or the
 * refund notice when the order could not be entered. Purchase mails go in BCC to the site's
 * `email_bcc_for_purchases`. The entry's tickets are first checked for instant wins (DESIGN §6), here
 * rather than in the sale's transaction: off the raffle's counter row, exactly once however often this runs.
 */
@Injectable()
export class NotifyPaymentJob implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly facts: PaymentMailFactsRepository,
    private readonly flows: PasswordFlowsService,
    private readonly mail: MailService,
    private readonly tx: TransactionRunner,
    private readonly instantWins: InstantWinsService,
  ) {}

  onModuleInit(): void {
    this.jobs.register('payments.notify', (data) => this.run(data.payment_transaction_id));
    this.jobs.register('payments.refund-notice', (data) =>
      this.refunded(data.payment_transaction_id, data.refunded_cents),
    );
  }

  /** The buyer's notice of a refund staff made: what went back, for what (the raffle, or what was bought). */
  async refunded(paymentId: string, refundedCents: number): Promise<void> {
    const facts = await this.facts.of(paymentId);
    if (!facts) return;
    await this.mail.send({
      kind: 'payment_refunded',
      siteId: facts.site_id,
      to: facts.email,
      userId: facts.user_id,
      variables: {
        first_name: facts.first_name,
        amount: formatMoney(refundedCents, facts.currency),
        giveaway_name: facts.raffle?.name ?? facts.description,
        order_id: facts.id,
      },
    });
  }

  async run(paymentId: string): Promise<void> {
    await this.instantWins.checkPayment(paymentId);
    await this.tx.run(async (manager) => {
      // Claimed in the transaction that queues the mails: pg-boss runs a job again when its end was lost (a
      // worker stopped midway), and the second run finds the payment claimed and queues nothing.
      const facts = await this.facts.claim(paymentId);
      if (!facts) return; // mailed already, a guest payment without an account, or its buyer is gone
      const amount = formatMoney(facts.amount_cents, facts.currency);
      const send = (kind: MailKind, variables: MailVariables) =>
        this.mail.send({ kind, siteId: facts.site_id, to: facts.email, userId: facts.user_id, variables });
      if (facts.fulfilment === 'refunded_unfillable') {
        await send('purchase_refunded', {
          first_name: facts.first_name,
          giveaway_name: facts.raffle?.name ?? null,
          amount,
          order_id: facts.id,
        });
        return;
      }
      // Refunded whole before its mails: its tickets are void, and the refund's own notice tells the buyer.
      if (facts.status === 'refunded') return;
      const base = entryVariables(facts) ?? {
        first_name: facts.first_name,
        giveaway_name: facts.description,
      };
      const purchase = { ...base, amount, order_id: facts.id, entry_method: null };
      if (facts.new_account) {
        const link = await this.flows.passwordSetLink({ id: facts.user_id, site_id: facts.site_id }, manager);
        await send('purchase_new', { ...purchase, link, expires_minutes: TTL.setMinutes });
      } else {
        await send('purchase_existing', purchase);
      }
      if (facts.raffle && facts.entry) await send('raffle_entry', base);
    });
  }
}

/** The entry mail's variables, from the facts (the same function the other ways in use). */
function entryVariables({ raffle, entry, first_name }: PaymentMailFacts): MailVariables | null {
  if (!raffle || !entry) return null;
  return entryMailVariables({ ...raffle, end_date: new Date(raffle.end_date) }, entry, first_name);
}
