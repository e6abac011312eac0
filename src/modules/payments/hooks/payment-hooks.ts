import { Global, Injectable, Module } from '@nestjs/common';
import type { Fulfilment, PaymentPurpose, PaymentStatus } from '../entities/payment-transaction.entity.js';

/**
 * What settling and fulfilling a payment know of it (read narrow, never the whole row), as handed to
 * other features' handlers and listeners.
 */
export interface PaymentHead {
  id: string;
  site_id: string;
  user_id: string | null;
  gateway: 'gatewayone' | 'gatewaytwo';
  checkout_id: string | null;
  gateway_transaction_id: string | null;
  status: PaymentStatus;
  purpose: PaymentPurpose;
  raffle_id: string | null;
  subscription_id: string | null;
  amount_cents: number;
  currency: string;
  /** Tickets the order buys (`order_details.tickets`), 0 when it buys none. */
  tickets: number;
  description: string | null;
  spend_month: string | null;
  new_account: boolean;
  ip_address: string | null;
  user_agent: string | null;
  fulfilled_at: Date | null;
  fulfilment: Fulfilment | null;
  /** Why a paid order could not be fulfilled (`metadata.unfillable`). */
  unfillable: string | null;
  /** Where the buyer pays (`metadata.checkout_url`), once a checkout is open. */
  checkout_url: string | null;
  /** What a purpose's payment is for (`metadata.kind`: a membership's `start`, `card`, a renewal's none). */
  kind: string | null;
  /** The stored card a registering checkout or webhook reported (gatewayone's `registrationId`). */
  registration_id: string | null;
  /**
   * The end of a self-pause the buyer began while this payment was open (`metadata.buyer_paused_until`, an ISO
   * time): paid before then, it is refused and refunded (`pausedWhenPaid`).
   */
  buyer_paused_until: string | null;
}

/** What a purpose's handler decided before any write: the mark the claim sets, and its own data. */
export interface PurposePlan {
  mark: Fulfilment;
  /** Refuse the order: it is refunded whole, nothing else is written (an `EntryRefusal`-like code). */
  refusal?: string | null;
  /** Points the payment earns (default: the site's rate on the amount paid). */
  points?: number;
  /** Queue `payments.notify` (the purchase e-mails) with the fulfilment; default true. */
  notify?: boolean;
  data?: unknown;
}

/**
 * What a feature does with a paid order made for it (a subscription's payment, a merch order): the
 * fulfilment runs it exactly once, in the claim's transaction (DESIGN §5).
 */
export interface PaidOrderHandler {
  /** Reads and decides, outside any transaction (beside the gateway call). */
  plan(payment: PaymentHead): Promise<PurposePlan>;
  /** In the claim's transaction, after the points and the listeners; anything contended last. */
  fulfil(payment: PaymentHead, plan: PurposePlan): Promise<void>;
}

export interface RefundedPayment extends PaymentHead {
  /** This refund's amount, and what has gone back in total (this one included). */
  refund_cents: number;
  refunded_cents: number;
}

/** A feature that follows every payment (referrals complete on a first payment, and are undone by its refund). */
export interface PaymentListener {
  /** In the claim's transaction of a payment that succeeded, once, before its purpose's fulfilment. */
  succeeded?(payment: PaymentHead): Promise<void>;
  /** In the transaction that settles a refund at the gateway. */
  refunded?(payment: RefundedPayment): Promise<void>;
}

/** What endpoint 3's body says about an item another feature sells (DESIGN §10). */
export interface ItemOrder {
  quantity?: number;
  upsells?: readonly unknown[];
  /** The body's fields only such an item uses (a product's shipping address), as sent. */
  fields: Record<string, unknown>;
}

/** An item priced by the feature that sells it; endpoint 3 writes the payment and opens its checkout. */
export interface ItemSale {
  purpose: Exclude<PaymentPurpose, 'raffle' | 'generic'>;
  amountCents: number;
  currency: string;
  description: string;
  details: Record<string, unknown>;
  /** In the order's transaction, right after the pending payment is written: the feature's own order. */
  record(payment: { id: string; site_id: string; user_id: string }, buyerEmail: string): Promise<void>;
  /** After the commit, once the gateway's checkout is open. */
  opened(paymentId: string, checkoutId: string): Promise<void>;
}

/**
 * Prices `itemId` of `siteId` when it names something this feature sells; null when it names nothing of
 * its own. Reads only, and refuses (throws) an order it cannot take before anything is written.
 */
export type ItemSeller = (siteId: string, itemId: string, order: ItemOrder) => Promise<ItemSale | null>;

/**
 * What another feature does with an event it receives through the webhook inbox (a website form's
 * submission): run in the `inbound.process` job; throwing marks the event failed (replayable).
 */
export type InboundProcessor = (payload: Record<string, unknown>) => Promise<{ siteId: string | null }>;

/**
 * The port through which other features take part in payments without payments knowing them (and
 * without module cycles: this module imports nothing). Register in `onModuleInit`.
 */
@Injectable()
export class PaymentHooks {
  private readonly handlers = new Map<PaymentPurpose, PaidOrderHandler>();
  private readonly listeners: PaymentListener[] = [];
  private readonly processors = new Map<string, InboundProcessor>();
  private readonly sellers: ItemSeller[] = [];
  private subscriptions: (ids: string[]) => Promise<Map<string, Record<string, unknown>>> = () =>
    Promise.resolve(new Map<string, Record<string, unknown>>());

  handle(purpose: PaymentPurpose, handler: PaidOrderHandler): void {
    if (this.handlers.has(purpose)) throw new Error(`a handler for ${purpose} payments exists`);
    this.handlers.set(purpose, handler);
  }

  /** Events of `provider` in the inbox are processed by `processor` (not as payments). */
  processInbound(provider: string, processor: InboundProcessor): void {
    if (this.processors.has(provider)) throw new Error(`a processor for ${provider} events exists`);
    this.processors.set(provider, processor);
  }

  inboundProcessorOf(provider: string): InboundProcessor | undefined {
    return this.processors.get(provider);
  }

  /** Endpoint 3's `item_id` may name what `seller` sells (when it names no raffle). */
  sellItems(seller: ItemSeller): void {
    this.sellers.push(seller);
  }

  /** The first seller's sale of `itemId`, or null when no feature sells it. */
  async saleOf(siteId: string, itemId: string, order: ItemOrder): Promise<ItemSale | null> {
    for (const seller of this.sellers) {
      const sale = await seller(siteId, itemId, order);
      if (sale) return sale;
    }
    return null;
  }

  listen(listener: PaymentListener): void {
    this.listeners.push(listener);
  }

  handlerOf(purpose: PaymentPurpose): PaidOrderHandler | undefined {
    return this.handlers.get(purpose);
  }

  /** The Subscription in its nested form, for the payments of the User record (memberships provide it). */
  provideSubscriptions(reader: (ids: string[]) => Promise<Map<string, Record<string, unknown>>>): void {
    this.subscriptions = reader;
  }

  subscriptionsOf(ids: string[]): Promise<Map<string, Record<string, unknown>>> {
    return ids.length ? this.subscriptions(ids) : Promise.resolve(new Map<string, Record<string, unknown>>());
  }

  async succeeded(payment: PaymentHead): Promise<void> {
    for (const l of this.listeners) await l.succeeded?.(payment);
  }

  async refunded(payment: RefundedPayment): Promise<void> {
    for (const l of this.listeners) await l.refunded?.(payment);
  }
}

@Global()
@Module({ providers: [PaymentHooks], exports: [PaymentHooks] })
export class PaymentHooksModule {}
