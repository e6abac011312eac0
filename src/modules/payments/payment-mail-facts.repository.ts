import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { EntryMethod } from '#app/modules/raffles/entries/entities/raffle-entry.entity.js';
import type { Raffle } from '#app/modules/raffles/entities/raffle.entity.js';
import type { Fulfilment, PaymentStatus } from './entities/payment-transaction.entity.js';

/**
 * Everything the e-mails of a settled payment need, read in one query: the payment, its buyer, the raffle
 * and the entry it bought. A read model joining other features' tables; nothing but the notify job reads it.
 */
export interface PaymentMailFacts {
  id: string;
  site_id: string;
  user_id: string;
  amount_cents: number;
  currency: string;
  description: string | null;
  /** As it stands when the mails are composed: `refunded` when staff gave it all back meanwhile. */
  status: PaymentStatus;
  fulfilment: Fulfilment | null;
  new_account: boolean;
  email: string;
  /** The buyer's own first name (their profile's), which the mails greet them by. */
  first_name: string | null;
  raffle: (Pick<Raffle, 'name' | 'mailer_email_params'> & { end_date: string }) | null;
  entry: { entries_count: number; ticket_from: number; ticket_to: number; method: EntryMethod } | null;
}

@Injectable()
export class PaymentMailFactsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** The facts of a payment (its refund notices: as many as there are refunds). */
  async of(id: string): Promise<PaymentMailFacts | null> {
    return this.read(id, `SELECT id, status, fulfilment FROM payment_transactions WHERE id = $1`);
  }

  /**
   * The facts of a payment whose purchase e-mails are about to be queued, claimed in the caller's transaction
   * (`notified_at`): null when they were queued already (pg-boss ran the notify job again), or the buyer is gone.
   */
  async claim(id: string): Promise<PaymentMailFacts | null> {
    return this.read(
      id,
      `UPDATE payment_transactions SET notified_at = now() WHERE id = $1 AND notified_at IS NULL
       RETURNING id, status, fulfilment`,
    );
  }

  /**
   * One query: `which` names the payment with its status and fulfilment (a claim's UPDATE … RETURNING, or a
   * read). They come from `which`, not from the join: an UPDATE that waited for a refund's transaction returns
   * the row as that left it, while the rest of the statement reads the snapshot taken before the wait.
   */
  private async read(id: string, which: string): Promise<PaymentMailFacts | null> {
    const rows = await this.tx.manager.query<PaymentMailFacts[]>(
      `WITH which AS (${which})
       SELECT p.id, p.site_id, p.user_id, p.amount_cents, p.currency, p.description, which.status, which.fulfilment,
              p.new_account,
              u.email, pf.first_name,
              CASE WHEN r.id IS NULL THEN NULL ELSE
                jsonb_build_object('name', r.name, 'end_date', r.end_date, 'mailer_email_params', r.mailer_email_params)
              END AS raffle,
              CASE WHEN e.id IS NULL THEN NULL ELSE
                jsonb_build_object('entries_count', e.entries_count, 'ticket_from', e.ticket_from,
                                   'ticket_to', e.ticket_to, 'method', e.method)
              END AS entry
         FROM which
         JOIN payment_transactions p ON p.id = which.id
         JOIN users u ON u.id = p.user_id AND u.deleted_at IS NULL
         LEFT JOIN user_profiles pf ON pf.user_id = u.id
         LEFT JOIN raffles r ON r.id = p.raffle_id
         LEFT JOIN raffle_entries e ON e.payment_transaction_id = p.id
        WHERE p.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }
}
