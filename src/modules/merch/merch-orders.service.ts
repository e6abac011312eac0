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
import { majorUnits, priceOrder } from './merch.rules.js';

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
    const ids = [...new Set(body.items.map((i) => i.merch_product_id))];
    const products = new Map((await this.merch.productsOf(user.siteId, ids)).map((p) => [p.id, p]));
    const priced = priceOrder(products, body.items);
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
    // The callback's secret: 32 url-safe characters, unguessable (DESIGN §7 asks for at least 16).
    const token = randomBytes(24).toString('base64url');
    const copies = body.items.reduce((n, i) => n + i.copies, 0);
    const { order, items, payment } = await this.tx.run(async () => {
      const pending = await this.orders.createPending(
        {
          purpose: 'merch',
          siteId: user.siteId,
          userId: user.id,
          amountCents: priced.amountCents,
          currency: priced.currency,
          description: `Merchandise (${copies} item${copies === 1 ? '' : 's'})`,
          metadata: { kind: 'merch' },
        },
        meta,
      );
      const written = await this.merch.insertOrder(
        {
          site_id: user.siteId,
          user_id: user.id,
          checkout_id: null,
          payment_id: pending.id,
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
          shipping_method: body.shipping_method ?? 'Standard',
          recipient_name: body.recipient_name,
          recipient_email: body.recipient_email ?? user.email,
          recipient_phone: body.recipient_phone ?? null,
          address_line1: body.address_line1,
          address_line2: body.address_line2 ?? null,
          town_or_city: body.town_or_city,
          state_or_county: body.state_or_county ?? null,
          postal_or_zip_code: body.postal_or_zip_code,
          country_code: body.country_code.toUpperCase(),
        },
        priced.lines.map((line) => ({
          merch_product_id: line.product.id,
          sku: line.product.sku,
          sizing: line.product.sizing,
          copies: line.copies,
          recipient_cost_amount: majorUnits(line.cents),
          recipient_cost_currency: line.product.currency,
          assets: line.product.assets,
          attributes: line.product.attributes,
        })),
      );
      return { ...written, payment: pending };
    });
    const checkout = await this.orders.openCheckout(payment, { email: user.email });
    await this.merch.updateOrder(order.id, { checkout_id: checkout.checkoutId });
    order.checkout_id = checkout.checkoutId;
    return {
      merch_order: toOrderDto(order, items, false),
      checkout_id: checkout.checkoutId,
      checkout_url: checkout.checkoutUrl ?? null,
    };
  }
}
