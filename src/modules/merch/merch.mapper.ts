import type { MerchOrderDto, MerchOrderItemDto, MerchProductDto } from './dto/merch.dto.js';
import type { MerchOrderItem } from './entities/merch-order-item.entity.js';
import type { MerchOrder } from './entities/merch-order.entity.js';
import type { MerchProduct } from './entities/merch-product.entity.js';
import { byProviderId } from './merch.rules.js';

/** The one place merch rows become answers (the callback token stays inside `callback_url`, admins only). */
export function toProductDto(p: MerchProduct): MerchProductDto {
  return {
    id: p.id,
    site_id: p.site_id,
    name: p.name,
    description: p.description,
    sku: p.sku,
    amount_cents: p.amount_cents,
    currency: p.currency,
    sizing: p.sizing,
    attributes: p.attributes,
    assets: p.assets,
    active: p.active,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export function toItemDto(i: MerchOrderItem): MerchOrderItemDto {
  return {
    id: i.id,
    merch_order_id: i.merch_order_id,
    merch_product_id: i.merch_product_id,
    sku: i.sku,
    sizing: i.sizing,
    copies: i.copies,
    recipient_cost_amount: Number(i.recipient_cost_amount),
    recipient_cost_currency: i.recipient_cost_currency,
    assets: i.assets,
    attributes: i.attributes,
    created_at: i.created_at.toISOString(),
    updated_at: i.updated_at.toISOString(),
  };
}

export function toOrderDto(o: MerchOrder, items: MerchOrderItem[], showCallback = true): MerchOrderDto {
  return {
    id: o.id,
    site_id: o.site_id,
    user_id: o.user_id,
    checkout_id: o.checkout_id,
    payment_id: o.payment_id,
    fulfilment_order_id: o.fulfilment_order_id,
    callback_url: showCallback ? o.callback_url : o.callback_url.replace(o.callback_token, '****'),
    status_stage: o.status_stage,
    status_details: o.status_details,
    charges: byProviderId(o.charges),
    shipments: byProviderId(o.shipments),
    metadata: o.metadata,
    shipping_method: o.shipping_method,
    recipient_name: o.recipient_name,
    recipient_email: o.recipient_email,
    recipient_phone: o.recipient_phone,
    address_line1: o.address_line1,
    address_line2: o.address_line2,
    town_or_city: o.town_or_city,
    state_or_county: o.state_or_county,
    postal_or_zip_code: o.postal_or_zip_code,
    country_code: o.country_code,
    items: items.map(toItemDto),
    created_at: o.created_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
  };
}
