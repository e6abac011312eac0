import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { type ItemOrder, type ItemSale, PaymentHooks } from '#app/modules/payments/hooks/payment-hooks.js';
import { merchDescription, MerchOrdersService, type ShippingAddress } from './merch-orders.service.js';
import { MerchRepository } from './merch.repository.js';
import { MAX_COPIES, missingShipping } from './merch.rules.js';

// Product ids are UUIDs; anything else names no product (and must not reach a uuid column's cast).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Endpoint 3 selling a merch product (DESIGN §10): its `item_id` names one of the site's products when it
 * names none of its raffles. Priced here as `POST /merch/orders` prices one line (price × `quantity`
 * copies); endpoint 3 writes the pending payment (purpose `merch`) and this writes the order beside it in
 * the same transaction, so a paid one reaches `MerchPaymentsHandler` and the provider exactly as theirs do.
 */
@Injectable()
export class MerchItemSeller implements OnModuleInit {
  constructor(
    private readonly hooks: PaymentHooks,
    private readonly merch: MerchRepository,
    private readonly orders: MerchOrdersService,
  ) {}

  onModuleInit(): void {
    this.hooks.sellItems((siteId, itemId, order) => this.sale(siteId, itemId, order));
  }

  async sale(siteId: string, itemId: string, order: ItemOrder): Promise<ItemSale | null> {
    if (!UUID.test(itemId)) return null;
    const product = (await this.merch.productsOf(siteId, [itemId])).at(0);
    if (!product) return null; // another site's product is not found, like an unknown one
    const copies = order.quantity ?? 1;
    refuseWhatAProductCannotTake(order, copies);
    const line = [{ merch_product_id: product.id, copies }];
    const priced = await this.orders.price(siteId, line);
    const address = order.fields as unknown as ShippingAddress;
    let orderId: string | null = null;
    return {
      purpose: 'merch',
      amountCents: priced.amountCents,
      currency: priced.currency,
      description: merchDescription(copies),
      details: { merch_product_id: product.id, copies },
      record: async (payment, buyerEmail) => {
        const written = await this.orders.write(
          { siteId, userId: payment.user_id, paymentId: payment.id, buyerEmail },
          priced,
          address,
        );
        orderId = written.order.id;
      },
      opened: async (_paymentId, checkoutId) => {
        if (orderId) await this.orders.checkoutOpened(orderId, checkoutId);
      },
    };
  }
}

/**
 * A product has no bundles (a chosen one would change nothing the buyer could see, so it is refused
 * rather than ignored), 1 to `MAX_COPIES` copies, and ships: the address fields are required.
 */
function refuseWhatAProductCannotTake(order: ItemOrder, copies: number): void {
  if (order.upsells?.length)
    throw AppException.unprocessable('UNKNOWN_UPSELL', 'A merch product offers no bundles; send no upsells.');
  if (copies < 1 || copies > MAX_COPIES)
    throw AppException.validation([
      { field: 'quantity', message: `1 to ${MAX_COPIES} copies of a merch product` },
    ]);
  const missing = missingShipping(order.fields);
  if (missing.length)
    throw AppException.validation(
      missing.map((field) => ({ field, message: 'required to ship a merch product' })),
      `A merch product ships: ${missing.join(', ')} required.`,
    );
}
