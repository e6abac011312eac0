import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  PaymentHooks,
  type PaymentListener,
  type RefundedPayment,
} from '#app/modules/payments/hooks/payment-hooks.js';
import { EntriesRepository } from './entries.repository.js';
import { voidsEntryOnRefund } from './entries.rules.js';

/**
 * Entries taken out of the draw before the close (DECISIONS, "voided entries"): the entry of a payment
 * refunded whole, since its buyer has all their money back and must not also win; every entry of an erased
 * account, which could neither be told it won nor sign in to claim. Voided in the caller's transaction, so
 * the refund or the erasure and the void commit together or not at all. After the close the published
 * ticket list is never changed: a refund or an erasure then leaves the entries in the draw.
 */
@Injectable()
export class EntryVoidsService implements PaymentListener, OnModuleInit {
  constructor(
    private readonly hooks: PaymentHooks,
    private readonly entries: EntriesRepository,
  ) {}

  onModuleInit(): void {
    this.hooks.listen(this);
  }

  /** In the refund's settling transaction. */
  async refunded(payment: RefundedPayment): Promise<void> {
    if (!voidsEntryOnRefund(payment)) return;
    await this.entries.voidOpen({ paymentId: payment.id }, 'refunded', new Date());
  }

  /** In the erasure's transaction (account deletion): every entry of the user in a raffle still open. */
  async accountErased(userId: string, now: Date): Promise<number> {
    return (await this.entries.voidOpen({ userId }, 'account_deleted', now)).length;
  }
}
