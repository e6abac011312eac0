import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { formatMoney, isCurrencyCode, majorToMinor, MoneyError } from '#app/common/money.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { notStartedYet, refusalDetail, refusalStatus } from '#app/modules/raffles/entries/entries.rules.js';
import { canJoin } from '#app/modules/raffles/raffles.rules.js';
import type { Raffle } from '#app/modules/raffles/entities/raffle.entity.js';
import { EntriesService } from '#app/modules/raffles/entries/entries.service.js';
import { RafflesService } from '#app/modules/raffles/raffles.service.js';
import { ResponsiblePlayService } from '#app/modules/responsible-play/responsible-play.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { type BuyerClaim, BuyersService } from './buyers.service.js';
import type { Gateway, PaymentPurpose, PaymentTransaction } from './entities/payment-transaction.entity.js';
import { type ItemSale, PaymentHooks } from './hooks/payment-hooks.js';
import { type OpenedCheckout, PaymentGateways } from './payment-gateways.js';
import { PurposeOrdersService } from './purpose-orders.service.js';
import { PaymentsRepository } from './payments.repository.js';
import { MAX_PAYMENT_CENTS, orderTooLarge, orderTooSmall } from './payments.rules.js';

export interface OrderRequest {
  gateway: Gateway;
  siteId: string | undefined;
  buyer: Omit<BuyerClaim, 'siteId'>;
  /**
   * A raffle's item_id, or (at gatewayone) a merch product's id when no raffle of the site has that
   * item_id; without it a generic payment of `amountMajor`.
   */
  itemId?: string;
  /** Body fields only a sold item uses (a product's shipping address), handed to its seller. */
  itemFields?: Record<string, unknown>;
  quantity?: number;
  upsells?: Array<{ quantity?: number; qty?: number; percentage?: number }>;
  /** What the client thinks it costs (major units): must equal the server's price. */
  amountMajor?: number;
  /** A generic payment's amount in minor units (endpoint 6). */
  amountCents?: number;
  currency?: string;
  description?: string;
  paymentMethod?: string;
  integrity?: boolean;
  returnUrl?: string | null;
  metadata?: Record<string, unknown>;
}

/** The server's price of an order, and what it buys. */
interface Priced {
  purpose: PaymentPurpose;
  raffleId: string | null;
  amountCents: number;
  currency: string;
  description: string;
  details: Record<string, unknown>;
  /** Another feature's item (a merch product): it records its own order beside the payment. */
  sale?: ItemSale;
  /** A raffle order: its tickets and the most one entrant may hold (checked against the buyer's own). */
  entrantCap?: { tickets: number; maxEntries: number };
}

export interface OpenedOrder {
  payment: PaymentTransaction;
  checkout: OpenedCheckout;
}

/**
 * Creating orders (endpoints 3, 4 and 6): the server prices the order itself, counts it against the
 * buyer's spend limit and self-pause in the order's own transaction, stores a pending payment, then
 * opens a checkout at the gateway — after the commit, so no transaction waits on a network call.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly raffles: RafflesService,
    private readonly entries: EntriesService,
    private readonly buyers: BuyersService,
    private readonly limits: ResponsiblePlayService,
    private readonly gateways: PaymentGateways,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
    private readonly checkouts: PurposeOrdersService,
    private readonly hooks: PaymentHooks,
  ) {}

  async create(caller: AuthUser | undefined, req: OrderRequest, meta: RequestMeta): Promise<OpenedOrder> {
    const siteId = caller?.siteId ?? req.siteId;
    if (!siteId) throw AppException.validation([{ field: 'site_id', message: 'site_id is required' }]);
    const priced: Priced = req.itemId
      ? await this.priceItem(siteId, req.itemId, req)
      : this.priceGeneric(req);
    const tooLarge = orderTooLarge(priced.amountCents);
    if (tooLarge) throw AppException.unprocessable('AMOUNT_TOO_LARGE', tooLarge);
    const tooSmall = orderTooSmall(priced.amountCents);
    if (tooSmall) throw AppException.unprocessable('AMOUNT_TOO_SMALL', tooSmall);
    const buyer = await this.buyers.resolve(caller, { ...req.buyer, siteId }, meta);
    await this.checkBuyerCap(priced, buyer.userId);
    const now = new Date();
    const payment = await this.tx.run(async (manager) => {
      const reservation = await this.limits.reserveSpend(manager, {
        userId: buyer.userId,
        amountCents: priced.amountCents,
        now,
      });
      const row = await this.payments.create(
        {
          site_id: siteId,
          user_id: buyer.userId,
          gateway: req.gateway,
          checkout_id: null,
          gateway_transaction_id: null,
          currency: priced.currency,
          amount_cents: priced.amountCents,
          description: req.description ?? priced.description,
          payment_method: req.paymentMethod ?? null,
          status: 'pending',
          fraud_score: null,
          metadata: { ...(req.metadata ?? {}) },
          purpose: priced.purpose,
          raffle_id: priced.raffleId,
          order_details: priced.details,
          new_account: buyer.newAccount,
          spend_month: reservation.month,
          ip_address: meta.ip,
          user_agent: meta.userAgent,
          webhook_received_at: null,
          webhook_data: null,
          gateway_response: null,
          subscription_id: null,
        },
        manager,
      );
      await priced.sale?.record({ id: row.id, site_id: siteId, user_id: buyer.userId }, buyer.email);
      await this.activity.record(
        {
          userId: buyer.userId,
          siteId,
          type: 'order_created',
          description: `Order of ${formatMoney(priced.amountCents, priced.currency)} at ${req.gateway}`,
          resourceType: 'payment_transaction',
          resourceId: row.id,
        },
        meta,
        manager,
      );
      return row;
    });
    const checkout = await this.checkouts.openCheckout(payment, {
      email: buyer.email,
      returnUrl: req.returnUrl,
      integrity: req.integrity,
    });
    await priced.sale?.opened(payment.id, checkout.checkoutId);
    return { payment, checkout };
  }

  environment(): 'sandbox' | 'live' {
    return this.gateways.environment();
  }

  /**
   * The raffle the site sells under `itemId` first; else, at gatewayone, what another feature sells under
   * that id (a merch product: its ids are UUIDs, and a raffle's item_id that equals one wins). Neither:
   * the unknown item's 404, as before products could be named.
   */
  private async priceItem(siteId: string, itemId: string, req: OrderRequest): Promise<Priced> {
    const raffle = await this.raffles.findByItemId(siteId, itemId);
    if (raffle) return this.priceRaffleOrder(raffle, req);
    const sale =
      req.gateway === 'gatewayone'
        ? await this.hooks.saleOf(siteId, itemId, {
            quantity: req.quantity,
            upsells: req.upsells,
            fields: req.itemFields ?? {},
          })
        : null;
    if (!sale) throw AppException.notFound('Raffle');
    this.checkClientPrice(req, sale.amountCents, sale.currency, 'product');
    return {
      purpose: sale.purpose,
      raffleId: null,
      amountCents: sale.amountCents,
      currency: sale.currency,
      description: sale.description,
      details: sale.details,
      sale,
    };
  }

  /** What the client says it costs is checked, never used: the server's price is charged or nothing. */
  private checkClientPrice(req: OrderRequest, amountCents: number, currency: string, what: string): void {
    if (req.currency && req.currency.toUpperCase() !== currency)
      throw AppException.unprocessable('CURRENCY_MISMATCH', `This ${what} is priced in ${currency}.`);
    if (req.amountMajor !== undefined && this.toMinor(req.amountMajor, currency) !== amountCents)
      throw AppException.unprocessable(
        'AMOUNT_MISMATCH',
        'The amount does not match the server’s price for this order.',
      );
  }

  private priceRaffleOrder(raffle: Raffle, req: OrderRequest): Priced {
    const now = new Date();
    if (!canJoin(raffle, now)) {
      const refusal = notStartedYet(raffle, now) ? 'RAFFLE_NOT_STARTED' : 'RAFFLE_CLOSED';
      throw new AppException(refusalStatus(refusal), refusal, refusalDetail(refusal, raffle));
    }
    const upsells = (req.upsells ?? []).map((u) => ({
      quantity: u.quantity,
      qty: u.qty,
      percentage: u.percentage,
    }));
    const price = this.raffles.priceOrder(raffle, req.quantity ?? 1, upsells);
    // Checks, reserves nothing: a buyer who pays for the last tickets someone else took is refunded.
    this.raffles.checkOrderFits(raffle, price.tickets);
    this.checkClientPrice(req, price.amount_cents, raffle.currency, 'raffle');
    return {
      purpose: 'raffle',
      raffleId: raffle.id,
      ...(raffle.max_entries !== null && {
        entrantCap: { tickets: price.tickets, maxEntries: raffle.max_entries },
      }),
      amountCents: price.amount_cents,
      currency: raffle.currency,
      description: `${price.tickets} ticket(s) for ${raffle.name}`,
      details: {
        ...price,
        item_id: raffle.item_id,
        tickets: price.tickets,
        quantity: req.quantity ?? 1,
        upsells,
      },
    };
  }

  /**
   * A buyer who already holds the raffle's `max_entries` (with these tickets) is refused before anything is
   * charged: otherwise the order is paid and then refunded whole at fulfilment. Checks, reserves nothing:
   * parallel orders of one buyer can each pass, and the one that cannot be entered is refunded then.
   */
  private async checkBuyerCap(priced: Priced, userId: string): Promise<void> {
    if (!priced.entrantCap || !priced.raffleId) return;
    const held = await this.entries.heldBy(priced.raffleId, userId);
    if (held + priced.entrantCap.tickets > priced.entrantCap.maxEntries)
      throw AppException.unprocessable(
        'MAX_ENTRIES_REACHED',
        `You hold ${held} of the ${priced.entrantCap.maxEntries} tickets one entrant may hold in this raffle; ` +
          `${priced.entrantCap.tickets} more would pass it.`,
      );
  }

  private priceGeneric(req: OrderRequest): Priced {
    if ((req.amountMajor === undefined && req.amountCents === undefined) || !req.currency)
      throw AppException.validation([{ field: 'amount', message: 'amount and currency are required' }]);
    const currency = req.currency.toUpperCase();
    if (!isCurrencyCode(currency))
      throw AppException.validation([{ field: 'currency', message: 'currency must be an ISO 4217 code' }]);
    const amountCents = req.amountCents ?? this.toMinor(req.amountMajor ?? 0, currency);
    if (amountCents <= 0)
      throw AppException.validation([{ field: 'amount', message: 'amount must be positive' }]);
    if (amountCents > MAX_PAYMENT_CENTS)
      throw AppException.validation([
        { field: 'amount', message: `amount must be at most ${MAX_PAYMENT_CENTS} in minor units` },
      ]);
    return {
      purpose: 'generic',
      raffleId: null,
      amountCents,
      currency,
      description: req.description ?? 'Payment',
      details: {},
    };
  }

  private toMinor(amount: number, currency: string): number {
    try {
      return majorToMinor(amount, currency);
    } catch (error) {
      if (error instanceof MoneyError)
        throw AppException.validation([{ field: 'amount', message: error.message }]);
      throw error;
    }
  }
}
