import { minorToMajorString } from '#app/common/money.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { AppConfig } from '#app/config/app-config.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { PurposeOrdersService } from '#app/modules/payments/purpose-orders.service.js';
import type { CreatedMerchOrderDto, CreateMerchOrderDto } from './dto/merch.dto.js';
import { toOrderDto } from './merch.mapper.js';
import { MerchRepository } from './merch.repository.js';
import type { MerchProduct } from './entities/merch-product.entity.js';
import { type Priced, priceOrder } from './merch.rules.js';

/**
 * `POST /merch/orders`: the server prices the order from the site's products (DESIGN §10), writes it
 * with its pending payment in one transaction, then opens the gatewayone checkout. The payment comes
 * back through the one fulfilment path to `MerchPaymentsHandler`, which sends it to the provider.
 */
@Injectable()
export class MerchOrdersService {
  constructor(
    private readonly merch: MerchRepository,
    private readonly orders: PurposeOrdersService,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
  ) {}

  async create(user: AuthUser, body: CreateMerchOrderDto, meta: RequestMeta): Promise<CreatedMerchOrderDto> {
    const priced = await this.price(user.siteId, body.items);
    const copies = body.items.reduce((n, i) => n + i.copies, 0);
    const { order, items, payment } = await this.tx.run(async () => {
      const pending = await this.orders.createPending(
        {
          purpose: 'merch',
          siteId: user.siteId,
          userId: user.id,
          amountCents: priced.amountCents,
          currency: priced.currency,
          description: merchDescription(copies),
          metadata: { kind: 'merch' },
        },
        meta,
      );
      const written = await this.write(
        { siteId: user.siteId, userId: user.id, paymentId: pending.id, buyerEmail: user.email },
        priced,
        body,
      );
      return { ...written, payment: pending };
    });
    const checkout = await this.orders.openCheckout(payment, { email: user.email });
    await this.checkoutOpened(order.id, checkout.checkoutId);
    order.checkout_id = checkout.checkoutId;
    return {
      merch_order: toOrderDto(order, items, false),
      checkout_id: checkout.checkoutId,
      checkout_url: checkout.checkoutUrl ?? null,
    };
  }

  /** The server's price of `items` among the site's active products, or the order's refusal (422). */
  async price(siteId: string, items: ReadonlyArray<{ merch_product_id: string; copies: number }>) {
    const ids = [...new Set(items.map((i) => i.merch_product_id))];
    const products = new Map((await this.merch.productsOf(siteId, ids)).map((p) => [p.id, p]));
    const priced = priceOrder(products, items);
    if (!priced.ok)
      throw priced.code === 'MIXED_CURRENCIES'
        ? AppException.unprocessable(
            'MIXED_CURRENCIES',
            'Products in two currencies cannot be bought in one order.',
          )
        : AppException.unprocessable(
            'PRODUCT_NOT_AVAILABLE',
            'One of the products is not sold on this site.',
          );
    return priced;
  }

  /**
   * In the ambient transaction, beside its pending payment (whichever way in wrote it): the order
   * awaiting payment, its items as priced now, and the callback's secret.
   */
  write(
    owner: { siteId: string; userId: string; paymentId: string; buyerEmail: string },
    priced: PricedOrder,
    address: ShippingAddress,
  ) {
    // The callback's secret: 32 url-safe characters, unguessable (DESIGN §7 asks for at least 16).
    const token = randomBytes(24).toString('base64url');
    return this.merch.insertOrder(
      {
        site_id: owner.siteId,
        user_id: owner.userId,
        checkout_id: null,
        payment_id: owner.paymentId,
        fulfilment_order_id: null,
        callback_token: token,
        callback_url: `${this.config.publicBaseUrl}/merch/fulfilment/callback/${token}`,
        idempotency_key: randomUUID(),
        status_stage: 'awaiting_payment',
        status_details: {},
        charges: [],
        shipments: [],
        metadata: { amount_cents: priced.amountCents, currency: priced.currency },
        amount_cents: priced.amountCents,
        currency: priced.currency,
        shipping_method: address.shipping_method ?? 'Standard',
        recipient_name: address.recipient_name,
        recipient_email: address.recipient_email ?? owner.buyerEmail,
        recipient_phone: address.recipient_phone ?? null,
        address_line1: address.address_line1,
        address_line2: address.address_line2 ?? null,
        town_or_city: address.town_or_city,
        state_or_county: address.state_or_county ?? null,
        postal_or_zip_code: address.postal_or_zip_code,
        country_code: address.country_code.toUpperCase(),
      },
      priced.lines.map((line) => ({
        merch_product_id: line.product.id,
        sku: line.product.sku,
        sizing: line.product.sizing,
        copies: line.copies,
        // In the currency's own digits, as the gateway is asked for the payment.
        recipient_cost_amount: minorToMajorString(line.cents, line.product.currency),
        recipient_cost_currency: line.product.currency,
        assets: line.product.assets,
        attributes: line.product.attributes,
      })),
    );
  }

  /** The gateway's checkout, shown on the order once it is open (after the commit). */
  checkoutOpened(orderId: string, checkoutId: string): Promise<void> {
    return this.merch.updateOrder(orderId, { checkout_id: checkoutId });
  }
}

/** The order's shipping address, under the Merch order's own field names (validated by the caller). */
export type ShippingAddress = Omit<CreateMerchOrderDto, 'items'>;

export type PricedOrder = Extract<Priced<MerchProduct>, { ok: true }>;

export function merchDescription(copies: number): string {
  return `Merchandise (${copies} item${copies === 1 ? '' : 's'})`;
}
