import type { MailKind } from '#app/modules/mail/mail.types.js';

/** Every job the service runs, with its payload: one map gives each handler a typed `data` (STYLE §11). */
export interface JobMap {
  'mail.send': {
    kind: MailKind;
    site_id: string;
    to: string;
    user_id?: string | null;
    variables: Record<string, string | number | boolean | null>;
    /** A link into a staff account (admin, superadmin): sent only through the service's own transport. */
    staff_access?: boolean;
    /** To `to` alone, without the site's purchase BCC: a copy for it goes as a job of its own. */
    without_bcc?: boolean;
    /** The account whose mail this copies (the purchase BCC's copy): dropped with it if that account is erased. */
    copy_of?: string | null;
    /**
     * What the mail is about, for a mail that may stop being true before it goes (`MailService.sendOnlyIf`):
     * e.g. the membership and the renewal a reminder announces.
     */
    about?: Record<string, string>;
  };
  /** Purges expired Idempotency-Key rows (scheduled hourly). */
  'idempotency.cleanup': Record<string, never>;
  /** The `raffle_entry` e-mail of an entry made without a payment (points, free, postal, credits). */
  'entries.notify': { raffle_entry_id: string; to: string };
  /** E-mails about a settled payment (entry and purchase mails, or the refund notice). */
  'payments.notify': { payment_transaction_id: string };
  /** The buyer's notice of a refund staff made: `refunded_cents` went back. */
  'payments.refund-notice': { payment_transaction_id: string; refunded_cents: number };
  /** Sends a refund to the gateway: whole payments that could not be fulfilled, and admin refunds. */
  'payments.refund': {
    payment_transaction_id: string;
    amount_cents: number;
    reason: string;
    /** The buyer is e-mailed once it is made (`payment_refunded`): nothing else told them of it. */
    tell_buyer?: boolean;
  };
  /** Charges the stored cards of the memberships due (scheduled hourly; `renewals`). */
  'subscriptions.renewals': Record<string, never>;
  /** Moves memberships whose time has come (incomplete, ending, past due, paused; `expiries`). */
  'subscriptions.expiries': Record<string, never>;
  /** Sends renewal reminders (`reminders`). */
  'subscriptions.reminders': Record<string, never>;
  /** Deletes a schedule an imported membership had at the gateway, once it is cancelled. */
  'subscriptions.delete-schedule': { subscription_id: string; schedule_id: string };
  /** Processes one stored webhook event (the inbox). */
  'inbound.process': { inbound_event_id: string };
  /** Asks the gateways about open payments no event has settled. */
  'payments.reconcile': Record<string, never>;
  /** Closes raffles past their end or sold out and publishes their ticket lists (`raffles.close`). */
  'raffles.close': Record<string, never>;
  /** Sends a paid merch order to the fulfilment provider (one idempotencyKey for every attempt). */
  'merch.submit': { merch_order_id: string };
  /** Re-reads a merch order at the provider after its callback, and moves its stage. */
  'merch.sync': { merch_order_id: string };
  /** One delivery to the contact-list or analytics provider (retried; dead letters replayable by admins). */
  'integrations.deliver': {
    kind: 'contact_upsert' | 'contact_remove' | 'track' | 'marketing_identify';
    site_id: string;
    user_id: string;
    /** For `contact_remove`: the address to take off (the account may be gone by then). */
    email?: string;
    /** For `track`: the event, its properties and its stable id (the provider drops repeats). */
    event?: string;
    message_id?: string;
    properties?: Record<string, string | number | boolean | null>;
    /** For `track`: when the event happened (ISO 8601), not when a retry sends it. */
    occurred_at?: string;
  };
}

export type JobName = keyof JobMap;
export type JobHandler<N extends JobName> = (
  data: JobMap[N],
  /** `retryCount >= retryLimit`: this is the last attempt; a failure now is final. */
  meta: { id: string; retryCount: number; retryLimit: number },
) => Promise<void>;

export const JOB_NAMES: JobName[] = [
  'mail.send',
  'idempotency.cleanup',
  'entries.notify',
  'payments.notify',
  'payments.refund-notice',
  'payments.refund',
  'inbound.process',
  'payments.reconcile',
  'subscriptions.renewals',
  'subscriptions.expiries',
  'subscriptions.reminders',
  'subscriptions.delete-schedule',
  'raffles.close',
  'merch.submit',
  'merch.sync',
  'integrations.deliver',
];
