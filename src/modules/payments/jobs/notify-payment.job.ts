import { Injectable, type OnModuleInit } from '@nestjs/common';
import { formatMajor } from '#app/common/money.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { TTL } from '#app/modules/auth/auth.rules.js';
import { PasswordFlowsService } from '#app/modules/auth/password-flows.service.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import type { MailKind, MailVariables } from '#app/modules/mail/mail.types.js';
import { entryMailVariables } from '#app/modules/raffles/entries/entry-mail.js';
import { EntriesService } from '#app/modules/raffles/entries/entries.service.js';
import { RafflesService } from '#app/modules/raffles/raffles.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { PaymentsRepository } from '../payments.repository.js';

/**
 * The e-mails of a settled payment, composed after the fulfilment committed (so the hot path of a sale
 * only enqueues this job): `purchase_new` (with a password-set link) to a buyer whose account the
 * purchase made, else `purchase_existing`, plus `raffle_entry`; or the refund notice when the order
 * could not be entered. Purchase mails go in BCC to the site's `email_bcc_for_purchases`.
 */
@Injectable()
export class NotifyPaymentJob implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly payments: PaymentsRepository,
    private readonly entries: EntriesService,
    private readonly raffles: RafflesService,
    private readonly accounts: AccountsService,
    private readonly flows: PasswordFlowsService,
    private readonly mail: MailService,
    private readonly tx: TransactionRunner,
  ) {}

  onModuleInit(): void {
    this.jobs.register('payments.notify', (data) => this.run(data.payment_transaction_id));
  }

  async run(paymentId: string): Promise<void> {
    const payment = await this.payments.findById(paymentId);
    if (!payment?.user_id) return;
    const user = await this.accounts.findById(payment.user_id);
    if (!user) return;
    const amount = `${formatMajor(payment.amount_cents)} ${payment.currency}`;
    const raffle = payment.raffle_id ? await this.raffles.findById(payment.raffle_id) : null;
    const entry = await this.entries.findForPayment(payment.id);
    await this.tx.run(async (manager) => {
      const send = (kind: MailKind, variables: MailVariables) =>
        this.mail.send(
          { kind, siteId: payment.site_id, to: user.email, userId: user.id, variables },
          manager,
        );
      if (payment.fulfilment === 'refunded_unfillable') {
        await send('purchase_refunded', {
          giveaway_name: raffle?.name ?? null,
          amount,
          order_id: payment.id,
        });
        return;
      }
      const base: MailVariables =
        raffle && entry ? entryMailVariables(raffle, entry) : { giveaway_name: payment.description };
      const purchase = { ...base, amount, order_id: payment.id, entry_method: null };
      if (payment.new_account) {
        const link = await this.flows.passwordSetLink(user, manager);
        await send('purchase_new', { ...purchase, link, expires_minutes: TTL.setMinutes });
      } else {
        await send('purchase_existing', purchase);
      }
      if (raffle && entry) await send('raffle_entry', base);
    });
  }
}
